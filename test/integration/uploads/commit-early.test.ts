import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadItem } from '../../../src-shared/model/upload-state.js';
import { startFaultProxy, type FaultProxy, type ProxiedRequest } from '../../helpers/fault-proxy.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import {
  openEngine,
  sha256File,
  sha256Url,
  tempDir,
  writeRandomFile,
  type EngineFixture,
} from '../../helpers/engine-fixture.js';

const UPLOAD = '/api/v1/files/upload';
/**
 * Above the size sent as one piece (multipart-body.ts), so a chunk's body
 * goes out piece by piece under the limit and a pause lands while it is
 * still being sent: a chunk whose body is all sent waits for its answer and
 * is kept (upload-stop-answer.test.ts)
 */
const CHUNK = 512 * 1024;
/** 10 whole chunks and a last one of 1,000 bytes */
const SIZE = 10 * CHUNK + 1_000;
const CHUNKS = 11;
/** bytes per second: a chunk every ~0.5 s, so one is nearly always in flight */
const LIMIT = 1_000_000;

/**
 * Files of 11 chunks sent under a bandwidth limit (where one chunk in flight
 * fills the link, so the engine sends one at a time) through a proxy that
 * sees every request: a pause, a pause after this chunk and a dropped
 * network each cost at most the chunk in flight.
 */
