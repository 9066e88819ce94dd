import { FolderOptionsSchema, WatchedFolderSchema, type FolderOptions } from '../../src-shared/model/folder-options.js';
import type { WatchedFolder } from '../../src-shared/model/folder-options.js';
import type { Db } from './database.js';

interface Row {
  id: number;
  account_id: string;
  path: string;
  options: string;
  created_at: number;
}

/** The watched folders and their options. */
export class FolderStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  add(accountId: string, path: string, options: FolderOptions): WatchedFolder {
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO watched_folders (account_id, path, options, created_at) VALUES (?, ?, ?, ?)')
      .run(accountId, path, JSON.stringify(options), this.now());
    return this.get(Number(lastInsertRowid))!;
  }

  update(id: number, options: FolderOptions): void {
    this.db.prepare('UPDATE watched_folders SET options = ? WHERE id = ?').run(JSON.stringify(options), id);
  }

  get(id: number): WatchedFolder | undefined {
    const row = this.db.prepare('SELECT * FROM watched_folders WHERE id = ?').get(id) as Row | undefined;
    return row && toFolder(row);
  }

  findByPath(path: string): WatchedFolder | undefined {
    const row = this.db.prepare('SELECT * FROM watched_folders WHERE path = ?').get(path) as Row | undefined;
    return row && toFolder(row);
  }

  list(): WatchedFolder[] {
    return (this.db.prepare('SELECT * FROM watched_folders ORDER BY id').all() as Row[]).map(toFolder);
  }

  /** The folders paused by the person (folders:pause): their files wait in the queue. */
  pausedIds(): number[] {
    return (this.db.prepare('SELECT id FROM watched_folders WHERE paused = 1 ORDER BY id').all() as Row[]).map(
      (row) => row.id,
    );
  }

  isPaused(id: number): boolean {
    return this.db.prepare('SELECT 1 FROM watched_folders WHERE id = ? AND paused = 1').get(id) !== undefined;
  }

  setPaused(id: number, paused: boolean): void {
    this.db.prepare('UPDATE watched_folders SET paused = ? WHERE id = ?').run(Number(paused), id);
  }

  /** Forgets the folder, what was uploaded from it and what was declined; the files on the service stay. */
  remove(id: number): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM folder_files WHERE folder_id = ?').run(id);
      this.db.prepare('DELETE FROM sync_index WHERE folder_id = ?').run(id);
      this.db.prepare('DELETE FROM sync_declined WHERE folder_id = ?').run(id);
      this.db.prepare('DELETE FROM watched_folders WHERE id = ?').run(id);
    })();
  }
}

function toFolder(row: Row): WatchedFolder {
  return WatchedFolderSchema.parse({
    id: row.id,
    accountId: row.account_id,
    path: row.path,
    options: FolderOptionsSchema.parse(JSON.parse(row.options)),
    createdAt: row.created_at,
  });
}
