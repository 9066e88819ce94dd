import {
  ConversionFollowSchema,
  type ConversionFollow,
  type FollowState,
} from '../../src-shared/model/conversion-follow.js';
import { parseJsonOrUndefined } from '../common/parse-json.js';
import { statementCache, type Db, type Sql } from '../storage/database.js';

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
 * The state's kind and a following file's next poll are also columns, kept
 * from the state by `put` and `update`, so the follower reads the files due
 * from an index, never every file it followed this week.
 */
export class ConversionStore {
  private readonly sql: Sql;

  constructor(
    db: Db,
    private readonly onBadRow: (fileId: string, problem: string) => void = () => undefined,
  ) {
    this.sql = statementCache(db);
  }

  /** Adds a followed file, or starts it over when the same file is followed again (a retried import). */
  put(follow: ConversionFollow): void {
    this.sql(
      `INSERT INTO conversion_follows (account_id, file_id, name, upload_id, job_id, watch_url, state, kind,
         next_poll_at, started_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(account_id, file_id) DO UPDATE SET name = excluded.name, upload_id = excluded.upload_id,
         job_id = excluded.job_id, watch_url = excluded.watch_url, state = excluded.state, kind = excluded.kind,
         next_poll_at = excluded.next_poll_at, started_at = excluded.started_at, updated_at = excluded.updated_at`,
    ).run(
      follow.accountId,
      follow.fileId,
      follow.name,
      follow.uploadId,
      follow.jobId,
      follow.watchUrl,
      JSON.stringify(follow.state),
      follow.state.kind,
      nextPollAt(follow.state),
      follow.startedAt,
      follow.updatedAt,
    );
  }

  update(accountId: string, fileId: string, change: { state: FollowState; watchUrl: string | null; at: number }): void {
    this.sql(
      `UPDATE conversion_follows SET state = ?, kind = ?, next_poll_at = ?, watch_url = ?, updated_at = ?
       WHERE account_id = ? AND file_id = ?`,
    ).run(
      JSON.stringify(change.state),
      change.state.kind,
      nextPollAt(change.state),
      change.watchUrl,
      change.at,
      accountId,
      fileId,
    );
  }

  get(accountId: string, fileId: string): ConversionFollow | undefined {
    const row = this.sql('SELECT * FROM conversion_follows WHERE account_id = ? AND file_id = ?').get(
      accountId,
      fileId,
    );
    return row === undefined ? undefined : this.parse(row as Row);
  }

  /** Every followed file, the most recently changed first (at most `limit`). */
  list(limit = 1_000): ConversionFollow[] {
    return this.parseRows(
      this.sql('SELECT * FROM conversion_follows ORDER BY updated_at DESC, started_at DESC LIMIT ?').all(limit),
    );
  }

  /** Files still followed whose next poll is due at `now` (or whose poll is under way). */
  due(now: number): ConversionFollow[] {
    return this.parseRows(
      this.sql(`SELECT * FROM conversion_follows WHERE kind = 'following' AND next_poll_at <= ?`).all(now),
    );
  }

  /** Files still followed whose next poll is after `after`. */
  dueAfter(after: number): ConversionFollow[] {
    return this.parseRows(
      this.sql(`SELECT * FROM conversion_follows WHERE kind = 'following' AND next_poll_at > ?`).all(after),
    );
  }

  /** The earliest poll after `now`, or null when no file waits for one. */
  nextPollAfter(now: number): number | null {
    const row = this.sql(
      `SELECT MIN(next_poll_at) AS at FROM conversion_follows WHERE kind = 'following' AND next_poll_at > ?`,
    ).get(now) as { at: number | null };
    return row.at;
  }

  /** Forgets files final since before `before` (history the Activity panel no longer shows). */
  pruneFinal(before: number): number {
    return this.sql(`DELETE FROM conversion_follows WHERE updated_at < ? AND kind IS NOT 'following'`).run(before)
      .changes;
  }

  private parseRows(rows: unknown[]): ConversionFollow[] {
    return (rows as Row[]).flatMap((row) => this.parse(row) ?? []);
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

function nextPollAt(state: FollowState): number | null {
  return state.kind === 'following' ? state.nextPollAt : null;
}
