import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { RemoteJob, RemoteJobStatus } from '../../src-shared/api/index.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';

export interface RemoteJobRow {
  seq: number;
  id: string;
  account_id: number;
  url: string;
  host: string;
  name: string;
  description: string | null;
  folder_id: number | null;
  visibility: 'public' | 'private';
  allow_online_watch: number;
  password_hash: string | null;
  blocked_countries: string;
  status: RemoteJobStatus;
  stage: string;
  attempts: number;
  bytes_downloaded: number;
  bytes_total: number | null;
  error: string | null;
  file_public_id: string | null;
  cancel_requested: number;
}

export interface NewRemoteJob {
  accountId: number;
  url: string;
  host: string;
  name: string;
  description: string | null;
  folderId: number | null;
  visibility: 'public' | 'private';
  allowOnlineWatch: boolean;
  passwordHash: string | null;
  blockedCountries: readonly string[];
}

const StoredErrorSchema = z.object({ code: z.string(), message: z.string() });

/** The API view of a job row. */
export function presentJob(row: RemoteJobRow): RemoteJob {
  const percent =
    row.status === 'completed'
      ? 100
      : row.bytes_total
        ? Math.min(100, Math.round((row.bytes_downloaded / row.bytes_total) * 1000) / 10)
        : null;
  return {
    id: row.id,
    host: row.host,
    name: row.name,
    status: row.status,
    stage: row.stage,
    attempts: row.attempts,
    bytes_downloaded: row.bytes_downloaded,
    bytes_total: row.bytes_total,
    progress_percent: percent,
    error: row.error === null ? null : StoredErrorSchema.parse(JSON.parse(row.error)),
    file_id: row.file_public_id,
  };
}

/** Remote-upload jobs in SQLite; every status change is one UPDATE guarded by the status it expects. */
export class RemoteJobStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  insertMany(jobs: readonly NewRemoteJob[]): RemoteJobRow[] {
    const insert = this.db.prepare(
      `INSERT INTO remote_jobs (id, account_id, url, host, name, description, folder_id, visibility,
         allow_online_watch, password_hash, blocked_countries, status, stage, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 'queued', ?, ?)`,
    );
    return this.db.transaction(() =>
      jobs.map((job) => {
        const id = randomUUID();
        const now = this.clock.now();
        insert.run(
          id,
          job.accountId,
          job.url,
          job.host,
          job.name,
          job.description,
          job.folderId,
          job.visibility,
          job.allowOnlineWatch ? 1 : 0,
          job.passwordHash,
          JSON.stringify([...new Set(job.blockedCountries)]),
          now,
          now,
        );
        return this.byId(id)!;
      }),
    )();
  }

  byId(id: string): RemoteJobRow | undefined {
    return this.db.prepare('SELECT * FROM remote_jobs WHERE id = ?').get(id) as RemoteJobRow | undefined;
  }

  owned(accountId: number, id: string): RemoteJobRow | undefined {
    return this.db.prepare('SELECT * FROM remote_jobs WHERE id = ? AND account_id = ?').get(id, accountId) as
      RemoteJobRow | undefined;
  }

  /** Newest first. */
  list(accountId: number, page: number, perPage: number) {
    const { total } = this.db
      .prepare('SELECT COUNT(*) AS total FROM remote_jobs WHERE account_id = ?')
      .get(accountId) as {
      total: number;
    };
    const rows = this.db
      .prepare('SELECT * FROM remote_jobs WHERE account_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?')
      .all(accountId, perPage, (page - 1) * perPage) as RemoteJobRow[];
    return { rows, total };
  }

  /** Takes the oldest pending job for a worker. */
  claimNext(): RemoteJobRow | undefined {
    return this.db
      .prepare(
        `UPDATE remote_jobs SET status = 'running', stage = 'connecting', attempts = attempts + 1, updated_at = ?
         WHERE seq = (SELECT seq FROM remote_jobs WHERE status = 'pending' ORDER BY seq LIMIT 1)
         RETURNING *`,
      )
      .get(this.clock.now()) as RemoteJobRow | undefined;
  }

  /** Moves a job only if it is still in `from`; returns whether it moved. */
  private move(id: string, from: RemoteJobStatus, sets: string, ...values: unknown[]): boolean {
    const info = this.db
      .prepare(`UPDATE remote_jobs SET ${sets}, updated_at = ? WHERE id = ? AND status = ?`)
      .run(...values, this.clock.now(), id, from);
    return info.changes === 1;
  }

  setStage(id: string, stage: string): void {
    this.move(id, 'running', 'stage = CASE WHEN cancel_requested = 1 THEN stage ELSE ? END', stage);
  }

  setProgress(id: string, bytesDownloaded: number, bytesTotal: number | null): void {
    this.move(
      id,
      'running',
      'bytes_downloaded = ?, bytes_total = COALESCE(?, bytes_total)',
      bytesDownloaded,
      bytesTotal,
    );
  }

  complete(id: string, filePublicId: string, bytes: number): boolean {
    return this.move(
      id,
      'running',
      "status = 'completed', stage = 'completed', bytes_downloaded = ?, bytes_total = ?, file_public_id = ?, error = NULL",
      bytes,
      bytes,
      filePublicId,
    );
  }

  fail(id: string, code: string, message: string): void {
    this.move(id, 'running', "status = 'failed', stage = 'failed', error = ?", JSON.stringify({ code, message }));
  }

  /** A pending job is cancelled at once. */
  cancelPending(id: string): boolean {
    return this.move(id, 'pending', "status = 'cancelled', stage = 'cancelled'");
  }

  /** A running job is asked to stop; the worker finishes the move to `cancelled`. */
  requestCancel(id: string): boolean {
    return this.move(id, 'running', "cancel_requested = 1, stage = 'cancelling'");
  }

  markCancelled(id: string): void {
    this.move(id, 'running', "status = 'cancelled', stage = 'cancelled'");
  }

  /** Back to the queue from failed or cancelled, with the progress of the last attempt cleared. */
  retry(id: string): boolean {
    const reset =
      "status = 'pending', stage = 'queued', bytes_downloaded = 0, bytes_total = NULL, error = NULL, file_public_id = NULL, cancel_requested = 0";
    return this.move(id, 'failed', reset) || this.move(id, 'cancelled', reset);
  }

  /** After a stop or crash: running jobs go back to the queue, or to cancelled if that was asked. */
  requeueInterrupted(): void {
    const now = this.clock.now();
    this.db
      .prepare(
        "UPDATE remote_jobs SET status = 'cancelled', stage = 'cancelled', updated_at = ? WHERE status = 'running' AND cancel_requested = 1",
      )
      .run(now);
    this.db
      .prepare(
        "UPDATE remote_jobs SET status = 'pending', stage = 'queued', bytes_downloaded = 0, bytes_total = NULL, updated_at = ? WHERE status = 'running'",
      )
      .run(now);
  }

  requeue(id: string): void {
    this.move(id, 'running', "status = 'pending', stage = 'queued', bytes_downloaded = 0, bytes_total = NULL");
  }
}
