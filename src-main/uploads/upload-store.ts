import * as z from 'zod';
import {
  FINAL_UPLOAD_KINDS,
  UNFINISHED_KINDS,
  type UploadItem,
  type UploadState,
  type UploadStateKind,
} from '../../src-shared/model/upload-state.js';
import type { FileIdentity } from '../common/file-fingerprint.js';
import { spellingsOf } from '../common/path-spellings.js';
import { statementCache, type Db, type Sql } from '../storage/database.js';
import { newItem, parseRow, stateColumns, visibilityColumn, type NewUpload, type UploadRow } from './upload-rows.js';

export type { NewUpload } from './upload-rows.js';

/** UNFINISHED_KINDS as an SQL list: named in the query, the kind index serves it. */
const UNFINISHED_SQL = UNFINISHED_KINDS.map((kind) => `'${kind}'`).join(', ');

/** Which items UploadStore.runnable answers. */
export interface RunnableQuery {
  now: number;
  limit: number;
  /** the accounts that can upload (signed in, their token not refused); the items of any other wait without a turn */
  accounts: readonly string[];
  /** items left out: running, or their file held open for writing */
  skipIds?: readonly number[];
  /** watched folders paused: their items are left out */
  skipFolders?: readonly number[];
}

/**
 * The persistent upload queue: one `upload_items` row per upload. Every write
 * is its own transaction, so what was acknowledged before a crash is on disk
 * after it. Rows are re-parsed with zod when read (Signal's JobQueue): a row
 * that does not parse is reported and skipped, never crashes the app.
 *
 * The state is JSON (the source of truth), and what the queue asks at every
 * event is also in indexed columns, written from the state in one place
 * (`stateColumns`, by `insert` and `saveState`): `kind`, `wake_at` (a
 * retry's or a timed pause's end) and `finished_at` (when a done or
 * cancelled item ended). So picking the next items, the next wake-up and
 * the counts read the items concerned, never the queue's history
 * (test/unit/uploads/query-plans.test.ts holds every query to its index).
 */
export class UploadStore {
  private readonly sql: Sql;

