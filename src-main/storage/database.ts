import Database from 'better-sqlite3';
import { checkWritable, databaseProblem, DatabaseProblem } from './database-problem.js';

export type Db = Database.Database;
/** The app's database, in its data folder. */
export const DATABASE_FILE = 'media-sync.db';
/** A store's statements, each compiled once (`statementCache`). */
export type Sql = (sql: string) => Database.Statement;

/**
 * The app's one SQLite file: upload queue, sync index, watched folders,
 * accounts (never tokens; signed-out ones kept), the files followed until their conversion is
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
  // issue 26: what the queue and the conversion follower ask at every event, in indexed columns kept in step with
  // the state JSON (UploadStore.saveState and insert, ConversionStore.put and update), so no query reads the history
  `
  ALTER TABLE upload_items ADD COLUMN kind TEXT;
  -- when a retrying item is due (retryAt) or a paused one resumes (until); null otherwise
  ALTER TABLE upload_items ADD COLUMN wake_at REAL;
  -- when a done or cancelled item ended (what "Clear finished" and the pruning remove); null otherwise
  ALTER TABLE upload_items ADD COLUMN finished_at REAL;
  UPDATE upload_items SET kind = CASE WHEN json_valid(state) THEN json_extract(state, '$.kind') END;
  UPDATE upload_items SET
    wake_at = CASE kind WHEN 'retrying' THEN json_extract(state, '$.retryAt') WHEN 'paused' THEN json_extract(state, '$.until') END,
    finished_at = CASE kind WHEN 'done' THEN COALESCE(json_extract(state, '$.finishedAt'), updated_at)
                            WHEN 'cancelled' THEN updated_at END;
  CREATE INDEX upload_items_kind ON upload_items(kind);
  -- the queue's order alone, a few bytes an item: a page of the queue steps over the items before it here, not over
  -- whole rows (1 ms instead of 9 for the last page of 100,000)
  CREATE INDEX upload_items_order ON upload_items(id);
  CREATE INDEX upload_items_wake ON upload_items(wake_at) WHERE wake_at IS NOT NULL;
  CREATE INDEX upload_items_finished ON upload_items(finished_at) WHERE finished_at IS NOT NULL;
  -- the files of uploads no longer in the queue (Clear finished, the pruning): still this app's, so a lost answer's
  -- search by name and size never takes one of them for the file it is looking for
  CREATE TABLE known_files (file_id TEXT PRIMARY KEY) WITHOUT ROWID;
  ALTER TABLE conversion_follows ADD COLUMN kind TEXT;
  -- a followed file's next poll (FollowState.nextPollAt); null once final
  ALTER TABLE conversion_follows ADD COLUMN next_poll_at REAL;
  UPDATE conversion_follows SET kind = CASE WHEN json_valid(state) THEN json_extract(state, '$.kind') END;
  UPDATE conversion_follows SET next_poll_at = json_extract(state, '$.nextPollAt') WHERE kind = 'following';
  CREATE INDEX conversion_follows_due ON conversion_follows(next_poll_at) WHERE kind = 'following';
  CREATE INDEX conversion_follows_recent ON conversion_follows(updated_at, started_at);
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
        WHEN kind = 'failed' THEN 'failed'
        WHEN kind = 'done' AND json_extract(state, '$.existing') IS NULL THEN 'uploaded'
        ELSE 'skipped'
      END,
      file_id, updated_at
    FROM upload_items
    WHERE kind IN ('done', 'failed', 'cancelled')
      AND folder_id IN (SELECT id FROM watched_folders)
    ORDER BY id;
  `,
  // issue 30: the device (st_dev) a watched folder was on when last seen, so an unmounted drive is "not connected"
  `
  ALTER TABLE watched_folders ADD COLUMN device INTEGER;
  `,
  // issue 30: copies an upload left on the service from a version of its file that changed as it was accepted,
  // deleted once the new version is there (UploadStore.addStaleCopy); a JSON array of file ids
  `
  ALTER TABLE upload_items ADD COLUMN stale_file_ids TEXT NOT NULL DEFAULT '[]';
  `,
  // issue 31: an account signed out is kept (never its token), so signing in again to the same account (its
  // server and the service's account id) takes its watched folders and queued files back
  `
  ALTER TABLE accounts ADD COLUMN remote_id TEXT;
  -- when the person signed out (epoch ms); null while signed in
  ALTER TABLE accounts ADD COLUMN signed_out_at INTEGER;
  `,
  // issue 33: the person's pause of the queue kept as the contract says it, {"until": epoch ms, or null until
  // resumed} (QueuePauseSchema), where the version before kept the epoch ms or 'forever' (not JSON: null)
  `
  UPDATE app_state SET key = 'uploads.pause',
    value = json_object('until', CASE WHEN json_valid(value) THEN json(value) END)
  WHERE key = 'uploads.pausedUntil';
  `,
  // an upload's number is never given again: without AUTOINCREMENT, clearing the newest items handed their numbers
  // to the next files, and a watched folder's recent file (folder_files.upload_id) or a followed conversion then
  // named another upload. The numbers those already hold are not given again either.
  `
  CREATE TABLE upload_items_numbered (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
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
    updated_at INTEGER NOT NULL,
    kind TEXT,
    wake_at REAL,
    finished_at REAL,
    stale_file_ids TEXT NOT NULL DEFAULT '[]'
  );
  INSERT INTO upload_items_numbered SELECT id, account_id, path, file_name, size, mtime_ms, fingerprint, visibility,
    metadata, folder_id, state, dzuuid, chunk_size, acked_chunks, restarts, final_sent, file_id, created_at, updated_at,
    kind, wake_at, finished_at, stale_file_ids FROM upload_items;
  DROP TABLE upload_items;
  ALTER TABLE upload_items_numbered RENAME TO upload_items;
  CREATE INDEX upload_items_path ON upload_items(path);
  CREATE INDEX upload_items_file ON upload_items(file_id);
  CREATE INDEX upload_items_kind ON upload_items(kind);
  CREATE INDEX upload_items_order ON upload_items(id);
  CREATE INDEX upload_items_wake ON upload_items(wake_at) WHERE wake_at IS NOT NULL;
  CREATE INDEX upload_items_finished ON upload_items(finished_at) WHERE finished_at IS NOT NULL;
  DELETE FROM sqlite_sequence WHERE name = 'upload_items';
  INSERT INTO sqlite_sequence (name, seq) SELECT 'upload_items', coalesce(max(used), 0) FROM (
    SELECT max(id) AS used FROM upload_items
    UNION ALL SELECT max(upload_id) FROM folder_files
    UNION ALL SELECT max(upload_id) FROM conversion_follows
  );
  `,
  // a conversion is looked up by its file (ConversionStore), no longer by its upload: the index only cost a write per
  // uploaded file
  `
  DROP INDEX conversion_follows_upload;
  `,
];

/**
 * The statements of one store, each compiled once: better-sqlite3's
 * `prepare` parses and plans the SQL at every call, which was 8 % of the
 * daemon's CPU per small file. Only for statements used plainly (no
 * `pluck`, `raw` or `iterate`, whose modes and cursors a shared statement
 * would carry from one caller to the next).
 */
