import type { Db } from '../../src-main/storage/database.js';

export interface HistoryOptions {
  accountId: string;
  /** the watched folder the items came from; null: uploads of the person's own */
  folderId?: number | null;
  /** where the files were: `<dir>/old-<n>.jpg` */
  dir?: string;
  /** when the first one finished (wall ms); each next one a second later */
  finishedFrom: number;
}

/**
 * `count` done uploads of 8 KB files written straight into `upload_items`,
 * as `UploadStore.saveState` leaves a done item (the state JSON and the
 * columns kept from it), with a followed conversion each, ended `uploaded`,
 * in `conversion_follows`: a queue's history of months, made in a second
 * instead of uploading it. SQL, not the store, so that 100,000 rows cost no
 * test its time budget.
 */
export function fillFinishedUploads(db: Db, count: number, options: HistoryOptions): void {
  const dir = options.dir ?? '/history';
  db.transaction(() => {
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < @count)
       INSERT INTO upload_items (account_id, path, file_name, size, mtime_ms, fingerprint, visibility, metadata,
         folder_id, state, kind, finished_at, chunk_size, file_id, created_at, updated_at)
       SELECT @account, @dir || '/old-' || i || '.jpg', 'old-' || i || '.jpg', 8192, @from + i * 1000,
         printf('%064x', i), NULL, '{}', @folder,
         json_object('kind', 'done', 'fileId', 'old-' || i, 'finishedAt', @from + i * 1000), 'done',
         @from + i * 1000, 90000000, 'old-' || i, @from + i * 1000, @from + i * 1000
       FROM n`,
    ).run({ count, account: options.accountId, dir, from: options.finishedFrom, folder: options.folderId ?? null });
    db.prepare(
      `INSERT INTO conversion_follows (account_id, file_id, name, upload_id, job_id, watch_url, state, kind,
         next_poll_at, started_at, updated_at)
       SELECT account_id, file_id, file_name, id, NULL, NULL, json_object('kind', 'uploaded', 'at', finished_at),
         'uploaded', NULL, finished_at, finished_at
       FROM upload_items WHERE kind = 'done' AND file_id LIKE 'old-%'`,
    ).run();
  })();
}
