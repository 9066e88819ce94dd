import {
  FOLDER_RECENT_LIMIT,
  FolderRecentFileSchema,
  type FolderRecentFile,
  type FolderStatus,
} from '../../src-shared/model/folder-status.js';
import { statementCache, type Db, type Sql } from '../storage/database.js';

export type FolderFileOutcome = FolderRecentFile['outcome'];

export interface FolderFileRecord {
  folderId: number;
  path: string;
  name: string;
  uploadId: number;
  outcome: FolderFileOutcome;
  fileId: string | null;
  at: number;
}

interface RecentRow {
  name: string;
  path: string;
  upload_id: number | null;
  outcome: string;
  file_id: string | null;
  at: number;
  changed: number;
}

/**
 * The last outcome of each file of each watched folder (uploaded, failed,
 * skipped), kept apart from the queue so a folder's counts and recent files
 * survive a restart and the queue's clean-ups. One row per file: a file
 * uploaded again counts once, and a failed one retried with success is no
 * longer failed.
 */
export class FolderFiles {
  /** statements prepared once: a prepare per uploaded file was a hundredth of its CPU */
  private readonly sql: Sql;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  record(entry: FolderFileRecord): void {
    this.sql(
      `INSERT OR REPLACE INTO folder_files (folder_id, path, name, upload_id, outcome, file_id, at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(entry.folderId, entry.path, entry.name, entry.uploadId, entry.outcome, entry.fileId, entry.at);
  }

  /** A failed file was retried: it is in the queue again, no longer a failure. */
  forgetFailure(folderId: number, path: string): boolean {
    return (
      this.sql(`DELETE FROM folder_files WHERE folder_id = ? AND path = ? AND outcome = 'failed'`).run(folderId, path)
        .changes > 0
    );
  }

  /** The folder's counts; `uploadedToday` counts the files uploaded at or after `todayStart` (epoch ms). */
  counts(folderId: number, todayStart: number): FolderStatus['counts'] {
    const row = this.sql(
      `SELECT COALESCE(SUM(outcome = 'uploaded' AND at >= ?), 0) AS today,
                COALESCE(SUM(outcome = 'uploaded'), 0) AS uploaded,
                COALESCE(SUM(outcome = 'failed'), 0) AS failed,
                COALESCE(SUM(outcome = 'skipped'), 0) AS skipped
         FROM folder_files WHERE folder_id = ?`,
    ).get(todayStart, folderId) as { today: number; uploaded: number; failed: number; skipped: number };
    return { uploadedToday: row.today, uploaded: row.uploaded, failed: row.failed, skipped: row.skipped };
  }

  /**
   * The folder's last files, newest first; `uploadId` is null once the item
   * left the queue. An uploaded file the folder has queued a later item of
   * (which it does only for another version) has changed since its upload.
   */
  recent(folderId: number): FolderRecentFile[] {
    const rows = this.sql(
      `SELECT f.name, f.path, item.id AS upload_id, f.outcome, f.file_id, f.at,
           f.outcome = 'uploaded' AND EXISTS (SELECT 1 FROM upload_items AS later
             WHERE later.path = f.path AND later.id > f.upload_id AND later.folder_id = f.folder_id) AS changed
         FROM folder_files AS f LEFT JOIN upload_items AS item ON item.id = f.upload_id
         WHERE f.folder_id = ? ORDER BY f.at DESC, f.rowid DESC LIMIT ?`,
    ).all(folderId, FOLDER_RECENT_LIMIT) as RecentRow[];
    return rows.flatMap((row) => {
      const parsed = FolderRecentFileSchema.safeParse({
        name: row.name,
        path: row.path,
        uploadId: row.upload_id,
        outcome: row.outcome,
        fileId: row.file_id,
        at: row.at,
        changedSinceUpload: row.changed === 1,
      });
      return parsed.success ? [parsed.data] : [];
    });
  }
}
