import { afterEach, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/storage/database.js';
import { UploadStore } from '../../../src-main/uploads/upload-store.js';

let db: Db | undefined;
afterEach(() => db?.close());

/** What a support file looks for in the log: the newest items changed within its window, in queue order. */
it('answers the newest items changed since a time, at most so many, oldest first', () => {
  db = openDatabase(':memory:');
  let now = 0;
  const uploads = new UploadStore(db, () => now);
  const ids = [10, 20, 30, 40, 50].map((at, i) => {
    now = at;
    return uploads.insert({
      accountId: 'a1',
      path: `/photos/p-${i}.jpg`,
      fileName: `p-${i}.jpg`,
      identity: { size: 1, mtimeMs: 1, fingerprint: `f${i}` },
      visibility: null,
      metadata: {},
      folderId: null,
      chunkSize: 90_000_000,
    }).id;
  });
  // the oldest item changed last: it is in the window again
  now = 60;
  uploads.saveState(ids[0]!, { kind: 'paused', until: null });

  expect(uploads.updatedSince(30, 10).map((item) => item.id)).toEqual([ids[0], ids[2], ids[3], ids[4]]);
  expect(uploads.updatedSince(30, 2).map((item) => item.id)).toEqual([ids[3], ids[4]]);
  expect(uploads.updatedSince(61, 10)).toEqual([]);
});
