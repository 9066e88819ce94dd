import { spellingsOf } from '../common/path-spellings.js';
import { statementCache, type Db, type Sql } from '../storage/database.js';

export interface IndexEntry {
  folderId: number;
  relPath: string;
  size: number;
  mtimeMs: number;
  fingerprint: string | null;
  fileId: string | null;
  origin: 'uploaded' | 'baseline';
}

interface Row {
  folder_id: number;
  rel_path: string;
  size: number;
  mtime_ms: number;
  fingerprint: string | null;
  file_id: string | null;
  origin: 'uploaded' | 'baseline';
}

/**
 * What each watched folder already sent (docs/ARCHITECTURE.md, Folders): relative path, size,
 * mtime and quick fingerprint → remote file id. It is why a restart, a rescan
 * or a rename never uploads a file twice. `baseline` entries are files that
 * were in a folder added with "only new files": known, never uploaded.
 * Paths are kept as the disk spells them; `lookup` finds a name under its
 * other spellings too (docs/uploads.md, Names).
 */
export class SyncIndex {
  private readonly sql: Sql;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.sql = statementCache(db);
  }

  /**
   * The entry of this path, else of another spelling of its name
   * (path-spellings.ts: composed, decomposed): its `relPath` says which.
   */
  lookup(folderId: number, relPath: string): IndexEntry | undefined {
    const row = this.sql(
      'SELECT * FROM sync_index WHERE folder_id = ? AND rel_path IN (?, ?, ?) ORDER BY rel_path = ? DESC LIMIT 1',
    ).get(folderId, ...spellingsOf(relPath), relPath) as Row | undefined;
    return row && toEntry(row);
  }

  /** Entries with this content: the candidates for "this new path is a renamed file". */
  findByContent(folderId: number, size: number, fingerprint: string): IndexEntry[] {
    const rows = this.sql('SELECT * FROM sync_index WHERE folder_id = ? AND size = ? AND fingerprint = ?').all(
      folderId,
      size,
      fingerprint,
    ) as Row[];
    return rows.map(toEntry);
  }

  record(entry: IndexEntry): void {
    this.sql(
      `INSERT INTO sync_index (folder_id, rel_path, size, mtime_ms, fingerprint, file_id, origin, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (folder_id, rel_path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
           fingerprint = excluded.fingerprint, file_id = excluded.file_id, origin = excluded.origin,
           updated_at = excluded.updated_at`,
    ).run(
      entry.folderId,
      entry.relPath,
      entry.size,
      entry.mtimeMs,
      entry.fingerprint,
      entry.fileId,
      entry.origin,
      this.now(),
    );
  }

  /** Many baseline entries in one transaction (adding a folder of 100,000 files). */
  recordBaseline(folderId: number, files: Iterable<{ relPath: string; size: number; mtimeMs: number }>): number {
    const insert = this.sql(
      `INSERT OR IGNORE INTO sync_index (folder_id, rel_path, size, mtime_ms, fingerprint, file_id, origin, updated_at)
       VALUES (?, ?, ?, ?, NULL, NULL, 'baseline', ?)`,
    );
    let count = 0;
    this.db.transaction(() => {
      for (const file of files)
        count += insert.run(folderId, file.relPath, file.size, file.mtimeMs, this.now()).changes;
    })();
    return count;
  }

  move(folderId: number, fromRelPath: string, toRelPath: string, mtimeMs: number): void {
    this.db.transaction(() => {
      this.sql('DELETE FROM sync_index WHERE folder_id = ? AND rel_path = ?').run(folderId, toRelPath);
      this.sql(
        'UPDATE sync_index SET rel_path = ?, mtime_ms = ?, updated_at = ? WHERE folder_id = ? AND rel_path = ?',
      ).run(toRelPath, mtimeMs, this.now(), folderId, fromRelPath);
    })();
  }

  count(folderId: number): number {
    return (this.sql('SELECT COUNT(*) AS n FROM sync_index WHERE folder_id = ?').get(folderId) as { n: number }).n;
  }
}

function toEntry(row: Row): IndexEntry {
  return {
    folderId: row.folder_id,
    relPath: row.rel_path,
    size: row.size,
    mtimeMs: row.mtime_ms,
    fingerprint: row.fingerprint,
    fileId: row.file_id,
    origin: row.origin,
  };
}
