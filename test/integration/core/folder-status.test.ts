import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { FOLDER_STATUS_EVERY_MS } from '../../../src-main/sync/folder-status-service.js';
import type { IpcCommandName, IpcRequest } from '../../../src-shared/ipc/ipc-contract.js';
import type { FolderStatus } from '../../../src-shared/model/folder-status.js';
import { callCore, createAppCore, resultOf, untilFolder } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const SETTLE_MS = 200;
/** how often the core looks at each folder's path here (30 s in the app) */
const FOLDER_CHECK_MS = 300;

/**
 * A watched folder's status through the contract, on the real core: the
 * reference server, real temp folders and SQLite. Two folders, files
 * dropped into one, the folder deleted and made again, one folder paused,
 * and a restart of the core on the same data folder.
 */
describe('AppCore: the status of each watched folder', () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let disk: Awaited<ReturnType<typeof tempDir>>;
  let open: { engine: Engine; core: ReturnType<typeof createAppCore>; events: CoreEvent[] } | undefined;

  beforeEach(async () => {
    server = await startTestServer({ conversions: false, rateLimit: 100_000 });
    data = await tempDir('media-sync-folder-status-data-');
    disk = await tempDir('media-sync-folder-status-files-');
  });

  afterEach(async () => {
    await closeCore();
    await server.close();
    await data.remove();
    await disk.remove();
  });

  async function startCore() {
    const engine = await Engine.open({ dataDir: data.path, settleMs: SETTLE_MS, folderCheckMs: FOLDER_CHECK_MS });
    const core = createAppCore(engine, data.path);
    const events: CoreEvent[] = [];
    core.onDidEmit((event) => events.push(event));
    await core.start();
    open = { engine, core, events };
    return open;
  }

  async function closeCore() {
    await open?.core.dispose();
    await open?.engine.close();
    open = undefined;
  }

  const invoke = <N extends IpcCommandName>(name: N, request: IpcRequest<N>) => callCore(open!.core, name, request);

  const statuses = () => invoke('folders:status', {});
  const statusOf = async (id: number) => (await statuses()).find((status) => status.id === id)!;

  const until = (id: number, what: string, check: (status: FolderStatus) => boolean) =>
    untilFolder(open!.core, id, what, check);

  /** Signs the core in and watches a new folder of each name; each one's path and id. */
  async function signInAndWatch<const Names extends string[]>(
    ...names: Names
  ): Promise<{ [K in keyof Names]: { path: string; id: number } }> {
    const { id: accountId } = await invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    const watched: Array<{ path: string; id: number }> = [];
    for (const name of names) {
      const path = join(disk.path, name);
      await mkdir(path);
      watched.push({ path, id: (await invoke('folders:add', { accountId, path })).id });
    }
    return watched as { [K in keyof Names]: { path: string; id: number } };
  }

  async function serverFileNames(): Promise<string[]> {
    const body = JSON.parse((await server.api('/files?per_page=100')).body.toString()) as {
      data: Array<{ filename: string }>;
    };
    return body.data.map((file) => file.filename).sort();
  }

  it('counts the files of each folder, says when one is gone, and takes it back without uploading twice', async () => {
    const { engine, events } = await startCore();
    const [{ path: photos, id: photosId }, { id: cameraId }] = await signInAndWatch('Photos', 'Camera');
    const names = ['a.jpg', 'b.jpg', 'c.jpg'];
    const drop = () => Promise.all(names.map((name) => writeFile(join(photos, name), `the photo ${name}`)));
    await drop();

    const uploaded = await until(
      photosId,
      '3 files uploaded from Photos, and Photos up to date',
      (status) => status.counts.uploaded === 3 && status.state.kind === 'watching',
    );
    expect(uploaded).toMatchObject({
      id: photosId,
      path: photos,
      paused: false,
      counts: { uploadedToday: 3, uploaded: 3, failed: 0, skipped: 0 },
    });
    expect(uploaded.recent.map((file) => file.name).sort()).toEqual(names);
    expect(uploaded.recent.every((file) => file.outcome === 'uploaded' && file.fileId !== null)).toBe(true);
    expect(uploaded.lastScanAt).not.toBeNull();
    expect(await statusOf(cameraId)).toMatchObject({
      state: { kind: 'watching' },
      counts: { uploadedToday: 0, uploaded: 0, failed: 0, skipped: 0 },
      recent: [],
    });
    // the UI hears of it without asking, at most twice a second
    await waitFor(
      () =>
        events.some(
          ({ name, payload }) =>
            name === 'folders:statusChanged' &&
            (payload as FolderStatus[]).some((status) => status.id === photosId && status.counts.uploaded === 3),
        ) || undefined,
      5_000,
      'a folders:statusChanged event with the 3 uploads',
    );

    await rm(photos, { recursive: true });
    const gone = await until(photosId, 'Photos missing', (status) => status.state.kind === 'problem');
    expect(gone.state).toMatchObject({ kind: 'problem', problem: 'missing' });
    expect(gone.counts.uploaded).toBe(3);
    expect((await statusOf(cameraId)).state.kind).toBe('watching');

    // the drive is back: the same files, written again (new modification times)
    await mkdir(photos);
    await drop();
    const back = await until(
      photosId,
      'Photos watched again and scanned',
      (status) => status.state.kind === 'watching' && status.lastScanAt! > gone.lastScanAt!,
    );
    await invoke('folders:whenSettled', {});
    await engine.queue.whenIdle();
    expect((await statusOf(photosId)).counts).toEqual({ uploadedToday: 3, uploaded: 3, failed: 0, skipped: 0 });
    expect(back.state.kind).toBe('watching');
    expect(await serverFileNames()).toEqual(names);
    expect(engine.uploads.list()).toHaveLength(3);
  });

  it("pauses one folder's files while the other's go, across a restart, and keeps the counts", async () => {
    await startCore();
    const [{ path: photos, id: photosId }, { path: camera, id: cameraId }] = await signInAndWatch('Photos', 'Camera');
    await writeFile(join(photos, 'first.jpg'), 'the first photo');
    await until(photosId, 'first.jpg uploaded', (status) => status.counts.uploaded === 1);

    expect(await invoke('folders:pause', { id: photosId })).toMatchObject({
      id: photosId,
      paused: true,
      state: { kind: 'paused', by: 'folder', until: null },
    });
    await writeFile(join(photos, 'held.jpg'), 'a photo that waits');
    await writeFile(join(camera, 'clip.jpg'), 'a photo that goes');
    await until(cameraId, 'clip.jpg uploaded from Camera', (status) => status.counts.uploaded === 1);
    await invoke('folders:whenSettled', {});
    const held = open!.engine.uploads.list().find((item) => item.fileName === 'held.jpg');
    expect(held?.state.kind).toBe('queued');
    expect(await serverFileNames()).toEqual(['clip.jpg', 'first.jpg']);

    // the pause, the counts and the recent files are kept in the data folder
    await closeCore();
    await startCore();
    const restarted = await statusOf(photosId);
    expect(restarted).toMatchObject({
      paused: true,
      state: { kind: 'paused', by: 'folder' },
      counts: { uploaded: 1, uploadedToday: 1, failed: 0, skipped: 0 },
      recent: [{ name: 'first.jpg', outcome: 'uploaded' }],
    });
    expect((await statusOf(cameraId)).counts.uploaded).toBe(1);
    await invoke('folders:whenSettled', {});
    expect(open!.engine.uploads.list().find((item) => item.fileName === 'held.jpg')?.state.kind).toBe('queued');

    await invoke('folders:resume', { id: photosId });
    const resumed = await until(photosId, 'held.jpg uploaded once resumed', (status) => status.counts.uploaded === 2);
    expect(resumed.paused).toBe(false);
    expect(resumed.recent.map((file) => file.name)).toEqual(['held.jpg', 'first.jpg']);
    expect(await serverFileNames()).toEqual(['clip.jpg', 'first.jpg', 'held.jpg']);

    expect(await resultOf(open!.core, 'folders:pause', { id: 99 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'There is no watched folder #99.' },
    });
  });

  it('a file edited long after its upload is a new upload; its earlier row and recent entry say it changed since', async () => {
    const { events } = await startCore();
    const [{ path: docs, id }] = await signInAndWatch('Docs');
    const path = join(docs, 'notes.txt');
    await writeFile(path, 'the first draft');
    await until(id, 'the first draft uploaded', (status) => status.counts.uploaded === 1);
    const list = async () => (await invoke('uploads:list', {})).items;
    const [first] = await list();
    expect(first).toMatchObject({ state: { kind: 'done' }, changedSinceUpload: false });

    // next week: edited; the new version waits behind the queue's pause
    await invoke('uploads:pauseAll', { until: null });
    await writeFile(path, 'the second draft, a week later');
    const waiting = await until(
      id,
      'the new version queued',
      (status) => status.recent[0]?.changedSinceUpload === true,
    );
    expect(waiting.recent).toEqual([expect.objectContaining({ name: 'notes.txt', outcome: 'uploaded' })]);
    expect(events).toContainEqual({
      name: 'uploads:itemChanged',
      payload: expect.objectContaining({ id: first!.id, changedSinceUpload: true }),
    });

    await invoke('uploads:resumeAll', {});
    const after = await until(
      id,
      'the new version uploaded',
      (status) => status.counts.uploaded === 1 && status.recent[0]!.uploadId !== first!.id,
    );
    expect(after.recent).toEqual([
      expect.objectContaining({ name: 'notes.txt', outcome: 'uploaded', changedSinceUpload: false }),
    ]);
    const rows = await list();
    expect(rows.map((row) => [row.id, row.state.kind, row.changedSinceUpload])).toEqual([
      [first!.id, 'done', true],
      [expect.any(Number), 'done', false],
    ]);
    // as before: each version is its own file on the service
    expect(await serverFileNames()).toEqual(['notes.txt', 'notes.txt']);
  });

  it("a folder says its account's token was refused as it happens, and watches again once it is signed in", async () => {
    const { events } = await startCore();
    const [{ id }] = await signInAndWatch('Photos');
    const { id: accountId } = (await invoke('account:list', {}))[0]!;
    const announced = (kind: string, after: number) =>
      waitFor(
        () =>
          events
            .slice(after)
            .some(
              ({ name, payload }) =>
                name === 'folders:statusChanged' &&
                (payload as FolderStatus[]).some((status) => status.id === id && status.state.kind === kind),
            ) || undefined,
        5_000,
        `a folders:statusChanged event with Photos ${kind}`,
      );
    // many requests that only move the rate budget: the folder's status does not change
    for (let i = 0; i < 5; i++) await invoke('account:summary', { accountId });
    expect((await statusOf(id)).state.kind).toBe('watching');
    // the statuses of the folder's first scan have gone out: what comes next is the refusal's
    await new Promise((resolve) => setTimeout(resolve, 2 * FOLDER_STATUS_EVERY_MS));

    // no file in the queue: only the account's refused token can change the folder's status
    server.admin(['token', 'disable'], { token: server.token });
    const before = events.length;
    expect((await resultOf(open!.core, 'account:summary', { accountId })).ok).toBe(false);
    await announced('problem', before);
    expect((await statusOf(id)).state).toMatchObject({ kind: 'problem', problem: 'signedOut' });

    server.admin(['token', 'enable'], { token: server.token });
    const refused = events.length;
    await invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    await announced('watching', refused);
  });

  it('starts with a watched folder that is gone, and watches it once it is back', async () => {
    await startCore();
    const [{ path: drive, id }] = await signInAndWatch('Drive');
    await closeCore();
    await rm(drive, { recursive: true });

    await startCore();
    expect((await statusOf(id)).state).toMatchObject({ kind: 'problem', problem: 'missing' });
    await mkdir(drive);
    await writeFile(join(drive, 'late.jpg'), 'a photo from the drive');
    await until(id, 'late.jpg uploaded once the drive is back', (status) => status.counts.uploaded === 1);
    expect(await serverFileNames()).toEqual(['late.jpg']);
  });
});
