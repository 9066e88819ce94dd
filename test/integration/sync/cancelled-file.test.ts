import { appendFile, chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadItem } from '../../../src-shared/model/upload-state.js';
import { Engine } from '../../../src-main/core/engine.js';
import { openEngine, tempDir, type EngineFixture } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { beforeIndexedStates } from '../../helpers/older-database.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const SETTLE_MS = 200;

/**
 * Cancel, for a file of a watched folder, means "not this file": the folder
 * does not queue it again (a restart, a rescan, the queue cleared, a rename)
 * until the file changes or the person retries it.
 */
describe('a cancelled file of a watched folder', () => {
  let server: TestServer;
  let folder: Awaited<ReturnType<typeof tempDir>>;
  let fixture: EngineFixture;
  /** the engine open now: the fixture's, or the one opened again on its data folder */
  let engine: Engine;

  beforeEach(async () => {
    server = await startTestServer({ rateLimit: 100_000 });
    folder = await tempDir('media-sync-cancelled-');
    fixture = await openEngine(server.baseUrl, server.token, { settleMs: SETTLE_MS });
    engine = fixture.engine;
  });

  afterEach(async () => {
    await engine.close();
    await rm(fixture.dataDir, { recursive: true, force: true });
    await server.close();
    await folder.remove();
  });

  /**
   * The folder is watched and `name` queued while the queue does not run yet
   * (nothing is sent), then the person cancels the item.
   */
  async function queueAndCancel(name: string): Promise<UploadItem> {
    await writeFile(join(folder.path, name), `the bytes of ${name}`);
    await engine.sync.addFolder(fixture.accountId, folder.path);
    const queued = await waitFor(
      () => engine.uploads.list().find((item) => item.fileName === name),
      10_000,
      `${name} in the queue`,
    );
    const cancelled = (await engine.queue.cancel(queued.id))!;
    expect(cancelled.state.kind).toBe('cancelled');
    return cancelled;
  }

  /** Closes the engine and opens another on the same data folder; resolves once it looked at every file and sent what it queued. */
  async function restart(): Promise<void> {
    await engine.close();
    engine = await Engine.open({ dataDir: fixture.dataDir, settleMs: SETTLE_MS });
    engine.queue.start();
    await engine.sync.start();
    await settled();
  }

  /** Every file seen looked at, and every upload that could run finished. */
  async function settled(): Promise<void> {
    await engine.sync.whenSettled();
    await engine.queue.whenIdle();
  }

  /** A walk of the watched folders, waited for: what a file event would do, without racing one. */
  async function rescan(): Promise<void> {
    await engine.sync.rescan();
    await settled();
  }

  async function serverFileNames(): Promise<string[]> {
    const body = JSON.parse((await server.api('/files?per_page=100')).body.toString()) as {
      data: { filename: string }[];
    };
    return body.data.map((file) => file.filename).sort();
  }

  const states = () => engine.uploads.list().map((item) => [item.fileName, item.state.kind]);

  it('is not queued again after a restart: no new item, nothing uploaded', async () => {
    await queueAndCancel('declined.mp4');
    await restart();
    await rescan();
    expect(states()).toEqual([['declined.mp4', 'cancelled']]);
    expect(await serverFileNames()).toEqual([]);
    expect(server.server.uploadLog.entries()).toHaveLength(0);
  });

  it('is not queued again once removed from the queue (clear finished), nor after a restart', async () => {
    await queueAndCancel('declined.mp4');
    expect(engine.queue.clearFinished()).toBe(1);
    engine.queue.start();
    await rescan();
    expect(engine.uploads.list()).toEqual([]);
    await restart();
    expect(engine.uploads.list()).toEqual([]);
    expect(await serverFileNames()).toEqual([]);
    expect(server.server.uploadLog.entries()).toHaveLength(0);
  });

  it('is not queued again when touched without changing, or renamed or moved within the folder', async () => {
    await queueAndCancel('declined.mp4');
    engine.queue.start();
    await chmod(join(folder.path, 'declined.mp4'), 0o600);
    await rescan();
    await mkdir(join(folder.path, 'sorted'));
    await rename(join(folder.path, 'declined.mp4'), join(folder.path, 'sorted', 'renamed.mp4'));
    await rescan();
    expect(states()).toEqual([['declined.mp4', 'cancelled']]);
    await restart();
    expect(states()).toEqual([['declined.mp4', 'cancelled']]);
    expect(server.server.uploadLog.entries()).toHaveLength(0);
  });

  it('uploads once when the file changes: a new version', async () => {
    await queueAndCancel('declined.mp4');
    await restart();
    await appendFile(join(folder.path, 'declined.mp4'), ', and a new ending');
    await rescan();
    expect(states()).toEqual([
      ['declined.mp4', 'cancelled'],
      ['declined.mp4', 'done'],
    ]);
    await restart();
    expect(await serverFileNames()).toEqual(['declined.mp4']);
    expect(server.server.uploadLog.entries()).toHaveLength(1);
  });

  it('uploads once when the person retries it, and not again after a restart', async () => {
    const cancelled = await queueAndCancel('declined.mp4');
    engine.queue.start();
    await engine.queue.retry(cancelled.id);
    await settled();
    expect(states()).toEqual([['declined.mp4', 'done']]);
    await restart();
    expect(await serverFileNames()).toEqual(['declined.mp4']);
    expect(server.server.uploadLog.entries()).toHaveLength(1);
  });

  it('uploads once when the person uploads it themselves; the folder still leaves it alone, the queue cleared', async () => {
    const cancelled = await queueAndCancel('declined.mp4');
    engine.queue.start();
    // what uploads:addPaths (a drop, `media-sync upload FILE`) does
    const { outcome } = await engine.queue.enqueue({ accountId: fixture.accountId, path: cancelled.path });
    expect(outcome).toBe('new');
    await settled();
    engine.queue.clearFinished();
    await restart();
    expect(engine.uploads.list()).toEqual([]);
    expect(await serverFileNames()).toEqual(['declined.mp4']);
    expect(server.server.uploadLog.entries()).toHaveLength(1);
  });

  it('stays cancelled across the update that brought this: a database from before it learns what was cancelled', async () => {
    await queueAndCancel('declined.mp4');
    await engine.close();
    // the database as the version before kept it: the queue's rows, no table of declined files (nor what came later)
    const db = new Database(join(fixture.dataDir, 'media-sync.db'));
    beforeIndexedStates(db);
    db.exec('DROP TABLE sync_declined; PRAGMA user_version = 2;');
    db.close();
    await restart();
    expect(states()).toEqual([['declined.mp4', 'cancelled']]);
    expect(server.server.uploadLog.entries()).toHaveLength(0);
  });

  it('is forgotten with its folder: the folder removed and added again uploads it', async () => {
    await queueAndCancel('declined.mp4');
    engine.queue.start();
    const [watched] = engine.folders.list();
    await engine.sync.removeFolder(watched!.id);
    await engine.sync.addFolder(fixture.accountId, folder.path);
    await waitFor(() => (engine.uploads.list().length === 2 ? true : undefined), 10_000, 'the file queued again');
    await settled();
    expect(states()).toEqual([
      ['declined.mp4', 'cancelled'],
      ['declined.mp4', 'done'],
    ]);
    expect(server.server.uploadLog.entries()).toHaveLength(1);
  });
});