export function statementCache(db: Db): Sql {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
}

/** The schema version of this build: how many migrations there are. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Opens (creating if needed) the database at `path` in WAL mode, migrates it
 * and checks it. A file that is damaged, or that this user cannot write,
 * throws a DatabaseProblem that says which file and what to do, at once,
 * rather than a raw SQLite error from whichever store reads the broken page
 * first. The quick check reads every page once: a few ms for a queue of a
 * thousand uploads, 70 to 200 ms for 100,000 (31 MB) on a loaded machine.
 */
export function openDatabase(path: string, nativeBinding?: string): Db {
  checkWritable(path);
  let db: Db | undefined;
  try {
    db = new Database(path, nativeBinding ? { nativeBinding } : {});
    db.pragma('journal_mode = WAL');
    // NORMAL is durable across a process kill under WAL; only a power cut can lose the last commit.
    db.pragma('synchronous = NORMAL');
    // A checkpoint (every page of the WAL copied into the file, then two fsyncs, on the thread that commits)
    // every 10,000 pages instead of SQLite's 1,000: a burst of small files rewrites the same index pages at each
    // commit, and a checkpoint copies each once. 9 % less CPU per small file in the daemon (many-files, two
    // daemons in alternate rounds). The WAL may grow to ~40 MB while the database is open; SQLite deletes it at
    // close. A journal_size_limit, which shrinks it after each checkpoint, cost all of that back.
    db.pragma('wal_autocheckpoint = 10000');
    db.pragma('busy_timeout = 5000');
    migrate(db, SCHEMA_VERSION);
    const check = db.pragma('quick_check(1)', { simple: true });
    if (check !== 'ok') throw new DatabaseProblem('damaged', path, String(check));
    return db;
  } catch (error) {
    db?.close();
    throw databaseProblem(error, path) ?? error;
  }
}

/** Runs the migrations `db` has not had, up to `version` (database-repair.ts stops at the damaged file's). */
export function migrate(db: Db, version: number): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let index = current; index < Math.min(version, MIGRATIONS.length); index++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[index]!);
      db.pragma(`user_version = ${index + 1}`);
    })();
  }
}
