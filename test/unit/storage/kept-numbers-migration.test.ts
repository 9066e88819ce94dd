import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/storage/database.js';
import { UploadStore } from '../../../src-main/uploads/upload-store.js';
import { FolderFiles } from '../../../src-main/sync/folder-files.js';
import { beforeNumbersKept } from '../../helpers/older-database.js';

let dir: string;
let db: Db | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-sync-numbers-migration-'));
});
afterEach(async () => {
  db?.close();
  await rm(dir, { recursive: true, force: true });
});

const upload = (name: string) => ({
  accountId: 'a1',
  path: `/camera/${name}`,
  fileName: name,
  identity: { size: 10, mtimeMs: 1, fingerprint: name },
  visibility: null,
  metadata: {},
  folderId: 1,
  chunkSize: 90_000_000,
});

it('gives no upload the number of one cleared before, across the update, so a folder’s recent file keeps its own upload', () => {
  const path = join(dir, 'media-sync.db');
  db = openDatabase(path);
  beforeNumbersKept(db);
  // the version before: three uploads, the newest a watched folder's recent file, then the finished ones cleared
  let uploads = new UploadStore(db, () => 1);
  const items = ['a.mp4', 'b.mp4', 'c.mp4'].map((name) => uploads.insert(upload(name)));
  new FolderFiles(db).record({
    folderId: 1,
    path: '/camera/c.mp4',
    name: 'c.mp4',
    uploadId: items[2]!.id,
    outcome: 'uploaded',
    fileId: 'F3',
    at: 1,
  });
  uploads.remove([items[1]!.id, items[2]!.id]);
  db.close();

  db = openDatabase(path);
  uploads = new UploadStore(db, () => 2);
  const next = uploads.insert(upload('d.mp4'));
  expect(next.id).toBe(items[2]!.id + 1);
  // c.mp4's upload left the queue: its recent entry names none, not d.mp4's
  expect(new FolderFiles(db).recent(1)).toMatchObject([{ name: 'c.mp4', uploadId: null }]);
  // and cleared again, the next number is still a new one
  uploads.remove([next.id]);
  expect(uploads.insert(upload('e.mp4')).id).toBe(next.id + 1);
  expect(uploads.list().map((item) => item.fileName)).toEqual(['a.mp4', 'e.mp4']);
});
