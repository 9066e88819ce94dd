import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/api-client/api-error.js';
import type { MediaApiClient } from '../../../src-main/api-client/media-api-client.js';
import { ConversionFollower } from '../../../src-main/conversions/conversion-follower.js';
import { ConversionStore } from '../../../src-main/conversions/conversion-store.js';
import { openDatabase, type Db } from '../../../src-main/storage/database.js';
import type { FileStatus } from '../../../src-shared/api/index.js';
import type { ConversionFollow } from '../../../src-shared/model/conversion-follow.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const WALL_START = Date.UTC(2025, 0, 1);
const HOUR = 3_600_000;

type Answer = FileStatus | ApiError | Promise<FileStatus>;

function status(conversionStatus?: string, stage = 'transcoding'): FileStatus {
  return {
    file: { id: 'f1', name: 'clip.mp4', allow_online_watch: true },
    ...(conversionStatus && {
      conversion: {
        status: conversionStatus,
        stage,
        attempts: 1,
        duration_seconds: 2,
        error: null,
        updated_at: '2025-01-01 00:00:00',
      },
    }),
  };
}

/** A scripted client: status answers in order (the last one repeats), and the time of every request. */
function scriptedClient(clock: FakeClock, answers: Answer[]) {
  const calls: Array<{ path: string; at: number; priority: string }> = [];
  const client = {
    async getFileStatus(id: string, priority: string) {
      calls.push({ path: `/files/${id}/status`, at: clock.monotonic(), priority });
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      if (answer instanceof ApiError) throw answer;
      return answer;
    },
    async getFile(id: string, priority: string) {
      calls.push({ path: `/files/${id}`, at: clock.monotonic(), priority });
      return { urls: { watch: `http://files.test/${id}/watch` } };
    },
  };
  return { client: client as unknown as MediaApiClient, calls };
}

describe('ConversionFollower (the runner, on a fake clock and an in-memory database)', () => {
  let db: Db;
  let follower: ConversionFollower | undefined;

  afterEach(() => {
    follower?.dispose();
    db?.close();
  });

  function setup(answers: Answer[]) {
    const clock = new FakeClock({ wallStart: WALL_START });
    db = openDatabase(':memory:');
    const { client, calls } = scriptedClient(clock, answers);
    const store = new ConversionStore(db);
    follower = new ConversionFollower({ store, clientFor: () => client, clock });
    const changes: ConversionFollow[] = [];
    follower.onDidChange((change) => changes.push(change));
    follower.start();
    return { clock, calls, changes, store, follower };
  }

  it('polls at 10 s, again at 10 s when the stage moved, then doubles, and ends ready with the watch link', async () => {
    const { clock, calls, changes } = setup([
      status('processing', 'probing'),
      status('processing', 'transcoding'),
      status('processing', 'transcoding'),
      status('completed', 'adaptive'),
    ]);
    follower!.follow({ accountId: 'a1', fileId: 'f1', name: 'clip.mp4', uploadId: 7, mime: 'video/mp4' });
    await clock.advance(10 * 60_000);
    expect(calls).toEqual([
      { path: '/files/f1/status', at: 10_000, priority: 'background' },
      { path: '/files/f1/status', at: 20_000, priority: 'background' },
      { path: '/files/f1/status', at: 30_000, priority: 'background' },
      { path: '/files/f1/status', at: 50_000, priority: 'background' },
      { path: '/files/f1', at: 50_000, priority: 'background' },
    ]);
    expect(
      changes.map((c) => (c.state.kind === 'following' ? (c.state.conversion?.stage ?? 'new') : c.state.kind)),
    ).toEqual(['new', 'probing', 'transcoding', 'ready']);
    expect(changes.at(-1)).toMatchObject({ uploadId: 7, watchUrl: 'http://files.test/f1/watch' });
  });

  it('sends no request for a file that is not a video, and stops at a 404', async () => {
    const notFound = new ApiError({ status: 404, code: 'NOT_FOUND', message: 'Not found.', retryable: false });
    const { clock, calls, changes } = setup([notFound]);
    follower!.follow({ accountId: 'a1', fileId: 'doc', name: 'notes.txt', mime: 'text/plain' });
    follower!.follow({ accountId: 'a1', fileId: 'gone', name: 'gone.mp4' });
    await clock.advance(HOUR);
    expect(calls.map((c) => c.path)).toEqual(['/files/gone/status']);
    expect(changes.map((c) => [c.fileId, c.state.kind])).toEqual([
      ['doc', 'uploaded'],
      ['gone', 'following'],
      ['gone', 'deleted'],
    ]);
  });

  it('never sends a second status request for a file while one is out', async () => {
    let release!: (value: FileStatus) => void;
    const slow = new Promise<FileStatus>((resolve) => (release = resolve));
    const { clock, calls } = setup([slow, status('completed', 'adaptive')]);
    follower!.follow({ accountId: 'a1', fileId: 'f1', name: 'clip.mp4', watchUrl: 'http://files.test/f1/watch' });
    await clock.advance(HOUR);
    expect(calls.length).toBe(1);
    release(status('processing'));
    await clock.advance(10_000);
    expect(calls.map((c) => c.at)).toEqual([10_000, HOUR + 10_000]);
  });

  it('backs off to 2 min while nothing moves and stops after 24 h', async () => {
    const { clock, calls, changes } = setup([status('processing')]);
    follower!.follow({ accountId: 'a1', fileId: 'f1', name: 'clip.mp4' });
    await clock.advance(25 * HOUR);
    const gaps = calls.slice(1).map((c, i) => c.at - calls[i]!.at);
    expect(gaps.slice(0, 5)).toEqual([10_000, 20_000, 40_000, 80_000, 120_000]);
    expect(Math.max(...gaps)).toBe(120_000);
    expect(calls.at(-1)!.at).toBeLessThanOrEqual(24 * HOUR);
    expect(changes.at(-1)!.state.kind).toBe('stopped');
    expect(calls.length).toBeLessThan(24 * 30 + 10);
  });

  it('picks up what an earlier run followed, from the database', async () => {
    const { clock, calls, store } = setup([status('completed', 'adaptive')]);
    follower!.follow({ accountId: 'a1', fileId: 'f1', name: 'clip.mp4', watchUrl: 'http://files.test/f1/watch' });
    follower!.dispose();
    const { client } = scriptedClient(clock, [status('completed', 'adaptive')]);
    const again = new ConversionFollower({ store, clientFor: () => client, clock });
    const ready: ConversionFollow[] = [];
    again.onDidChange((change) => ready.push(change));
    again.start();
    await clock.advance(60_000);
    expect(calls).toEqual([]);
    expect(ready.map((c) => c.state.kind)).toEqual(['ready']);
    again.dispose();
  });
});