describe('uploads commit early: chunks in order, one at a time under a limit', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  let fixture: EngineFixture;
  let files: Awaited<ReturnType<typeof tempDir>>;
  let path: string;

  beforeEach(async () => {
    server = await startTestServer();
    proxy = await startFaultProxy(new URL(server.baseUrl).origin);
    files = await tempDir('media-sync-commit-early-');
    path = join(files.path, 'clip.mp4');
    await writeRandomFile(path, SIZE, 23);
    fixture = await openEngine(`${proxy.url}/api/v1`, server.token, {
      chunkSize: CHUNK,
      bandwidthBytesPerSecond: LIMIT,
      chunksPerFile: 3,
    });
  });

  afterEach(async () => {
    await fixture.close();
    await proxy.close();
    await server.close();
    await files.remove();
  });

  /** Runs `then` just after the head of the `n`-th (0-based) upload request reached the proxy: that chunk is in flight. */
  function whenUploadStarts<T>(n: number, then: () => T | Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      // a rule that never applies: its matcher sees every request's head as it arrives
      proxy.addRule({
        match: (request) => {
          if (request.path === UPLOAD && request.pathIndex === n) {
            setImmediate(() => Promise.resolve().then(then).then(resolve, reject));
          }
          return false;
        },
        fault: { kind: 'close-before-response' },
      });
    });
  }

  const uploadRequests = (): Readonly<ProxiedRequest>[] => proxy.requests.filter((r) => r.path === UPLOAD);
  /** upload requests whose exchange was cut: the bytes of a chunk in flight, lost */
  const cut = () => uploadRequests().filter((r) => r.status === null);

  /** Every chunk reached the server acknowledged exactly once, in order, under one dzuuid, and the file is whole. */
  async function expectEachChunkOnceInOrder(item: UploadItem): Promise<void> {
    const done = fixture.engine.queue.get(item.id)!;
    expect(done.state.kind).toBe('done');
    const answered = server.server.uploadLog.entries().filter((u) => u.status >= 200 && u.status < 300);
    expect(answered.map((u) => u.chunkIndex)).toEqual([...Array(CHUNKS).keys()]);
    expect(new Set(answered.map((u) => u.dzuuid)).size).toBe(1);
    const fileId = done.state.kind === 'done' ? done.state.fileId : '';
    expect(await sha256Url(`${server.fileHost}/${fileId}/file`)).toBe(await sha256File(path));
  }

  it('a pause keeps every chunk acknowledged before it, and after resume only the others are sent', async () => {
    const { queue } = fixture.engine;
    const { item } = await queue.enqueue({ accountId: fixture.accountId, path });
    const paused = whenUploadStarts(4, () => queue.pause(item.id));
    queue.start();

    const atPause = (await paused)!;
    expect(atPause.state).toEqual({ kind: 'paused', until: null });
    // one chunk at a time: the four before the one in flight were acknowledged and committed
    expect(atPause.ackedChunks).toEqual([0, 1, 2, 3]);
    await queue.whenIdle();
    expect(cut()).toHaveLength(1);

    await queue.resume(item.id);
    await queue.whenIdle();
    await expectEachChunkOnceInOrder(item);
    // one request at a time: each began after the one before it ended
    const uploads = uploadRequests();
    expect(uploads).toHaveLength(CHUNKS + 1);
    for (let i = 1; i < uploads.length; i++) expect(uploads[i]!.at).toBeGreaterThanOrEqual(uploads[i - 1]!.endedAt!);
  });

  it('pause after this chunk commits the chunk in flight and starts nothing else; pause now while it waits stops at once', async () => {
    const { queue } = fixture.engine;
    const { item } = await queue.enqueue({ accountId: fixture.accountId, path });
    const asked = whenUploadStarts(4, () => queue.pause(item.id, null, { afterChunk: true }));
    queue.start();

    expect((await asked)!.state).toMatchObject({ kind: 'uploading', pausing: true, ackedBytes: 4 * CHUNK });
    await queue.whenIdle();
    const paused = queue.get(item.id)!;
    expect(paused.state).toEqual({ kind: 'paused', until: null });
    expect(paused.ackedChunks).toEqual([0, 1, 2, 3, 4]);
    expect(uploadRequests().map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

    // again, and "pause now" while it waits: the chunk in flight is abandoned at once
    const again = whenUploadStarts(7, async () => {
      const pausing = await queue.pause(item.id, null, { afterChunk: true });
      return { pausing, now: await queue.pause(item.id) };
    });
    await queue.resume(item.id);
    const { pausing, now } = await again;
    expect(pausing!.state).toMatchObject({ kind: 'uploading', pausing: true });
    expect(now!.state).toEqual({ kind: 'paused', until: null });
    expect(now!.ackedChunks).toEqual([0, 1, 2, 3, 4, 5, 6]);
    await queue.whenIdle();
    expect(cut()).toHaveLength(1);

    await queue.resume(item.id);
    await queue.whenIdle();
    await expectEachChunkOnceInOrder(item);
  });

  it('a quit while a pause after this chunk waits leaves the upload paused, its acknowledged chunks kept', async () => {
    const { queue } = fixture.engine;
    const { item } = await queue.enqueue({ accountId: fixture.accountId, path });
    const asked = whenUploadStarts(4, () => queue.pause(item.id, null, { afterChunk: true }));
    queue.start();
    expect((await asked)!.state).toMatchObject({ kind: 'uploading', pausing: true });

    await queue.stop();
    const stopped = queue.get(item.id)!;
    expect(stopped.state).toEqual({ kind: 'paused', until: null });
    expect(stopped.ackedChunks).toEqual([0, 1, 2, 3]);
  });

  it('pausing the queue after the chunks in flight puts the upload back in line with that chunk committed', async () => {
    const { queue } = fixture.engine;
    const { item } = await queue.enqueue({ accountId: fixture.accountId, path });
    const asked = whenUploadStarts(4, async () => {
      await queue.pauseAll(null, { afterChunk: true });
      return queue.get(item.id)!;
    });
    queue.start();

    expect((await asked).state).toMatchObject({ kind: 'uploading', pausing: true });
    expect(queue.status().pause).toEqual({ until: null });
    await queue.whenIdle();
    const held = queue.get(item.id)!;
    expect(held.state).toEqual({ kind: 'queued' });
    expect(held.ackedChunks).toEqual([0, 1, 2, 3, 4]);
    expect(cut()).toEqual([]);

    queue.resumeAll();
    await queue.whenIdle();
    await expectEachChunkOnceInOrder(item);
  });

  it('a network that drops mid-chunk costs that chunk only: the upload goes on from it', async () => {
    const { queue } = fixture.engine;
    const { item } = await queue.enqueue({ accountId: fixture.accountId, path });
    const dropped = whenUploadStarts(4, () => proxy.dropConnections());
    queue.start();
    await dropped;
    await queue.whenIdle();

    expect(cut()).toHaveLength(1);
    await expectEachChunkOnceInOrder(item);
  });
});
