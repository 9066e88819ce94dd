import {
  ConversionFollowSchema,
  type ConversionFollow,
  type FollowState,
} from '../../src-shared/model/conversion-follow.js';
import { parseJsonOrUndefined } from '../common/parse-json.js';
import type { Db } from '../storage/database.js';

interface Row {
  account_id: string;
  file_id: string;
  name: string;
  upload_id: number | null;
  job_id: string | null;
  watch_url: string | null;
  state: string;
  started_at: number;
  updated_at: number;
}

/**
 * The files followed after their upload or import (`conversion_follows`), so
 * a restart goes on following them. Rows are re-parsed with zod when read: a
 * row that does not parse is reported and skipped, never crashes the app.
 */
export class ConversionStore {
  constructor(
    private readonly db: Db,
    private readonly onBadRow: (fileId: string, problem: string) => void = () => undefined,
  ) {}

  /** Adds a followed file, or starts it over when the same file is followed again (a retried import). */
  put(follow: ConversionFollow): void {
    this.db
      .prepare(
        `INSERT INTO conversion_follows (account_id, file_id, name, upload_id, job_id, watch_url, state, started_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(account_id, file_id) DO UPDATE SET name = excluded.name, upload_id = excluded.upload_id,
           job_id = excluded.job_id, watch_url = excluded.watch_url, state = excluded.state,
           started_at = excluded.started_at, updated_at = excluded.updated_at`,
      )
      .run(
        follow.accountId,
        follow.fileId,
        follow.name,
        follow.uploadId,
        follow.jobId,
        follow.watchUrl,
        JSON.stringify(follow.state),
        follow.startedAt,
        follow.updatedAt,
      );
  }

  update(accountId: string, fileId: string, change: { state: FollowState; watchUrl: string | null; at: number }): void {
    this.db
      .prepare(
        'UPDATE conversion_follows SET state = ?, watch_url = ?, updated_at = ? WHERE account_id = ? AND file_id = ?',
      )
      .run(JSON.stringify(change.state), change.watchUrl, change.at, accountId, fileId);
  }

  get(accountId: string, fileId: string): ConversionFollow | undefined {
    const row = this.db
      .prepare('SELECT * FROM conversion_follows WHERE account_id = ? AND file_id = ?')
      .get(accountId, fileId) as Row | undefined;
    return row && this.parse(row);
  }

  /** Every followed file, the most recently changed first (at most `limit`). */
  list(limit = 1_000): ConversionFollow[] {
    const rows = this.db
      .prepare('SELECT * FROM conversion_follows ORDER BY updated_at DESC, started_at DESC LIMIT ?')
      .all(limit) as Row[];
    return rows.flatMap((row) => this.parse(row) ?? []);
  }

  /** Files still being followed. */
  following(): ConversionFollow[] {
    const rows = this.db
      .prepare(`SELECT * FROM conversion_follows WHERE json_extract(state, '$.kind') = 'following'`)
      .all() as Row[];
    return rows.flatMap((row) => this.parse(row) ?? []);
  }

  /** The follow of the file an upload made. */
  byUpload(uploadId: number): ConversionFollow | undefined {
    const row = this.db
      .prepare('SELECT * FROM conversion_follows WHERE upload_id = ? ORDER BY started_at DESC LIMIT 1')
      .get(uploadId) as Row | undefined;
    return row && this.parse(row);
  }

  /** Forgets files final since before `before` (history the Activity panel no longer shows). */
  pruneFinal(before: number): number {
    return this.db
      .prepare(`DELETE FROM conversion_follows WHERE json_extract(state, '$.kind') <> 'following' AND updated_at < ?`)
      .run(before).changes;
  }

  private parse(row: Row): ConversionFollow | undefined {
    const parsed = ConversionFollowSchema.safeParse({
      accountId: row.account_id,
      fileId: row.file_id,
      name: row.name,
      uploadId: row.upload_id,
      jobId: row.job_id,
      watchUrl: row.watch_url,
      state: parseJsonOrUndefined(row.state),
      startedAt: row.started_at,
      updatedAt: row.updated_at,
    });
    if (parsed.success) return parsed.data;
    this.onBadRow(row.file_id, parsed.error.issues[0]?.message ?? 'invalid row');
    return undefined;
  }
}
