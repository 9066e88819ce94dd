import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ConversionStore } from '../../../src-main/conversions/conversion-store.js';
import { openDatabase } from '../../../src-main/storage/database.js';
import { UploadStore } from '../../../src-main/uploads/upload-store.js';
import type { UploadState } from '../../../src-shared/model/upload-state.js';
import { beforeIndexedStates } from '../../helpers/older-database.js';

const NOW = Date.UTC(2026, 0, 1);
const problem = { message: 'x', code: null, requestId: null };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-sync-migration-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it('an update finds the queue as the version before left it: every item keeps its place, wake-up and end', () => {
  const path = join(dir, 'media-sync.db');
  const states: UploadState[] = [
    { kind: 'queued' },
    { kind: 'retrying', attempt: 1, retryAt: NOW + 5_000, lastError: problem },
    { kind: 'retrying', attempt: 2, retryAt: NOW - 5_000, lastError: problem },
    { kind: 'paused', until: NOW + 60_000 },
    { kind: 'paused', until: null },
    { kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes: 10, totalBytes: 100 },
    { kind: 'done', fileId: 'f7', finishedAt: NOW - 3_600_000 },
    { kind: 'failed', reason: problem },
    { kind: 'cancelled' },
  ];
  let db = openDatabase(path);
  let store = new UploadStore(db, () => NOW - 60_000);
  for (const [index, state] of states.entries()) {
    const item = store.insert({
      accountId: 'a1',
      path: `/photos/${index}.jpg`,
      fileName: `${index}.jpg`,
      identity: { size: 100, mtimeMs: 1, fingerprint: 'f' },
      visibility: null,
      metadata: {},
      folderId: null,
      chunkSize: 90_000_000,
    });
    store.saveState(item.id, state);
  }
  new ConversionStore(db).put({
    accountId: 'a1',
    fileId: 'f7',
    name: '6.jpg',
    uploadId: 7,
    jobId: null,
    watchUrl: null,
    state: { kind: 'following', polls: 2, nextPollAt: NOW + 40_000, conversion: null },
    startedAt: NOW - 3_600_000,
    updatedAt: NOW - 3_600_000,
  });
  // a row a hand or a crash garbled: the migration passes it by, and the store skips it as before
  db.prepare(`UPDATE upload_items SET state = '{not json' WHERE id = 9`).run();
  beforeIndexedStates(db);
  db.close();

  db = openDatabase(path);
  const skipped: number[] = [];
  store = new UploadStore(
    db,
    () => NOW,
    (id) => skipped.push(id),
  );
  const ids = (items: { id: number }[]) => items.map((item) => item.id);
  expect(ids(store.runnable({ now: NOW, limit: 10, accounts: ['a1'] }))).toEqual([1, 3]);
  expect(store.nextWake(NOW)).toBe(NOW + 5_000);
  expect(ids(store.ofKind('uploading'))).toEqual([6]);
  expect(store.counts()).toEqual({ queued: 1, retrying: 2, paused: 2, uploading: 1, done: 1, failed: 1 });
  // the done item ended when its state says, the cancelled one (no time of its own) at its last change
  expect(ids(store.finishedBefore(NOW - 3_000_000, 10))).toEqual([7]);
  expect(store.get(9)).toBeUndefined();
  expect(skipped).toEqual([9]);
  const conversions = new ConversionStore(db);
  expect(conversions.due(NOW + 40_000).map((follow) => follow.fileId)).toEqual(['f7']);
  expect(conversions.nextPollAfter(NOW)).toBe(NOW + 40_000);
  db.close();
});
