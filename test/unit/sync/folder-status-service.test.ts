import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Emitter } from '../../../src-main/common/disposable.js';
import { openDatabase, type Db } from '../../../src-main/storage/database.js';
import { FolderStore } from '../../../src-main/storage/folder-store.js';
import { FolderFiles } from '../../../src-main/sync/folder-files.js';
import type { AccountProblem } from '../../../src-main/sync/folder-state.js';
import { FolderStatusService } from '../../../src-main/sync/folder-status-service.js';
import type { FolderActivity } from '../../../src-main/sync/sync-service.js';
import type { ItemProgress } from '../../../src-main/uploads/item-states.js';
import type { QueueRunState } from '../../../src-main/uploads/upload-queue.js';
import { FolderOptionsSchema } from '../../../src-shared/model/folder-options.js';
import type { FolderStatus } from '../../../src-shared/model/folder-status.js';
import type { UploadItem, UploadState } from '../../../src-shared/model/upload-state.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const START = Date.UTC(2026, 10, 26, 12);
const MB = 1_000_000;

describe('FolderStatusService: a folder’s status from the queue, the watcher and the account', () => {
  let db: Db;
  let clock: FakeClock;
  let folders: FolderStore;
  let service: FolderStatusService;
  let photos: number;
  let camera: number;
  let accountProblem: AccountProblem | null;
  let activity: FolderActivity;
  let items: Emitter<UploadItem>;
  let progress: Emitter<ItemProgress>;
  const folderChanges = new Emitter<number>();
  const changes: FolderStatus[][] = [];
  /** the queue's rows, as the store has them when the service first reads them */
  const stored = new Map<number, UploadItem>();

  beforeEach(() => {
    items = new Emitter<UploadItem>();
    progress = new Emitter<ItemProgress>();
    stored.clear();
    items.event((changed) => stored.set(changed.id, changed));
    db = openDatabase(':memory:');
    clock = new FakeClock({ wallStart: START });
    folders = new FolderStore(db, () => clock.wall());
    photos = folders.add('account', '/home/ann/Photos', FolderOptionsSchema.parse({})).id;
    camera = folders.add('account', '/home/ann/Camera', FolderOptionsSchema.parse({})).id;
    accountProblem = null;
    activity = { scan: null, settling: 0, lastScanAt: START - 60_000, trouble: null, polling: null };
    changes.length = 0;
    service = new FolderStatusService({
      folders,
      files: new FolderFiles(db),
      sync: { activity: () => activity, onDidChangeFolder: folderChanges.event },
      queue: {
        status: () => ({ pause: null, hold: null, active: 0 }),
        onDidChangeItem: items.event,
        onDidProgress: progress.event,
        onDidChangeStatus: new Emitter<QueueRunState>().event,
      },
      unfinishedItems: () =>
        [...stored.values()].filter((one) => !['done', 'failed', 'cancelled'].includes(one.state.kind)),
      accountProblem: () => accountProblem,
      onDidChangeAccount: new Emitter<unknown>().event,
      clock,
    });
    service.onDidChange((statuses) => changes.push(statuses));
  });

  afterEach(() => {
    service.dispose();
    db.close();
  });

  const item = (id: number, state: UploadState, folderId = photos): UploadItem =>
    ({
      id,
      folderId,
      path: `/home/ann/Photos/${id}.mp4`,
      fileName: `${id}.mp4`,
      size: 10 * MB,
      state,
      ackedChunks: [],
      chunkSize: 90 * MB,
    }) as unknown as UploadItem;
  const uploading = (sentBytes: number): UploadState => ({
    kind: 'uploading',
    attempt: 0,
    ackedBytes: 0,
    sentBytes,
    totalBytes: 10 * MB,
  });

  it('is uploading with bytes and, once measured, the time left; then up to date with the file counted', async () => {
    expect(service.status(photos)!.state).toEqual({ kind: 'watching', since: START - 60_000 });
    items.fire(item(1, { kind: 'queued' }));
    items.fire(item(2, { kind: 'queued' }));
    expect(service.status(photos)!.state).toEqual({
      kind: 'uploading',
      files: 2,
      bytesDone: 0,
      bytesTotal: 20 * MB,
      secondsLeft: null,
    });
    items.fire(item(1, uploading(0)));
    for (let second = 1; second <= 4; second++) {
      await clock.advance(1_000);
      progress.fire({ id: 1, state: uploading(second * MB) });
    }
    // 1 MB/s, 16 MB still to send
    expect(service.status(photos)!.state).toEqual({
      kind: 'uploading',
      files: 2,
      bytesDone: 4 * MB,
      bytesTotal: 20 * MB,
      secondsLeft: 16,
    });
    expect(service.status(camera)!.state.kind).toBe('watching');

    items.fire(item(1, { kind: 'done', fileId: 'f1', finishedAt: clock.wall() }));
    items.fire(item(2, { kind: 'done', fileId: 'f2', finishedAt: clock.wall(), existing: true }));
    const done = service.status(photos)!;
    expect(done.state).toEqual({ kind: 'watching', since: clock.wall() });
    expect(done.counts).toEqual({ uploadedToday: 1, uploaded: 1, failed: 0, skipped: 1 });
    expect(done.recent.map((file) => [file.name, file.outcome, file.fileId])).toEqual([
      ['2.mp4', 'skipped', 'f2'],
      ['1.mp4', 'uploaded', 'f1'],
    ]);
  });

  it('says a file paused halfway, with what of it was sent, and is up to date only once it is done', () => {
    items.fire(item(1, { kind: 'queued' }));
    const paused = {
      ...item(1, { kind: 'paused', until: null }),
      size: 200 * MB,
      ackedChunks: [0],
      chunkSize: 90 * MB,
    };
    items.fire(paused);
    expect(service.status(photos)!.state).toEqual({
      kind: 'filesPaused',
      files: 1,
      bytesDone: 90 * MB,
      bytesTotal: 200 * MB,
    });
    items.fire(item(1, { kind: 'done', fileId: 'f1', finishedAt: clock.wall() }));
    expect(service.status(photos)!.state).toEqual({ kind: 'watching', since: clock.wall() });
  });

  it('reads a file paused before the start from the queue', () => {
    stored.set(7, { ...item(7, { kind: 'paused', until: null }), ackedChunks: [0], chunkSize: 4 * MB });
    expect(service.status(photos)!.state).toEqual({
      kind: 'filesPaused',
      files: 1,
      bytesDone: 4 * MB,
      bytesTotal: 10 * MB,
    });
  });

  it('gives no time left from a rate measured long ago: a file queued again later is not "1 min 56 s" for 100 KB', async () => {
    items.fire(item(1, { kind: 'queued' }));
    items.fire(item(1, uploading(0)));
    for (let second = 1; second <= 4; second++) {
      await clock.advance(1_000);
      progress.fire({ id: 1, state: uploading(second * MB) });
    }
    items.fire(item(1, { kind: 'done', fileId: 'f1', finishedAt: clock.wall() }));
    await clock.advance(10 * 60_000);
    items.fire({ ...item(2, { kind: 'queued' }), size: 100_000 });
    expect(service.status(photos)!.state).toEqual({
      kind: 'uploading',
      files: 1,
      bytesDone: 0,
      bytesTotal: 100_000,
      secondsLeft: null,
    });
  });

  it('tells what changed at most twice a second, each folder whole, and only when it changed', async () => {
    items.fire(item(1, { kind: 'queued' }));
    items.fire(item(1, uploading(0)));
    progress.fire({ id: 1, state: uploading(MB) });
    expect(changes).toEqual([]);
    await clock.advance(500);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.map((status) => [status.id, status.state.kind])).toEqual([[photos, 'uploading']]);
    // a folder not told before is told once; the same status again is not news
    folderChanges.fire(camera);
    await clock.advance(500);
    folderChanges.fire(camera);
    folderChanges.fire(photos);
    await clock.advance(500);
    expect(changes.map((batch) => batch.map((status) => status.id))).toEqual([[photos], [camera]]);
  });

  it('states a refused token of its account, and a problem of its own first', () => {
    accountProblem = { problem: 'signedOut' };
    expect(service.status(photos)!.state).toEqual({ kind: 'problem', problem: 'signedOut', since: START });
    activity = { ...activity, trouble: { problem: 'missing', since: START - 5 } };
    expect(service.status(photos)!.state).toEqual({ kind: 'problem', problem: 'missing', since: START - 5 });
    expect(service.status(99)).toBeUndefined();
  });

  it('counts a file a program still writes as being written, not as sent; then as sent once it starts', () => {
    items.fire(item(1, { kind: 'queued', waiting: 'beingWritten' }));
    expect(service.status(photos)!.state).toEqual({ kind: 'settling', files: 1 });
    items.fire(item(1, uploading(0)));
    expect(service.status(photos)!.state).toMatchObject({ kind: 'uploading', files: 1 });
  });

  it('says a folder is checked by polling, how often and why; a folder with change events says nothing', () => {
    activity = { ...activity, polling: { everySeconds: 60, why: 'network', fileSystem: 'NFS' } };
    expect(service.status(photos)!.polling).toEqual({ everySeconds: 60, why: 'network', fileSystem: 'NFS' });
    activity = { ...activity, polling: null };
    expect(service.status(photos)).not.toHaveProperty('polling');
  });

  it('says its account is signed out, naming it, from when that was first seen', async () => {
    const account = { baseUrl: 'http://127.0.0.1:8790/api/v1', username: 'demo' };
    accountProblem = { problem: 'accountGone', account };
    const gone = { kind: 'problem', problem: 'accountGone', since: START, account };
    expect(service.status(photos)!.state).toEqual(gone);
    await clock.advance(60_000);
    expect(service.status(camera)!.state).toEqual(gone);
    accountProblem = null;
    expect(service.status(photos)!.state.kind).toBe('watching');
  });

  it('is paused by its own pause, and a failure retried is no longer counted', () => {
    folders.setPaused(photos, true);
    items.fire(item(3, { kind: 'failed', reason: { message: 'x', code: null, requestId: null } }));
    expect(service.status(photos)).toMatchObject({
      paused: true,
      state: { kind: 'paused', by: 'folder', until: null },
      counts: { failed: 1 },
    });
    items.fire(item(3, { kind: 'queued' }));
    expect(service.status(photos)!.counts.failed).toBe(0);
  });
});
