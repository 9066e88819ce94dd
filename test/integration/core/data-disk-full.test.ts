import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLog, type FileLog } from '../../../src-main/common/file-log.js';
import type { CoreEvent } from '../../../src-main/core/app-core.js';
import { runCli, startInProcessOwner, stopRunningClis } from '../../helpers/cli-process.js';
import { sha256File, sha256Url, tempDir, writeRandomFile } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { CAN_MOUNT, fillDisk, MOUNT_SKIP_NOTE, tmpfsDir } from '../../helpers/tmpfs.js';

const FILES = 30;

/**
 * Media Sync's own disk full (docs/uploads.md, A full disk): the data folder
 * (database and log) on a 48 MB tmpfs filled to the last byte, 30 files
 * dropped into a watched folder on another disk, with the core running and
 * its owner socket open, against the reference server. The full disk is said
 * in the folder's state, the queue's hold, the CLI's `queue ls` and
 * `folders`, and once as a notification; once the filler is deleted the 30
 * files go by themselves, each once.
 */
describe.skipIf(!CAN_MOUNT)(`Media Sync's own disk is full${MOUNT_SKIP_NOTE}`, { timeout: 120_000 }, () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tmpfsDir>>;
  let watched: Awaited<ReturnType<typeof tempDir>>;
  let log: FileLog;
  let owner: Awaited<ReturnType<typeof startInProcessOwner>> | undefined;

  beforeEach(async () => {
    server = await startTestServer({ conversions: false, rateLimit: 100_000 });
    data = await tmpfsDir('media-sync-full-data-', 48);
    watched = await tempDir('media-sync-full-watched-');
  });

  afterEach(async () => {
    await stopRunningClis();
    await owner?.close();
    owner = undefined;
    await log?.close();
    await server.close();
    await data.remove();
    await watched.remove();
  });

  /**
   * Fills the data folder's disk to the last byte. SQLite's write-ahead log
   * is emptied first: a log that has wrapped around takes the next commits
   * in pages it already has, so only the first commit that needs a new page
   * would fail, at a moment of SQLite's choosing.
   */
  async function fillDataDisk(): Promise<string> {
    owner!.engine.db.pragma('wal_checkpoint(TRUNCATE)');
    return fillDisk(data.path);
  }

  async function serverFileNames(): Promise<string[]> {
    const body = JSON.parse((await server.api('/files?per_page=100')).body.toString()) as {
      data: Array<{ filename: string }>;
    };
    return body.data.map((file) => file.filename).sort();
  }

  it('says so in the folder, the queue, the CLI and one notification, then uploads the 30 files once there is room', async () => {
    log = createFileLog({ dir: join(data.path, 'logs') });
    owner = await startInProcessOwner(data.path, { engine: { log }, core: { log } });
    const events: CoreEvent[] = [];
    owner.core.onDidEmit((event) => events.push(event));
    const { contract } = owner;
    const account = await contract.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    const folder = await contract.invoke('folders:add', { accountId: account.id, path: watched.path });

    const filler = await fillDataDisk();
    const names = Array.from({ length: FILES }, (_, index) => `clip-${String(index).padStart(2, '0')}.txt`);
    await Promise.all(names.map((name) => writeFile(join(watched.path, name), `the content of ${name}`)));

    const held = await waitFor(
      async () => {
        const { hold } = await contract.invoke('uploads:status', {});
        return hold?.reason === 'dataDiskFull' && hold.waiting === FILES ? hold : undefined;
      },
      30_000,
      `the queue held for the full disk, with ${FILES} files waiting`,
    );
    expect(held.since).toBeGreaterThan(0);
    const [status] = await contract.invoke('folders:status', {});
    expect(status).toMatchObject({ id: folder.id, state: { kind: 'problem', problem: 'dataDiskFull' } });
    // nothing could be queued: the files wait in memory, and nothing reached the service
    expect(await serverFileNames()).toEqual([]);

    const cli = (args: string[]) => runCli(args, { home: data.path });
    const queue = await cli(['queue', 'ls']);
    expect(queue).toMatchObject({ code: 0, stderr: '' });
    expect(queue.stdout).toContain(`Media Sync’s disk is full: ${FILES} files wait.`);
    const folders = await cli(['folders']);
    expect(folders).toMatchObject({ code: 0, stderr: '' });
    expect(folders.stdout).toMatch(
      new RegExp(
        `^#${folder.id} +${watched.path} +Media Sync’s disk is full: new files wait until its data folder’s disk has room`,
      ),
    );
    const notifications = () =>
      events.filter(
        ({ name, payload }) => name === 'notifications:added' && (payload as { kind: string }).kind === 'dataDiskFull',
      );
    expect(notifications()).toHaveLength(1);
    expect(notifications()[0]!.payload).toMatchObject({ title: 'Media Sync’s disk is full' });

    await rm(filler);
    await waitFor(
      async () => ((await serverFileNames()).length >= FILES ? true : undefined),
      30_000,
      `the ${FILES} files on the service once there is room`,
    );
    await contract.invoke('folders:whenSettled', {});
    await owner.engine.queue.whenIdle();
    // each once, with nothing left waiting, and said once
    expect(await serverFileNames()).toEqual(names);
    expect((await contract.invoke('uploads:status', {})).hold).toBeNull();
    const after = await waitFor(
      async () => {
        const [now] = await contract.invoke('folders:status', {});
        return now?.state.kind === 'watching' ? now : undefined;
      },
      10_000,
      'the folder up to date',
    );
    expect(after.counts).toMatchObject({ uploaded: FILES, failed: 0, skipped: 0 });
    expect(notifications()).toHaveLength(1);
    expect(await readFile(log.path, 'utf8')).toContain("Media Sync's disk has room again: uploads go on.");
  });

  it('stops an upload whose chunk cannot be saved, keeps the app running, and ends it once there is room', async () => {
    log = createFileLog({ dir: join(data.path, 'logs') });
    owner = await startInProcessOwner(data.path, { engine: { log }, core: { log } });
    const { contract } = owner;
    const account = await contract.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    // 1 MB chunks at 1 MB/s: a chunk acknowledged every second, each saved as it comes
    await contract.invoke('settings:update', { bandwidthBytesPerSecond: 1_000_000, chunkSizeBytes: 1_000_000 });
    const path = join(watched.path, 'clip.bin');
    await writeRandomFile(path, 4_000_000);
    await contract.invoke('uploads:addPaths', { accountId: account.id, paths: [path] });
    const stateNow = async () => (await contract.invoke('uploads:list', { offset: 0, limit: 10 })).items[0]!.state;
    const acked = async () => {
      const state = await stateNow();
      return state.kind === 'uploading' ? state.ackedBytes : -1;
    };
    await waitFor(async () => ((await acked()) >= 1_000_000 ? true : undefined), 30_000, 'a first chunk saved');

    const filler = await fillDataDisk();
    const held = await waitFor(
      async () => {
        const status = await contract.invoke('uploads:status', {});
        return status.hold?.reason === 'dataDiskFull' && status.active === 0 ? status.hold : undefined;
      },
      30_000,
      'the upload stopped and the queue held for the full disk',
    );
    expect(held).toMatchObject({ waiting: 1 });

    await rm(filler);
    const done = await waitFor(
      async () => {
        const state = await stateNow();
        return state.kind === 'done' ? state : undefined;
      },
      60_000,
      'the upload done once there is room',
    );
    // one file on the service, whole
    expect(await serverFileNames()).toEqual(['clip.bin']);
    expect(await sha256Url(`${server.fileHost}/${done.fileId}/file`)).toBe(await sha256File(path));
    expect((await contract.invoke('uploads:status', {})).hold).toBeNull();
  });
});
