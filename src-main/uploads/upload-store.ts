import { z } from 'zod';
import {
  FINAL_UPLOAD_KINDS,
  UploadItemSchema,
  UploadStateSchema,
  type UploadItem,
  type UploadMetadata,
  type UploadState,
  type UploadStateKind,
} from '../../src-shared/model/upload-state.js';
import type { FileIdentity } from '../common/file-fingerprint.js';
import type { Db } from '../storage/database.js';
import { parseJsonOrUndefined } from '../common/parse-json.js';

export interface NewUpload {
  accountId: string;
  path: string;
  fileName: string;
  identity: FileIdentity;
  visibility: boolean | null;
  metadata: UploadMetadata;
  folderId: number | null;
  chunkSize: number;
}

interface Row {
  id: number;
  account_id: string;
  path: string;
  file_name: string;
  size: number;
  mtime_ms: number;
  fingerprint: string;
  visibility: number | null;
  metadata: string;
  folder_id: number | null;
  state: string;
  dzuuid: string | null;
  chunk_size: number;
  acked_chunks: string;
  restarts: number;
  final_sent: number;
  file_id: string | null;
  created_at: number;
  updated_at: number;
}

const ACTIVE_KINDS_SQL = `json_extract(state, '$.kind') NOT IN ('done', 'failed', 'cancelled')`;

/**
 * The persistent upload queue: one `upload_items` row per upload. Every write
 * is its own transaction, so what was acknowledged before a crash is on disk
 * after it. Rows are re-parsed with zod when read (Signal's JobQueue): a row
 * that does not parse is reported and skipped, never crashes the app.
 */
