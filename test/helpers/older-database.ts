import { basename } from 'node:path';
import type { Db } from '../../src-main/storage/database.js';

/**
 * Turns a database of this version back into one as the version before
 * migration 11 left it: followed conversions indexed by their upload too.
 */
export function beforeIndexDropped(db: Db): void {
  db.exec('CREATE INDEX conversion_follows_upload ON conversion_follows(upload_id); PRAGMA user_version = 10;');
}

/**
 * Turns a database of this version back into one as the version before
 * migration 10 left it: the queue's numbers without AUTOINCREMENT, so the
 * numbers of the newest items are given again once they are removed.
 */
export function beforeNumbersKept(db: Db): void {
  beforeIndexDropped(db);
  const columns = (db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('upload_items') as string[]).join(
    ', ',
  );
  const indexes = db
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'upload_items' AND sql IS NOT NULL")
    .pluck()
    .all() as string[];
  const table = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'upload_items'").pluck().get() as string)
    .replace('upload_items', 'upload_items_old')
    .replace('AUTOINCREMENT', '');
  db.exec(`
    ${table};
    INSERT INTO upload_items_old (${columns}) SELECT ${columns} FROM upload_items;
    DROP TABLE upload_items;
    ALTER TABLE upload_items_old RENAME TO upload_items;
    ${indexes.join(';\n')};
    DELETE FROM sqlite_sequence WHERE name = 'upload_items';
    PRAGMA user_version = 9;
  `);
}

/**
 * Turns a database of this version back into one as the version before
 * migration 9 (issue 33) left it: the queue's pause kept as the epoch ms it
 * ends at, or 'forever'.
 */
export function beforeQueuePause(db: Db): void {
  beforeNumbersKept(db);
  db.exec(`
    UPDATE app_state SET key = 'uploads.pausedUntil', value = coalesce(json_extract(value, '$.until'), 'forever')
    WHERE key = 'uploads.pause';
    PRAGMA user_version = 8;
  `);
}

/**
 * Turns a database of this version back into one as the version before
 * migration 8 (issue 31) left it: accounts without the service's id, and
 * none signed out (a sign-out deleted the row).
 */
export function beforeKeptAccounts(db: Db): void {
  beforeQueuePause(db);
  db.exec(
    'ALTER TABLE accounts DROP COLUMN remote_id; ALTER TABLE accounts DROP COLUMN signed_out_at; PRAGMA user_version = 7;',
  );
}

/**
 * Turns a database of this version back into one as the version before
 * migration 7 (issue 30) left it: no stale copies of an upload.
 */
export function beforeStaleCopies(db: Db): void {
  beforeKeptAccounts(db);
  db.exec('ALTER TABLE upload_items DROP COLUMN stale_file_ids; PRAGMA user_version = 6;');
}

/**
 * Turns a database of this version back into one as the version before
 * migration 6 (issue 30) left it: no device remembered for a watched folder.
 */
export function beforeFolderDevice(db: Db): void {
  beforeStaleCopies(db);
  db.exec('ALTER TABLE watched_folders DROP COLUMN device; PRAGMA user_version = 5;');
}

/**
 * Turns a database of this version back into one as the version before
 * migration 5 (issue 25) left it: no folder pause, no folder_files.
 */
export function beforeFolderFiles(db: Db): void {
  beforeFolderDevice(db);
  db.exec('DROP TABLE folder_files; ALTER TABLE watched_folders DROP COLUMN paused; PRAGMA user_version = 4;');
}

/**
 * Turns a database of this version back into one as the version before
 * migration 4 (issue 26) left it: the queue's and the followed files' rows
 * with their state JSON only, no kind, wake or finish columns and none of
 * their indexes. What an update finds on disk.
 */
export function beforeIndexedStates(db: Db): void {
  beforeFolderFiles(db);
  db.exec(`
    DROP INDEX upload_items_kind; DROP INDEX upload_items_order; DROP INDEX upload_items_wake;
    DROP INDEX upload_items_finished;
    ALTER TABLE upload_items DROP COLUMN kind; ALTER TABLE upload_items DROP COLUMN wake_at;
    ALTER TABLE upload_items DROP COLUMN finished_at; DROP TABLE known_files;
    DROP INDEX conversion_follows_due; DROP INDEX conversion_follows_recent;
    ALTER TABLE conversion_follows DROP COLUMN kind; ALTER TABLE conversion_follows DROP COLUMN next_poll_at;
    PRAGMA user_version = 3;
  `);
}

/**
 * Turns the queue's file names back into what the version before issue 30
 * stored: the name as the disk spells it (a decomposed name stayed
 * decomposed), where this version stores it composed.
 */
export function namesAsOnDisk(db: Db): void {
  const rows = db.prepare('SELECT id, path FROM upload_items').all() as { id: number; path: string }[];
  const update = db.prepare('UPDATE upload_items SET file_name = ? WHERE id = ?');
  for (const row of rows) update.run(basename(row.path), row.id);
}
