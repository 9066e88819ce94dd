import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/storage/database.js';
import { FolderStore } from '../../../src-main/storage/folder-store.js';
import { FolderFiles, type FolderFileRecord } from '../../../src-main/sync/folder-files.js';
import { FolderOptionsSchema } from '../../../src-shared/model/folder-options.js';

const DAY = 24 * 60 * 60_000;
const TODAY = Date.UTC(2026, 10, 26);

describe('FolderFiles: the counts and recent files of a watched folder', () => {
  let db: Db;
  let files: FolderFiles;
  let folderId: number;
  let otherId: number;

  beforeEach(() => {
    db = openDatabase(':memory:');
    files = new FolderFiles(db);
    const folders = new FolderStore(db, () => TODAY);
    folderId = folders.add('account', '/photos', FolderOptionsSchema.parse({})).id;
    otherId = folders.add('account', '/camera', FolderOptionsSchema.parse({})).id;
  });

  afterEach(() => db.close());

  const record = (path: string, outcome: FolderFileRecord['outcome'], at: number, uploadId = 1) =>
    files.record({
      folderId,
      path: `/photos/${path}`,
      name: path,
      uploadId,
      outcome,
      fileId: outcome === 'failed' ? null : `id-${path}`,
      at,
    });

  it('counts each file once by its last outcome, today apart, and never another folder’s', () => {
    record('old.jpg', 'uploaded', TODAY - DAY);
    record('new.jpg', 'uploaded', TODAY + 10);
    record('again.jpg', 'uploaded', TODAY - DAY);
    record('again.jpg', 'uploaded', TODAY + 20);
    record('broken.jpg', 'failed', TODAY + 30);
    record('there.jpg', 'skipped', TODAY + 40);
    files.record({
      folderId: otherId,
      path: '/camera/x.jpg',
      name: 'x.jpg',
      uploadId: 9,
      outcome: 'uploaded',
      fileId: 'x',
      at: TODAY,
    });

    expect(files.counts(folderId, TODAY)).toEqual({ uploadedToday: 2, uploaded: 3, failed: 1, skipped: 1 });
    expect(files.counts(otherId, TODAY)).toEqual({ uploadedToday: 1, uploaded: 1, failed: 0, skipped: 0 });
  });

  it('takes a failure back when the file is retried, and counts its success', () => {
    record('broken.jpg', 'failed', TODAY);
    expect(files.forgetFailure(folderId, '/photos/broken.jpg')).toBe(true);
    expect(files.counts(folderId, TODAY).failed).toBe(0);
    record('broken.jpg', 'uploaded', TODAY + 1);
    expect(files.forgetFailure(folderId, '/photos/broken.jpg')).toBe(false);
    expect(files.counts(folderId, TODAY)).toEqual({ uploadedToday: 1, uploaded: 1, failed: 0, skipped: 0 });
  });

  it('lists the last five files, newest first, without the queue item once it left the queue', () => {
    for (let index = 1; index <= 7; index++) record(`${index}.jpg`, 'uploaded', TODAY + index, 100 + index);
    expect(files.recent(folderId).map((file) => file.name)).toEqual(['7.jpg', '6.jpg', '5.jpg', '4.jpg', '3.jpg']);
    expect(files.recent(folderId)[0]).toEqual({
      name: '7.jpg',
      path: '/photos/7.jpg',
      uploadId: null,
      outcome: 'uploaded',
      fileId: 'id-7.jpg',
      at: TODAY + 7,
      changedSinceUpload: false,
    });
  });

  it('is forgotten with its folder', () => {
    record('a.jpg', 'uploaded', TODAY);
    new FolderStore(db, () => TODAY).remove(folderId);
    expect(files.counts(folderId, TODAY)).toEqual({ uploadedToday: 0, uploaded: 0, failed: 0, skipped: 0 });
    expect(files.recent(folderId)).toEqual([]);
  });
});