export class UploadStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly onBadRow: (id: number, problem: string) => void = () => undefined,
  ) {}

  insert(input: NewUpload): UploadItem {
    const now = this.now();
    const { lastInsertRowid } = this.db
      .prepare(
        `INSERT INTO upload_items (account_id, path, file_name, size, mtime_ms, fingerprint, visibility, metadata,
           folder_id, state, chunk_size, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        input.accountId,
        input.path,
        input.fileName,
        input.identity.size,
        input.identity.mtimeMs,
        input.identity.fingerprint,
        input.visibility === null ? null : Number(input.visibility),
        JSON.stringify(input.metadata),
        input.folderId,
        JSON.stringify({ kind: 'queued' } satisfies UploadState),
        input.chunkSize,
        now,
        now,
      );
    return this.get(Number(lastInsertRowid))!;
  }

  get(id: number): UploadItem | undefined {
    const row = this.db.prepare('SELECT * FROM upload_items WHERE id = ?').get(id) as Row | undefined;
    return row && this.parse(row);
  }

  /** Items in queue order (oldest first); `active` limits them to those not done, failed or cancelled. */
  list(filter: { active?: boolean; limit?: number } = {}): UploadItem[] {
    const where = filter.active ? `WHERE ${ACTIVE_KINDS_SQL}` : '';
    const rows = this.db
      .prepare(`SELECT * FROM upload_items ${where} ORDER BY id LIMIT ?`)
      .all(filter.limit ?? -1) as Row[];
    return rows.flatMap((row) => this.parse(row) ?? []);
  }

  /**
   * One page of the whole queue in queue order, and how many items there are:
   * the UI pages through 10,000 items without the core reading them all.
   */
  page(offset: number, limit: number): { items: UploadItem[]; total: number } {
    const { total } = this.db.prepare('SELECT COUNT(*) AS total FROM upload_items').get() as { total: number };
    const rows = this.db.prepare('SELECT * FROM upload_items ORDER BY id LIMIT ? OFFSET ?').all(limit, offset) as Row[];
    return { items: rows.flatMap((row) => this.parse(row) ?? []), total };
  }

  /** How many items are in one of `kinds`. */
  count(kinds: readonly UploadStateKind[]): number {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS n FROM upload_items WHERE json_extract(state, '$.kind') IN (SELECT value FROM json_each(?))`,
      )
      .get(JSON.stringify(kinds)) as { n: number };
    return row.n;
  }

  /**
   * Up to `limit` items that may start now, oldest first: queued, due for a
   * retry, or paused until a time that has passed. Items of `skipAccounts`
   * (blocked), `skipIds` (running) and `skipFolders` (paused) are left out.
   */
  runnable(
    now: number,
    skipIds: readonly number[],
    skipAccounts: readonly string[],
    limit: number,
    skipFolders: readonly number[] = [],
  ): UploadItem[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM upload_items
         WHERE (json_extract(state, '$.kind') = 'queued'
             OR (json_extract(state, '$.kind') = 'retrying' AND json_extract(state, '$.retryAt') <= @now)
             OR (json_extract(state, '$.kind') = 'paused' AND json_extract(state, '$.until') <= @now))
           AND id NOT IN (SELECT value FROM json_each(@ids))
           AND account_id NOT IN (SELECT value FROM json_each(@accounts))
           AND (folder_id IS NULL OR folder_id NOT IN (SELECT value FROM json_each(@folders)))
         ORDER BY id LIMIT @limit`,
      )
      .all({
        now,
        ids: JSON.stringify(skipIds),
        accounts: JSON.stringify(skipAccounts),
        folders: JSON.stringify(skipFolders),
        limit,
      }) as Row[];
    return rows.flatMap((row) => this.parse(row) ?? []);
  }

  /** The next wall-clock time after `now` at which a retrying or timed-paused item becomes runnable. */
  nextWake(now: number): number | null {
    const row = this.db
      .prepare(
        `SELECT MIN(at) AS at FROM (
           SELECT CASE json_extract(state, '$.kind')
                    WHEN 'retrying' THEN json_extract(state, '$.retryAt')
                    WHEN 'paused' THEN json_extract(state, '$.until') END AS at
           FROM upload_items WHERE json_extract(state, '$.kind') IN ('retrying', 'paused'))
         WHERE at > ?`,
      )
      .get(now) as { at: number | null };
    return row.at;
  }

  /**
   * The unfinished upload of this path, failed ones included: enqueuing the
   * same file again resumes it (with its acknowledged chunks) rather than
   * starting a second upload.
   */
  findUnfinishedByPath(path: string): UploadItem | undefined {
    const row = this.db
      .prepare(
        `SELECT * FROM upload_items WHERE path = ? AND json_extract(state, '$.kind') NOT IN ('done', 'cancelled')
         ORDER BY id DESC LIMIT 1`,
      )
      .get(path) as Row | undefined;
    return row && this.parse(row);
  }

  /** The latest finished upload of exactly this content at this path. */
  findDone(path: string, identity: FileIdentity): UploadItem | undefined {
    const row = this.db
      .prepare(
        `SELECT * FROM upload_items WHERE path = ? AND size = ? AND fingerprint = ?
           AND json_extract(state, '$.kind') = 'done' ORDER BY id DESC LIMIT 1`,
      )
      .get(path, identity.size, identity.fingerprint) as Row | undefined;
    return row && this.parse(row);
  }

  /** True when a finished upload of this app produced `fileId` (not someone else's file of the same name). */
  isKnownFileId(fileId: string): boolean {
    return this.db.prepare('SELECT 1 FROM upload_items WHERE file_id = ? LIMIT 1').get(fileId) !== undefined;
  }

  saveState(id: number, state: UploadState): void {
    const fileId = state.kind === 'done' ? state.fileId : null;
    this.db
      .prepare('UPDATE upload_items SET state = ?, file_id = COALESCE(?, file_id), updated_at = ? WHERE id = ?')
      .run(JSON.stringify(state), fileId, this.now(), id);
  }

  /** Records one acknowledged chunk; committed before the next chunk is counted as sent. */
  ackChunk(id: number, index: number): void {
    this.db.transaction(() => {
      const row = this.db.prepare('SELECT acked_chunks FROM upload_items WHERE id = ?').get(id) as
        { acked_chunks: string } | undefined;
      if (!row) return;
      const acked = new Set(z.array(z.int()).parse(JSON.parse(row.acked_chunks)));
      acked.add(index);
      this.db
        .prepare('UPDATE upload_items SET acked_chunks = ?, updated_at = ? WHERE id = ?')
        .run(JSON.stringify([...acked].sort((a, b) => a - b)), this.now(), id);
    })();
  }

  setDzuuid(id: number, dzuuid: string): void {
    this.db.prepare('UPDATE upload_items SET dzuuid = ?, updated_at = ? WHERE id = ?').run(dzuuid, this.now(), id);
  }

  setFinalSent(id: number, finalSent: boolean): void {
    this.db
      .prepare('UPDATE upload_items SET final_sent = ?, updated_at = ? WHERE id = ?')
      .run(Number(finalSent), this.now(), id);
  }

  setFileId(id: number, fileId: string): void {
    this.db.prepare('UPDATE upload_items SET file_id = ?, updated_at = ? WHERE id = ?').run(fileId, this.now(), id);
  }

  /** A file password is kept only until the PATCH that sets it has succeeded. */
  forgetPassword(id: number): void {
    this.db
      .prepare(`UPDATE upload_items SET metadata = json_remove(metadata, '$.password'), updated_at = ? WHERE id = ?`)
      .run(this.now(), id);
  }

  /**
   * Starts the upload over: no dzuuid, no acknowledged chunk. With `identity`
   * the file changed on disk; with `countRestart` the server lost the chunks.
   */
  restart(id: number, change: { identity?: FileIdentity; countRestart?: boolean }): void {
    const identity = change.identity;
    this.db
      .prepare(
        `UPDATE upload_items SET dzuuid = NULL, acked_chunks = '[]', final_sent = 0, file_id = NULL,
           size = COALESCE(?, size), mtime_ms = COALESCE(?, mtime_ms), fingerprint = COALESCE(?, fingerprint),
           restarts = restarts + ?, updated_at = ? WHERE id = ?`,
      )
      .run(
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
    return this.db
      .prepare(`DELETE FROM upload_items WHERE json_extract(state, '$.kind') IN ('done', 'cancelled')`)
      .run().changes;
  }

  private parse(row: Row): UploadItem | undefined {
    const parsed = UploadItemSchema.safeParse({
      id: row.id,
      accountId: row.account_id,
      path: row.path,
      fileName: row.file_name,
      size: row.size,
      mtimeMs: row.mtime_ms,
      fingerprint: row.fingerprint,
      visibility: row.visibility === null ? null : row.visibility === 1,
      metadata: parseJsonOrUndefined(row.metadata),
      folderId: row.folder_id,
      state: UploadStateSchema.safeParse(parseJsonOrUndefined(row.state)).data,
      dzuuid: row.dzuuid,
      chunkSize: row.chunk_size,
      ackedChunks: parseJsonOrUndefined(row.acked_chunks),
      restarts: row.restarts,
      finalSent: row.final_sent === 1,
      fileId: row.file_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    });
    if (!parsed.success) {
      this.onBadRow(row.id, z.prettifyError(parsed.error));
      return undefined;
    }
    return parsed.data;
  }
}

export function isFinal(item: UploadItem): boolean {
  return FINAL_UPLOAD_KINDS.has(item.state.kind);
}
