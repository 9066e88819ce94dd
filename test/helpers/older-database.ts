import type { Db } from '../../src-main/storage/database.js';

/**
 * Turns a database of this version back into one as the version before
 * migration 6 (issue 31) left it: accounts without the service's id, and
 * none signed out (a sign-out deleted the row).
 */
export function beforeKeptAccounts(db: Db): void {
  db.exec(
    'ALTER TABLE accounts DROP COLUMN remote_id; ALTER TABLE accounts DROP COLUMN signed_out_at; PRAGMA user_version = 5;',
  );
}

/**
 * Turns a database of this version back into one as the version before
 * migration 5 (issue 25) left it: no folder pause, no folder_files.
 */
export function beforeFolderFiles(db: Db): void {
  beforeKeptAccounts(db);
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
