import Database from 'better-sqlite3';

export type Db = Database.Database;

/**
 * Schema migrations, numbered by position; `PRAGMA user_version` records how
 * many have run. Append only: never edit a migration that has shipped.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    username TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    plan TEXT NOT NULL CHECK (plan IN ('free', 'premium')),
    status INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE tokens (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    abilities TEXT NOT NULL,
    allowed_ips TEXT,
    expires_at INTEGER,
    disabled INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE folders (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL
  );
  CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    filename TEXT NOT NULL,
    mime TEXT NOT NULL,
    extension TEXT NOT NULL,
    size_bytes INTEGER NOT NULL,
    visibility TEXT NOT NULL CHECK (visibility IN ('public', 'private')),
    password_hash TEXT,
    allow_online_watch INTEGER NOT NULL DEFAULT 1,
    description TEXT,
    folder_id INTEGER REFERENCES folders(id) ON DELETE SET NULL,
    blocked_countries TEXT NOT NULL DEFAULT '[]',
    downloads INTEGER NOT NULL DEFAULT 0,
    stream_views INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX files_account ON files(account_id, id);
  CREATE TABLE upload_sessions (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    dzuuid TEXT NOT NULL,
    filename TEXT NOT NULL,
    total_chunks INTEGER NOT NULL,
    chunk_size INTEGER NOT NULL,
    total_size INTEGER NOT NULL,
    visibility TEXT,
    state TEXT NOT NULL CHECK (state IN ('receiving', 'assembling', 'assembled')),
    file_id INTEGER REFERENCES files(id) ON DELETE CASCADE,
    updated_at INTEGER NOT NULL,
    UNIQUE (account_id, dzuuid)
  );
  CREATE TABLE upload_chunks (
    session_id INTEGER NOT NULL REFERENCES upload_sessions(id) ON DELETE CASCADE,
    chunk_index INTEGER NOT NULL,
    size INTEGER NOT NULL,
    PRIMARY KEY (session_id, chunk_index)
  );
  CREATE TABLE conversions (
    file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    stage TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    duration_seconds INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    available_at INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE remote_jobs (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    host TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    folder_id INTEGER,
    visibility TEXT NOT NULL,
    allow_online_watch INTEGER NOT NULL,
    password_hash TEXT,
    blocked_countries TEXT NOT NULL DEFAULT '[]',
    status TEXT NOT NULL,
    stage TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    bytes_downloaded INTEGER NOT NULL DEFAULT 0,
    bytes_total INTEGER,
    error TEXT,
    file_public_id TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX remote_jobs_account ON remote_jobs(account_id, seq);
  CREATE INDEX remote_jobs_status ON remote_jobs(status, seq);
  CREATE TABLE server_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
];

/** Opens (creating if needed) the server database in WAL mode and migrates it. */
export function openDatabase(path: string): Db {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // The admin CLI writes while the server runs: wait for the lock instead of failing.
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
