import type { FileIdentity } from '../common/file-fingerprint.js';
import { spellingsOf } from '../common/path-spellings.js';
import { statementCache, type Db, type Sql } from '../storage/database.js';

export interface DeclinedFile extends FileIdentity {
  /** absolute, as the queue item had it */
  path: string;
  folderId: number;
}

interface Row {
  path: string;
  folder_id: number;
  size: number;
  mtime_ms: number;
  fingerprint: string;
}

/**
 * Files of watched folders the person cancelled in the queue, by path and
 * identity (size, mtime, quick fingerprint). The folder does not queue such a
 * file again, whether at a restart, a rescan or once the queue is cleared,
 * until the file is another version (any of the three differs) or the person
 * retries its item. Kept apart from the SyncIndex, which holds what was sent.
 */
export class DeclinedFiles {
  private readonly sql: Sql;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.sql = statementCache(db);
  }

  record(file: DeclinedFile): void {
    this.sql(
      `INSERT INTO sync_declined (path, folder_id, size, mtime_ms, fingerprint, declined_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (path) DO UPDATE SET folder_id = excluded.folder_id, size = excluded.size,
           mtime_ms = excluded.mtime_ms, fingerprint = excluded.fingerprint, declined_at = excluded.declined_at`,
    ).run(file.path, file.folderId, file.size, file.mtimeMs, file.fingerprint, this.now());
  }

  /** The mark of this path, else of another spelling of its name (path-spellings.ts): its `path` says which. */
  lookup(path: string): DeclinedFile | undefined {
    const row = this.sql('SELECT * FROM sync_declined WHERE path IN (?, ?, ?) ORDER BY path = ? DESC LIMIT 1').get(
      ...spellingsOf(path),
      path,
    ) as Row | undefined;
    return row && toFile(row);
  }

  /** Files of the folder declined with exactly this identity: the candidates for "this new path is a renamed one". */
  findByIdentity(folderId: number, identity: FileIdentity): DeclinedFile[] {
    const rows = this.sql(
      'SELECT * FROM sync_declined WHERE folder_id = ? AND size = ? AND fingerprint = ? AND mtime_ms = ?',
    ).all(folderId, identity.size, identity.fingerprint, identity.mtimeMs) as Row[];
    return rows.map(toFile);
  }

  move(fromPath: string, toPath: string): void {
    this.db.transaction(() => {
      this.sql('DELETE FROM sync_declined WHERE path = ?').run(toPath);
      this.sql('UPDATE sync_declined SET path = ? WHERE path = ?').run(toPath, fromPath);
    })();
  }

  forget(path: string): void {
    this.sql('DELETE FROM sync_declined WHERE path = ?').run(path);
  }
}

function toFile(row: Row): DeclinedFile {
  return {
    path: row.path,
    folderId: row.folder_id,
    size: row.size,
    mtimeMs: row.mtime_ms,
    fingerprint: row.fingerprint,
  };
}
