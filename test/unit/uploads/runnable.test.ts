import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/storage/database.js';
import { UploadStore } from '../../../src-main/uploads/upload-store.js';

const NOW = Date.UTC(2026, 0, 1);
const lastError = { message: 'timed out', code: null, requestId: null };

/**
 * What the queue may start next (`UploadStore.runnable`), as a person sees it:
 * oldest first, whether an item waits in line, is due for a retry or ends a
 * timed pause; never a running one, one of a signed-out account or one in a
 * paused folder; never more than the free slots.
 */
describe('what the queue may start next', () => {
  let db: Db;
  let uploads: UploadStore;
  let added = 0;

  beforeEach(() => {
    db = openDatabase(':memory:');
    uploads = new UploadStore(db, () => NOW);
  });

  afterEach(() => db.close());

  function add(accountId = 'a1', folderId: number | null = null): number {
    const n = added++;
    return uploads.insert({
      accountId,
      path: `/photos/p-${n}.jpg`,
      fileName: `p-${n}.jpg`,
      identity: { size: 8192, mtimeMs: n, fingerprint: String(n).padStart(64, '0') },
      visibility: null,
      metadata: {},
      folderId,
      chunkSize: 90_000_000,
    }).id;
  }

  const ids = (limit: number, more: { accounts?: string[]; skipIds?: number[]; skipFolders?: number[] } = {}) =>
    uploads.runnable({ now: NOW, limit, accounts: more.accounts ?? ['a1'], ...more }).map((item) => item.id);

  it('takes the oldest first, a due retry and an ended pause among the waiting ones, up to the free slots', () => {
    const queued1 = add();
    const retryDue = add();
    const queued2 = add();
    const pauseOver = add();
    const retryLater = add();
    uploads.saveState(retryDue, { kind: 'retrying', attempt: 1, retryAt: NOW - 5_000, lastError });
    uploads.saveState(pauseOver, { kind: 'paused', until: NOW - 1 });
    uploads.saveState(retryLater, { kind: 'retrying', attempt: 1, retryAt: NOW + 60_000, lastError });

    expect(ids(10)).toEqual([queued1, retryDue, queued2, pauseOver]);
    expect(ids(2)).toEqual([queued1, retryDue]);
    // the due ones are not crowded out by a long line of waiting ones, nor the other way round
    expect(ids(1)).toEqual([queued1]);
    expect(ids(1, { skipIds: [queued1] })).toEqual([retryDue]);
  });

  it('leaves out running items, signed-out accounts and paused folders', () => {
    const running = add();
    const otherAccount = add('a2');
    const inPausedFolder = add('a1', 7);
    const inFolder = add('a1', 8);
    const waiting = add();

    expect(ids(10, { skipIds: [running], skipFolders: [7] })).toEqual([inFolder, waiting]);
    expect(ids(10, { accounts: ['a1', 'a2'], skipFolders: [7, 8] })).toEqual([running, otherAccount, waiting]);
    expect(ids(10, { accounts: [] })).toEqual([]);
    expect(ids(0)).toEqual([]);
    expect(inPausedFolder).toBeGreaterThan(0);
  });
});