  /** runs its argument in one transaction; made once (better-sqlite3 builds a wrapper per `transaction` call) */
  private readonly inTransaction: (write: () => unknown) => unknown;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly onBadRow: (id: number, problem: string) => void = () => undefined,
  ) {
    this.sql = statementCache(db);
    this.inTransaction = db.transaction((write: () => unknown) => write());
  }

  insert(input: NewUpload): UploadItem {
    const now = this.now();
    const { lastInsertRowid } = this.sql(
      `INSERT INTO upload_items (account_id, path, file_name, size, mtime_ms, fingerprint, visibility, metadata,
         folder_id, state, kind, chunk_size, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?)`,
    ).run(
      input.accountId,
      input.path,
      input.fileName,
      input.identity.size,
      input.identity.mtimeMs,
      input.identity.fingerprint,
      visibilityColumn(input.visibility),
      JSON.stringify(input.metadata),
      input.folderId,
      JSON.stringify({ kind: 'queued' } satisfies UploadState),
      input.chunkSize,
      now,
      now,
    );
    // the row as it was written, not read back: its metadata as a read would see it
    return newItem(Number(lastInsertRowid), input, now);
  }

  get(id: number): UploadItem | undefined {
    return this.parseRow(this.sql('SELECT * FROM upload_items WHERE id = ?').get(id));
  }

  /** Every item in queue order (oldest first): for tests and small queues; the UI reads `page`s. */
  list(): UploadItem[] {
    return this.parseRows(this.sql('SELECT * FROM upload_items ORDER BY id').all());
  }

  /** The newest `limit` items changed at `since` or later, in queue order: only those rows are parsed. */
  updatedSince(since: number, limit: number): UploadItem[] {
    return this.parseRows(
      this.sql(
        'SELECT * FROM (SELECT * FROM upload_items WHERE updated_at >= ? ORDER BY id DESC LIMIT ?) ORDER BY id',
      ).all(since, limit),
    );
  }

  /** The items not final yet (UNFINISHED_KINDS), in queue order, from the kind index. */
  unfinished(): UploadItem[] {
    return this.parseRows(this.sql(`SELECT * FROM upload_items WHERE kind IN (${UNFINISHED_SQL}) ORDER BY id`).all());
  }

  /** Items of one kind in queue order, or the `newest` few (the failures a diagnostics report lists). */
  ofKind(kind: UploadStateKind, { newest }: { newest?: number } = {}): UploadItem[] {
    const [order, limit] = newest === undefined ? ['oldest', -1] : ['newest', newest];
    const direction = order === 'oldest' ? 'ASC' : 'DESC';
    return this.parseRows(
      this.sql(`SELECT * FROM upload_items WHERE kind = ? ORDER BY id ${direction} LIMIT ?`).all(kind, limit),
    );
  }

  /**
   * One page of the whole queue in queue order, and how many items there are:
   * the UI pages through 10,000 items without the core reading them all. The
   * page's first id is found in the order index (a few bytes per item), and
   * its rows read from there by id.
   */
  page(offset: number, limit: number): { items: UploadItem[]; total: number } {
    const { total } = this.sql('SELECT COUNT(*) AS total FROM upload_items').get() as { total: number };
    const rows = this.sql(
      `SELECT * FROM upload_items WHERE id >= (SELECT id FROM upload_items ORDER BY id LIMIT 1 OFFSET ?)
       ORDER BY id LIMIT ?`,
    ).all(offset, limit);
    return { items: this.parseRows(rows), total };
  }

  /** How many items are in one of `kinds`. */
  count(kinds: readonly UploadStateKind[]): number {
    const row = this.sql('SELECT COUNT(*) AS n FROM upload_items WHERE kind IN (SELECT value FROM json_each(?))').get(
      JSON.stringify(kinds),
    ) as { n: number };
    return row.n;
  }

  /** How many items there are of each kind. */
  counts(): Partial<Record<UploadStateKind, number>> {
    const rows = this.sql('SELECT kind, COUNT(*) AS n FROM upload_items GROUP BY kind').all() as Array<{
      kind: UploadStateKind | null;
      n: number;
    }>;
    return Object.fromEntries(rows.flatMap((row) => (row.kind === null ? [] : [[row.kind, row.n]])));
  }

  /**
   * Up to `limit` items that may start at `now`, oldest first: queued, due for a
   * retry, or paused until a time that has passed, of one of `accounts`. The
   * queued ones are read in id order from the kind index, the due ones in the
   * order they fell due from the wake index (the `+` keeps SQLite from looking
   * them up by kind instead): as many rows as are asked for, however long the queue.
   */
  runnable({ now, limit, accounts, skipIds = [], skipFolders = [] }: RunnableQuery): UploadItem[] {
    // the limit written into the SQL (a handful of statements, one per count of free slots): bound as a
    // parameter, it made SQLite take 110 µs instead of 20 for this query, at every pump. The accounts and paused
    // folders are looked up row by row, and the two lists merged here: as `IN (SELECT … json_each)` lists and an
    // `ORDER BY id` over the union, the query took 75 µs with 2,000 items queued, 10 µs this way
    const count = Math.max(0, Math.floor(limit));
    const wanted = `id NOT IN (SELECT value FROM json_each(@ids))
           AND EXISTS (SELECT 1 FROM json_each(@accounts) AS a WHERE a.value = upload_items.account_id)
           AND (folder_id IS NULL
             OR NOT EXISTS (SELECT 1 FROM json_each(@folders) AS f WHERE f.value = upload_items.folder_id))`;
    const rows = this.sql(
      `SELECT * FROM (
         SELECT * FROM upload_items WHERE kind = 'queued' AND ${wanted} ORDER BY id LIMIT ${count})
       UNION ALL
       SELECT * FROM (
         SELECT * FROM upload_items WHERE wake_at <= @now AND +kind IN ('retrying', 'paused') AND ${wanted}
         ORDER BY wake_at LIMIT ${count})`,
    ).all({
      now,
      ids: JSON.stringify(skipIds),
      accounts: JSON.stringify(accounts),
      folders: JSON.stringify(skipFolders),
    }) as Array<{ id: number }>;
    return this.parseRows(rows.sort((a, b) => a.id - b.id).slice(0, count));
  }

  /** The next wall-clock time after `now` at which a retrying or timed-paused item becomes runnable. */
  nextWake(now: number): number | null {
    const row = this.sql('SELECT MIN(wake_at) AS at FROM upload_items WHERE wake_at > ?').get(now) as {
      at: number | null;
    };
    return row.at;
  }

  /**
   * The unfinished uploads of this path, failed ones included, under each
   * spelling of its name (path-spellings.ts), this spelling first: enqueuing
   * the same file again resumes it (with its acknowledged chunks) rather than
   * starting a second upload; whether another spelling is the same file is
   * the caller's call. (By path: the `+` keeps SQLite from looking the kind
   * up instead, which a queue's history shares.)
   */
  findUnfinishedByPath(path: string): UploadItem[] {
    return this.parseRows(
      this.sql(
        `SELECT * FROM upload_items WHERE path IN (?, ?, ?) AND +kind IN (${UNFINISHED_SQL}, 'failed')
         ORDER BY path = ? DESC, id DESC`,
      ).all(...spellingsOf(path), path),
    );
  }

  /** The latest item of this path in any state, under any spelling of its name, this spelling first ("why this file?"). */
  latestByPath(path: string): UploadItem | undefined {
    return this.parseRow(
      this.sql('SELECT * FROM upload_items WHERE path IN (?, ?, ?) ORDER BY path = ? DESC, id DESC LIMIT 1').get(
        ...spellingsOf(path),
        path,
      ),
    );
  }

  /**
   * The latest finished upload of exactly this content at this path, under
   * any spelling of its name (the same content under the same name is one
   * file), to this account (another's is not on it).
   */
  findDone(path: string, identity: FileIdentity, accountId: string): UploadItem | undefined {
    return this.parseRow(
      this.sql(
        `SELECT * FROM upload_items WHERE path IN (?, ?, ?) AND size = ? AND fingerprint = ? AND +kind = 'done'
           AND account_id = ?
         ORDER BY id DESC LIMIT 1`,
      ).get(...spellingsOf(path), identity.size, identity.fingerprint, accountId),
    );
  }

  /** The items of a watched folder not done or cancelled (failed ones included), in queue order. */
  unfinishedOfFolder(folderId: number): UploadItem[] {
    return this.parseRows(
      this.sql(
        `SELECT * FROM upload_items WHERE kind IN (${UNFINISHED_SQL}, 'failed') AND folder_id = ? ORDER BY id`,
      ).all(folderId),
    );
  }

  /**
   * Whether a later item of the same path holds another version of the file:
   * this upload is no longer what is on disk ("changed since its upload").
   */
  changedSince(item: UploadItem): boolean {
    const later = this.sql(
      `SELECT 1 FROM upload_items WHERE path = ? AND id > ? AND (size != ? OR mtime_ms != ? OR fingerprint != ?) LIMIT 1`,
    ).get(item.path, item.id, item.size, item.mtimeMs, item.fingerprint);
    return later !== undefined;
  }

  /** The latest done upload of this path before item `beforeId`: the one a new version makes out of date. */
  doneBefore(path: string, beforeId: number): UploadItem | undefined {
    return this.parseRow(
      this.sql(`SELECT * FROM upload_items WHERE path = ? AND id < ? AND +kind = 'done' ORDER BY id DESC LIMIT 1`).get(
        path,
        beforeId,
      ),
    );
  }

  /**
   * Items go to another account (and, given, another watched folder), each
   * from the start: no dzuuid, no acknowledged chunk, as one account's upload
   * session is not another's. Answers them as they are now.
   */
  moveToAccount(ids: readonly number[], accountId: string, folderId?: number | null): UploadItem[] {
    const list = JSON.stringify(ids);
    this.sql(
      `UPDATE upload_items SET account_id = ?, folder_id = CASE WHEN ? THEN ? ELSE folder_id END, dzuuid = NULL,
         acked_chunks = '[]', final_sent = 0, stale_file_ids = '[]', file_id = NULL, restarts = 0, updated_at = ?
       WHERE id IN (SELECT value FROM json_each(?))`,
    ).run(accountId, Number(folderId !== undefined), folderId ?? null, this.now(), list);
    return this.parseRows(
      this.sql('SELECT * FROM upload_items WHERE id IN (SELECT value FROM json_each(?))').all(list),
    );
  }

  /**
   * True when an upload of this app produced `fileId` (not someone else's
   * file of the same name), in the queue or removed from it since.
   */
  isKnownFileId(fileId: string): boolean {
    return (
      this.sql('SELECT 1 FROM upload_items WHERE file_id = ? LIMIT 1').get(fileId) !== undefined ||
      this.sql('SELECT 1 FROM known_files WHERE file_id = ?').get(fileId) !== undefined
    );
  }

  /**
   * The state, and the columns kept from it; a done state's file id too, in
   * the same write (no request of it can be unanswered any more). Answers
   * the time it saved.
   */
  saveState(id: number, state: UploadState): number {
    const now = this.now();
    const { kind, wakeAt, finishedAt } = stateColumns(state, now);
    const done = state.kind === 'done';
    this.sql(
      `UPDATE upload_items SET state = ?, kind = ?, wake_at = ?, finished_at = ?, file_id = COALESCE(?, file_id),
         final_sent = final_sent AND NOT ?, updated_at = ? WHERE id = ?`,
    ).run(JSON.stringify(state), kind, wakeAt, finishedAt, done ? state.fileId : null, Number(done), now, id);
    return now;
  }

  /**
   * Runs `write` in one transaction: an item's end and what its listeners
   * write with it (the folder's index, the followed file) are one commit
   * instead of one each. A listener's error is thrown once the rest is
   * committed, as it would have been write by write.
   */
  batch<T>(write: () => T): T {
    let failure: { error: unknown } | undefined;
    const result = this.inTransaction(() => {
      try {
        return write();
      } catch (error) {
        failure = { error };
        return undefined;
      }
    });
    if (failure) throw failure.error;
    return result as T;
  }

  /** Records one acknowledged chunk; committed before the next chunk is counted as sent. */
  ackChunk(id: number, index: number): void {
    this.db.transaction(() => {
      const row = this.sql('SELECT acked_chunks FROM upload_items WHERE id = ?').get(id) as
        { acked_chunks: string } | undefined;
      if (!row) return;
      const acked = new Set(z.array(z.int()).parse(JSON.parse(row.acked_chunks)));
      acked.add(index);
      this.sql('UPDATE upload_items SET acked_chunks = ?, updated_at = ? WHERE id = ?').run(
        JSON.stringify([...acked].sort((a, b) => a - b)),
        this.now(),
        id,
      );
    })();
  }

  setDzuuid(id: number, dzuuid: string): void {
    this.sql('UPDATE upload_items SET dzuuid = ?, updated_at = ? WHERE id = ?').run(dzuuid, this.now(), id);
  }

  setFinalSent(id: number, finalSent: boolean): void {
    this.sql('UPDATE upload_items SET final_sent = ?, updated_at = ? WHERE id = ?').run(
      Number(finalSent),
      this.now(),
      id,
    );
  }

  /** The file the upload made, before its details are sent: no request of it can be unanswered any more. */
  recordFileId(id: number, fileId: string): void {
    this.sql('UPDATE upload_items SET file_id = ?, final_sent = 0, updated_at = ? WHERE id = ?').run(
      fileId,
      this.now(),
      id,
    );
  }

  /**
   * A copy on the service of a version of the file that changed as it was
   * accepted: kept with the item until the new version is there and it is
   * deleted, and in `known_files` at once, so a search for the new version's
   * file never takes it (same name, maybe the same size).
   */
  addStaleCopy(id: number, fileId: string): void {
    this.db.transaction(() => {
      this.sql(
        `UPDATE upload_items SET stale_file_ids = json_insert(stale_file_ids, '$[#]', ?), updated_at = ? WHERE id = ?`,
      ).run(fileId, this.now(), id);
      this.sql('INSERT OR IGNORE INTO known_files (file_id) VALUES (?)').run(fileId);
    })();
  }

  /** A stale copy was deleted from the service. */
  forgetStaleCopy(id: number, fileId: string): void {
    this.sql(
      `UPDATE upload_items SET stale_file_ids = (SELECT json_group_array(value) FROM json_each(stale_file_ids)
         WHERE value != ?), updated_at = ? WHERE id = ?`,
    ).run(fileId, this.now(), id);
  }

  /** A file password is kept only until the PATCH that sets it has succeeded. */
  forgetPassword(id: number): void {
    this.sql(`UPDATE upload_items SET metadata = json_remove(metadata, '$.password'), updated_at = ? WHERE id = ?`).run(
      this.now(),
      id,
    );
  }

  /**
   * Starts the upload over: no dzuuid, no acknowledged chunk. With `identity`
   * the file changed on disk; with `countRestart` the server lost the chunks.
   */
  restart(id: number, change: { identity?: FileIdentity; countRestart?: boolean }): void {
    const identity = change.identity;
    this.sql(
      `UPDATE upload_items SET dzuuid = NULL, acked_chunks = '[]', final_sent = 0, file_id = NULL,
         size = COALESCE(?, size), mtime_ms = COALESCE(?, mtime_ms), fingerprint = COALESCE(?, fingerprint),
         restarts = restarts + ?, updated_at = ? WHERE id = ?`,
    ).run(
      identity?.size ?? null,
      identity?.mtimeMs ?? null,
      identity?.fingerprint ?? null,
      change.countRestart ? 1 : 0,
      this.now(),
      id,
    );
  }

  /** Removes finished (done and cancelled) items; failed ones stay until retried or cancelled. */
  clearFinished(): number {
    return this.removeWhere(`kind IN ('done', 'cancelled')`, []);
  }

  /**
   * Up to `limit` of the items that finished (done or cancelled) before
   * `before`, the oldest first: what the pruning removes next.
   */
  finishedBefore(before: number, limit: number): UploadItem[] {
    return this.parseRows(
      this.sql('SELECT * FROM upload_items WHERE finished_at < ? ORDER BY finished_at LIMIT ?').all(before, limit),
    );
  }

  /** Removes these items (finished ones the pruning took); answers how many went. */
  remove(ids: readonly number[]): number {
    return this.removeWhere('id IN (SELECT value FROM json_each(?))', [JSON.stringify(ids)]);
  }

  /** Deletes items, their file ids kept in `known_files`, in one transaction. */
  private removeWhere(where: string, args: unknown[]): number {
    return this.db.transaction(() => {
      this.sql(
        `INSERT OR IGNORE INTO known_files (file_id) SELECT file_id FROM upload_items
         WHERE ${where} AND file_id IS NOT NULL`,
      ).run(...args);
      return this.sql(`DELETE FROM upload_items WHERE ${where}`).run(...args).changes;
    })();
  }

  private parseRow(row: unknown): UploadItem | undefined {
    return row === undefined ? undefined : this.parse(row as UploadRow);
  }

  private parseRows(rows: unknown[]): UploadItem[] {
    return (rows as UploadRow[]).flatMap((row) => this.parse(row) ?? []);
  }

  private parse(row: UploadRow): UploadItem | undefined {
    const parsed = parseRow(row);
    if ('item' in parsed) return parsed.item;
    this.onBadRow(row.id, parsed.problem);
    return undefined;
  }
}

export function isFinal(item: UploadItem): boolean {
  return FINAL_UPLOAD_KINDS.has(item.state.kind);
}
