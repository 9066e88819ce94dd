import Database from 'better-sqlite3';

export type Db = Database.Database;

/**
 * The app's one SQLite file: upload queue, sync index, watched folders,
 * accounts (never tokens), the files followed until their conversion is
 * final, the watched folders' files the person cancelled and the last
 * outcome of each watched folder's files. Migrations are
 * numbered by position and recorded in `PRAGMA user_version`. Append only:
 * never edit a migration that has shipped.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    base_url TEXT NOT NULL,
    username TEXT,
    plan TEXT NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'premium')),
    -- why the account's queue is paused by the server (401/403), null when it is not
    blocked_reason TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE upload_items (
    id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    path TEXT NOT NULL,
    file_name TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms REAL NOT NULL,
    fingerprint TEXT NOT NULL,
    visibility INTEGER,
    metadata TEXT NOT NULL DEFAULT '{}',
    folder_id INTEGER,
    state TEXT NOT NULL,
    dzuuid TEXT,
    chunk_size INTEGER NOT NULL,
    acked_chunks TEXT NOT NULL DEFAULT '[]',
    -- restarts with a new dzuuid after a last chunk that made no file (at most one)
    restarts INTEGER NOT NULL DEFAULT 0,
    -- 1 while a request that may complete the file might have reached the server unanswered
    final_sent INTEGER NOT NULL DEFAULT 0,
    file_id TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX upload_items_path ON upload_items(path);
  CREATE INDEX upload_items_file ON upload_items(file_id);
  CREATE TABLE watched_folders (
    id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    path TEXT NOT NULL UNIQUE,
    options TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE sync_index (
    folder_id INTEGER NOT NULL,
    rel_path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms REAL NOT NULL,
    fingerprint TEXT,
    file_id TEXT,
    -- 'uploaded' once on the service; 'baseline' for files that were there before
    -- a folder set to "only new files" was added
    origin TEXT NOT NULL CHECK (origin IN ('uploaded', 'baseline')),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (folder_id, rel_path)
  );
  CREATE INDEX sync_index_content ON sync_index(folder_id, size, fingerprint);
  CREATE TABLE app_state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // issue 13: files followed after their upload or import until their HLS conversion is final
  `
  CREATE TABLE conversion_follows (
    account_id TEXT NOT NULL,
    file_id TEXT NOT NULL,
    name TEXT NOT NULL,
    upload_id INTEGER,
    job_id TEXT,
    watch_url TEXT,
    -- FollowStateSchema as JSON (src-shared/model/conversion-follow.ts)
    state TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, file_id)
  );
  CREATE INDEX conversion_follows_upload ON conversion_follows(upload_id);
  `,
  // issue 22: files of watched folders the person cancelled, not queued again until they change or are retried
  `
  CREATE TABLE sync_declined (
    path TEXT PRIMARY KEY,
    folder_id INTEGER NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms REAL NOT NULL,
    fingerprint TEXT NOT NULL,
    declined_at INTEGER NOT NULL
  );
  CREATE INDEX sync_declined_content ON sync_declined(folder_id, size, fingerprint);
  -- what was cancelled before this table existed: a path whose latest item is a cancelled one of a watched folder
  INSERT INTO sync_declined (path, folder_id, size, mtime_ms, fingerprint, declined_at)
    SELECT path, folder_id, size, mtime_ms, fingerprint, updated_at FROM upload_items AS item
    WHERE json_extract(state, '$.kind') = 'cancelled'
      AND folder_id IN (SELECT id FROM watched_folders)
      AND id = (SELECT MAX(id) FROM upload_items WHERE path = item.path);
  `,
  // issue 25: a folder's own pause, and the last outcome of each of its files (its counts and recent files)
  `
  ALTER TABLE watched_folders ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE folder_files (
    folder_id INTEGER NOT NULL,
    path TEXT NOT NULL,
    name TEXT NOT NULL,
    upload_id INTEGER,
    outcome TEXT NOT NULL CHECK (outcome IN ('uploaded', 'failed', 'skipped')),
    file_id TEXT,
    at INTEGER NOT NULL,
    PRIMARY KEY (folder_id, path)
  );
  CREATE INDEX folder_files_recent ON folder_files(folder_id, at);
  -- what the queue still holds of the watched folders (finished items it kept), oldest first so the latest wins
  INSERT OR REPLACE INTO folder_files (folder_id, path, name, upload_id, outcome, file_id, at)
    SELECT folder_id, path, file_name, id,
      CASE
        WHEN json_extract(state, '$.kind') = 'failed' THEN 'failed'
        WHEN json_extract(state, '$.kind') = 'done' AND json_extract(state, '$.existing') IS NULL THEN 'uploaded'
        ELSE 'skipped'
      END,
      file_id, updated_at
    FROM upload_items
    WHERE json_extract(state, '$.kind') IN ('done', 'failed', 'cancelled')
      AND folder_id IN (SELECT id FROM watched_folders)
    ORDER BY id;
  `,
];

/** Opens (creating if needed) the database at `path` in WAL mode and migrates it. */
export function openDatabase(path: string, nativeBinding?: string): Db {
  const db = new Database(path, nativeBinding ? { nativeBinding } : {});
  db.pragma('journal_mode = WAL');
  // NORMAL is durable across a process kill under WAL; only a power cut can lose the last commit.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const version = db.pragma('user_version', { simple: true }) as number;
  for (let index = version; index < MIGRATIONS.length; index++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[index]!);
      db.pragma(`user_version = ${index + 1}`);
    })();
  }
  return db;
}
