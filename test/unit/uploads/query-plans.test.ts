import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionStore } from '../../../src-main/conversions/conversion-store.js';
import { openDatabase, type Db } from '../../../src-main/storage/database.js';
import { DeclinedFiles } from '../../../src-main/sync/declined-files.js';
import { SyncIndex } from '../../../src-main/sync/sync-index.js';
import { UploadStore } from '../../../src-main/uploads/upload-store.js';
import { fillFinishedUploads } from '../../helpers/queue-history.js';

const HISTORY = 100_000;
const NOW = Date.UTC(2026, 0, 1);
const identity = { size: 8192, mtimeMs: 1, fingerprint: 'f'.repeat(64) };

/**
 * What the queue and the conversion follower ask SQLite at every event, on a
 * queue whose history holds 100,000 finished uploads (and as many followed
 * files): each statement a store runs for it is planned with EXPLAIN QUERY
 * PLAN and must look rows up in an index, never walk a table. The statements
 * are the ones the stores really prepared, caught at `prepare`, with the
 * values they ran with.
 */
describe('the queries run per event use an index, with 100,000 finished items', () => {
  let db: Db;
  let uploads: UploadStore;
  let conversions: ConversionStore;
  let index: SyncIndex;
  let declines: DeclinedFiles;
  let ran: Array<{ sql: string; args: unknown[] }> = [];

  beforeAll(() => {
    db = openDatabase(':memory:');
    fillFinishedUploads(db, HISTORY, { accountId: 'a1', finishedFrom: NOW - 30 * 86_400_000 });
    // what a watched folder sent over the same months, and as many files the person cancelled
    db.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${HISTORY})
       INSERT INTO sync_index (folder_id, rel_path, size, mtime_ms, fingerprint, file_id, origin, updated_at)
       SELECT 1, 'old-' || i || '.jpg', 8192, i, printf('%064x', i), 'old-' || i, 'uploaded', i FROM n;
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${HISTORY})
       INSERT INTO sync_declined (path, folder_id, size, mtime_ms, fingerprint, declined_at)
       SELECT '/photos/declined-' || i || '.jpg', 1, 8192, i, printf('%064x', i), i FROM n;`,
    );
    const prepare = db.prepare.bind(db);
    // every statement the stores prepare reports what it runs with
    db.prepare = ((sql: string) => {
      const statement = prepare(sql);
      for (const method of ['get', 'all', 'run'] as const) {
        const original = statement[method].bind(statement) as (...args: unknown[]) => unknown;
        (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
          ran.push({ sql, args });
          return original(...args);
        };
      }
      return statement;
    }) as typeof db.prepare;
    uploads = new UploadStore(db, () => NOW);
    conversions = new ConversionStore(db);
    index = new SyncIndex(db, () => NOW);
    declines = new DeclinedFiles(db, () => NOW);
    // a queue at work beside its history: waiting, retrying, paused, running
    for (let i = 0; i < 20; i++) {
      const item = uploads.insert({
        accountId: 'a1',
        path: `/photos/new-${i}.jpg`,
        fileName: `new-${i}.jpg`,
        identity,
        visibility: null,
        metadata: {},
        folderId: null,
        chunkSize: 90_000_000,
      });
      if (i % 4 === 1) {
        const lastError = { message: 'x', code: null, requestId: null };
        uploads.saveState(item.id, { kind: 'retrying', attempt: 1, retryAt: NOW + i * 1000, lastError });
      }
      if (i % 4 === 2) uploads.saveState(item.id, { kind: 'paused', until: NOW - 1000 });
    }
  });

  afterAll(() => db.close());

  /** The plan of every statement `run` made a store execute. */
  function plans(run: () => void): Array<{ sql: string; plan: string[] }> {
    ran = [];
    run();
    expect(ran.length).toBeGreaterThan(0);
    return ran.map(({ sql, args }) => ({
      sql,
      plan: (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail),
    }));
  }

  /**
   * Every table is read through an index, never whole: a SEARCH, or a SCAN
   * of an index in its order under a LIMIT (or SQLite's count of an index's
   * entries, a few bytes each, for the queue's length).
   */
  function expectIndexed(run: () => void, indexes: string[]): void {
    const planned = plans(run);
    for (const { sql, plan } of planned) {
      const context = `${sql}\n${plan.join('\n')}`;
      const bounded = /\bLIMIT\b/.test(sql) || /^SELECT COUNT\(\*\) AS \w+ FROM upload_items$/.test(sql);
      for (const line of plan) {
        expect(line, context).not.toMatch(/^SCAN (upload_items|conversion_follows)$/);
        if (/^SCAN (upload_items|conversion_follows) USING/.test(line)) expect(bounded, context).toBe(true);
      }
    }
    const named = planned.flatMap(({ plan }) => plan).join('\n');
    for (const index of indexes) expect(named, `expected ${index} in:\n${named}`).toContain(index);
  }

  it('the queue: what may start, the next wake-up, an item, its path, its file id', () => {
    expectIndexed(
      () => uploads.runnable({ now: NOW, limit: 3, accounts: ['a1'], skipIds: [3, 4] }),
      ['upload_items_kind', 'upload_items_wake'],
    );
    expectIndexed(() => uploads.nextWake(NOW), ['upload_items_wake']);
    expectIndexed(() => uploads.get(HISTORY + 5), ['INTEGER PRIMARY KEY']);
    expectIndexed(() => uploads.findUnfinishedByPath('/photos/new-3.jpg'), ['upload_items_path']);
    // "why this file?": the latest item of a path, whatever its state
    expectIndexed(() => uploads.latestByPath('/history/old-7.jpg'), ['upload_items_path']);
    expectIndexed(() => uploads.findDone('/history/old-7.jpg', identity, 'a1'), ['upload_items_path']);
    expectIndexed(() => uploads.isKnownFileId('old-9'), ['upload_items_file']);
    // a row of the queue: whether its file changed since; the earlier upload a new version makes out of date
    const old = uploads.get(7)!;
    expectIndexed(() => uploads.changedSince(old), ['upload_items_path']);
    expectIndexed(() => uploads.doneBefore(old.path, HISTORY + 1), ['upload_items_path']);
    expectIndexed(() => uploads.ofKind('uploading'), ['upload_items_kind']);
    expectIndexed(() => uploads.ofKind('failed', { newest: 50 }), ['upload_items_kind']);
  });

  it('the counts the tray and the status read, and whether there is work left', () => {
    expectIndexed(() => uploads.count(['queued', 'retrying']), ['upload_items_kind']);
    expectIndexed(() => uploads.count(['failed']), ['upload_items_kind']);
    expectIndexed(() => uploads.count(['queued', 'retrying', 'uploading', 'finalizing']), ['upload_items_kind']);
  });

  it('a watched folder’s file: what the folder sent, what was cancelled, the file recorded once sent', () => {
    expectIndexed(() => index.lookup(1, 'old-77.jpg'), ['sqlite_autoindex_sync_index_1']);
    expectIndexed(() => index.findByContent(1, 8192, 'f'.repeat(64)), ['sync_index_content']);
    expectIndexed(() => declines.lookup('/photos/new-1.jpg'), ['sqlite_autoindex_sync_declined_1']);
    expectIndexed(() => declines.findByIdentity(1, identity), ['sync_declined_content']);
    expectIndexed(() => declines.forget('/photos/new-1.jpg'), ['sqlite_autoindex_sync_declined_1']);
    expectIndexed(
      () =>
        index.record({
          folderId: 1,
          relPath: 'new-1.jpg',
          ...identity,
          fileId: 'new-file',
          origin: 'uploaded',
        }),
      // an upsert: a write by the primary key, with no plan of its own to show
      [],
    );
  });

  it('an item’s writes: queued, a state, a chunk, its file id', () => {
    expectIndexed(() => {
      const item = uploads.insert({
        accountId: 'a1',
        path: '/photos/one-more.jpg',
        fileName: 'one-more.jpg',
        identity,
        visibility: null,
        metadata: {},
        folderId: null,
        chunkSize: 90_000_000,
      });
      uploads.saveState(item.id, { kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes: 0, totalBytes: 8192 });
      uploads.ackChunk(item.id, 0);
      uploads.setFinalSent(item.id, true);
      uploads.addStaleCopy(item.id, 'stale-file');
      uploads.forgetStaleCopy(item.id, 'stale-file');
      uploads.recordFileId(item.id, 'new-file');
      uploads.saveState(item.id, { kind: 'done', fileId: 'new-file', finishedAt: NOW });
    }, ['INTEGER PRIMARY KEY']);
  });

  it('a page of the queue, the last one included, and its length', () => {
    expectIndexed(() => uploads.page(0, 50), ['upload_items_order']);
    expectIndexed(() => uploads.page(HISTORY - 30, 50), ['upload_items_order', 'INTEGER PRIMARY KEY']);
  });

  it('the pruning: the oldest finished items, removed by id', () => {
    expectIndexed(() => {
      const old = uploads.finishedBefore(NOW - 7 * 86_400_000, 500);
      expect(old).toHaveLength(500);
      uploads.remove(old.map((item) => item.id));
    }, ['upload_items_finished']);
  });

  it('the conversion follower: the files due, the next poll, a file, an upload’s file, the Activity panel', () => {
    conversions.put({
      accountId: 'a1',
      fileId: 'clip',
      name: 'clip.mp4',
      uploadId: HISTORY + 1,
      jobId: null,
      watchUrl: null,
      state: { kind: 'following', polls: 0, nextPollAt: NOW + 10_000, conversion: null },
      startedAt: NOW,
      updatedAt: NOW,
    });
    expectIndexed(() => conversions.due(NOW + 10_000), ['conversion_follows_due']);
    expectIndexed(() => conversions.nextPollAfter(NOW), ['conversion_follows_due']);
    expectIndexed(() => conversions.dueAfter(NOW + 120_000), ['conversion_follows_due']);
    expectIndexed(() => conversions.get('a1', 'clip'), ['sqlite_autoindex_conversion_follows_1']);
    expectIndexed(() => conversions.list(200), ['conversion_follows_recent']);
    expectIndexed(
      () => conversions.update('a1', 'clip', { state: { kind: 'ready', at: NOW }, watchUrl: null, at: NOW }),
      ['sqlite_autoindex_conversion_follows_1'],
    );
    expectIndexed(() => conversions.pruneFinal(NOW - 7 * 86_400_000), ['conversion_follows_recent']);
  });

  it('reads the rows it was filled with as the store writes them', () => {
    expect(uploads.get(1000)?.state).toEqual({
      kind: 'done',
      fileId: 'old-1000',
      finishedAt: NOW - 30 * 86_400_000 + 1000 * 1000,
    });
    expect(uploads.count(['done'])).toBeGreaterThanOrEqual(HISTORY - 500);
  });
});
