import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore, CoreEvent } from '../../../src-main/core/app-core.js';
import { systemClock, type Clock } from '../../../src-main/common/clock.js';
import { Engine } from '../../../src-main/core/engine.js';
import type { IpcCommandName, IpcRequest } from '../../../src-shared/ipc/ipc-contract.js';
import { callCore, createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const DAY = 24 * 60 * 60_000;

/**
 * Settings → "Remove finished uploads from the queue after": done and
 * cancelled items older than that leave the queue; what the folders sent,
 * the followed conversions and the file ids stay, so nothing is sent twice.
 * The days pass on a wall clock that jumps (timers keep the real one).
 */
describe('finished uploads removed from the queue after the set days', () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let watched: Awaited<ReturnType<typeof tempDir>>;
  let elsewhere: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let core: AppCore;
  let events: CoreEvent[];
  let shift = 0;
  const clock: Clock = { ...systemClock, wall: () => Date.now() + shift };

  async function open(): Promise<void> {
    engine = await Engine.open({ dataDir: data.path, clock, settleMs: 100 });
    core = createAppCore(engine, data.path, { clock });
    events = [];
    core.onDidEmit((event) => events.push(event));
    await core.start();
  }

  async function close(): Promise<void> {
    await core.dispose();
    await engine.close();
  }

  const call = <N extends IpcCommandName>(name: N, request: IpcRequest<N>) => callCore(core, name, request);

  /** Every file the folders saw looked at, and every upload that could run finished. */
  async function settled(): Promise<void> {
    await engine.sync.whenSettled();
    await engine.queue.whenIdle();
  }

  beforeEach(async () => {
    shift = 0;
    server = await startTestServer({ rateLimit: 100_000, conversions: false });
    data = await tempDir('media-sync-pruning-data-');
    watched = await tempDir('media-sync-pruning-watched-');
    elsewhere = await tempDir('media-sync-pruning-elsewhere-');
    await open();
  });

  afterEach(async () => {
    await close();
    await server.close();
    for (const dir of [data, watched, elsewhere]) await dir.remove();
  });

  it('removes what finished before, keeps what the folders sent, and uploads nothing again after a restart', async () => {
    const { id: accountId } = await call('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    await writeFile(join(watched.path, 'old-1.jpg'), 'the first photo');
    await writeFile(join(watched.path, 'old-2.jpg'), 'the second photo');
    await call('folders:add', { accountId, path: watched.path });
    const byHand = join(elsewhere.path, 'by-hand.jpg');
    await writeFile(byHand, 'a photo uploaded by hand');
    await call('uploads:addPaths', { accountId, paths: [byHand] });
    await settled();
    // one the person cancelled before it went
    await engine.queue.pauseAll(null);
    const declined = join(elsewhere.path, 'declined.jpg');
    await writeFile(declined, 'not this one');
    const [queued] = await call('uploads:addPaths', { accountId, paths: [declined] });
    await call('uploads:cancel', { id: queued!.id });
    engine.queue.resumeAll();
    // three days later, one more
    shift = 3 * DAY;
    await writeFile(join(watched.path, 'newer.jpg'), 'a newer photo');
    await engine.sync.rescan();
    await settled();
    const kinds = () =>
      Object.fromEntries(engine.uploads.list().map((item) => [item.fileName, item.state.kind] as const));
    expect(kinds()).toEqual({
      'old-1.jpg': 'done',
      'old-2.jpg': 'done',
      'by-hand.jpg': 'done',
      'declined.jpg': 'cancelled',
      'newer.jpg': 'done',
    });
    const fileIds = Object.fromEntries(
      engine.uploads.list().flatMap((item) => (item.state.kind === 'done' ? [[item.fileName, item.state.fileId]] : [])),
    );
    const folderId = engine.folders.list()[0]!.id;
    // the app stopped between old-2's done and its entry in the folder's index
    engine.db.prepare(`DELETE FROM sync_index WHERE rel_path = 'old-2.jpg'`).run();

    // eight days after the first ones: "never" removes nothing, 7 days the four older than that
    shift = 8 * DAY;
    await call('settings:update', { removeFinishedAfterDays: null });
    await engine.pruning.pass();
    expect(Object.keys(kinds())).toHaveLength(5);
    await call('settings:update', { removeFinishedAfterDays: 7 });
    await engine.pruning.pass();
    expect(kinds()).toEqual({ 'newer.jpg': 'done' });
    expect(events.filter((event) => event.name === 'uploads:removed').map((event) => event.payload)).toEqual([
      { removed: 4 },
    ]);
    // what was sent stays: the folder's index (old-2 recorded before its item went), the followed files, the ids
    for (const name of ['old-1.jpg', 'old-2.jpg', 'newer.jpg']) {
      expect(engine.index.lookup(folderId, name)?.fileId).toBe(fileIds[name]);
    }
    expect(
      engine.conversions
        .list()
        .map((follow) => follow.name)
        .sort(),
    ).toEqual(['by-hand.jpg', 'newer.jpg', 'old-1.jpg', 'old-2.jpg']);
    expect(Object.values(fileIds).every((id) => engine.uploads.isKnownFileId(id))).toBe(true);

    await close();
    await open();
    await settled();
    expect(kinds()).toEqual({ 'newer.jpg': 'done' });
    expect(server.server.uploadLog.entries()).toHaveLength(4);
  });

  it('a day: at start, items finished more than a day ago go; the setting saved survives the restart', async () => {
    const { id: accountId } = await call('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    await call('settings:update', { removeFinishedAfterDays: 1 });
    const path = join(elsewhere.path, 'photo.jpg');
    await writeFile(path, 'a photo');
    await call('uploads:addPaths', { accountId, paths: [path] });
    await settled();
    const settings = await call('settings:get', {});
    await close();
    shift = 2 * DAY;
    engine = await Engine.open({ dataDir: data.path, clock, settleMs: 100 });
    core = createAppCore(engine, data.path, { clock, settings: { read: () => settings, write: () => undefined } });
    events = [];
    core.onDidEmit((event) => events.push(event));
    await core.start();
    await waitFor(() => events.find((event) => event.name === 'uploads:removed'), 10_000, 'the pruning at start');
    expect(engine.uploads.list()).toEqual([]);
    expect(server.server.uploadLog.entries()).toHaveLength(1);
  });
});
