import { FolderOptionsSchema, WatchedFolderSchema, type FolderOptions } from '../../src-shared/model/folder-options.js';
import type { WatchedFolder } from '../../src-shared/model/folder-options.js';
import { statementCache, type Db, type Sql } from './database.js';

interface Row {
  id: number;
  account_id: string;
  path: string;
  options: string;
  created_at: number;
}

/** The watched folders and their options. */
export class FolderStore {
  private readonly sql: Sql;
  /** each folder read so far: asked for at every upload's start and end, and changed only through this store */
  private readonly byId = new Map<number, WatchedFolder>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.sql = statementCache(db);
  }

  add(accountId: string, path: string, options: FolderOptions): WatchedFolder {
    const { lastInsertRowid } = this.sql(
      'INSERT INTO watched_folders (account_id, path, options, created_at) VALUES (?, ?, ?, ?)',
    ).run(accountId, path, JSON.stringify(options), this.now());
    return this.get(Number(lastInsertRowid))!;
  }

  update(id: number, options: FolderOptions): void {
    this.byId.delete(id);
    this.sql('UPDATE watched_folders SET options = ? WHERE id = ?').run(JSON.stringify(options), id);
  }

  get(id: number): WatchedFolder | undefined {
    const known = this.byId.get(id);
    if (known) return known;
    const row = this.sql('SELECT * FROM watched_folders WHERE id = ?').get(id) as Row | undefined;
    const folder = row && toFolder(row);
    if (folder) this.byId.set(id, folder);
    return folder;
  }

  findByPath(path: string): WatchedFolder | undefined {
    const row = this.sql('SELECT * FROM watched_folders WHERE path = ?').get(path) as Row | undefined;
    return row && toFolder(row);
  }

  list(): WatchedFolder[] {
    return (this.sql('SELECT * FROM watched_folders ORDER BY id').all() as Row[]).map(toFolder);
  }

  /** The folder belongs to another account from now on (its own was signed out). */
  setAccount(id: number, accountId: string): void {
    this.byId.delete(id);
    this.sql('UPDATE watched_folders SET account_id = ? WHERE id = ?').run(accountId, id);
  }

  /** The folders paused by the person (folders:pause): their files wait in the queue. */
  pausedIds(): number[] {
    return (this.sql('SELECT id FROM watched_folders WHERE paused = 1 ORDER BY id').all() as Row[]).map(
      (row) => row.id,
    );
  }

  isPaused(id: number): boolean {
    return this.sql('SELECT 1 FROM watched_folders WHERE id = ? AND paused = 1').get(id) !== undefined;
  }

  setPaused(id: number, paused: boolean): void {
    this.sql('UPDATE watched_folders SET paused = ? WHERE id = ?').run(Number(paused), id);
  }

  /** The device (st_dev) the folder was on when last seen there, null before: how an unmounted drive is told. */
  device(id: number): number | null {
    const row = this.sql('SELECT device FROM watched_folders WHERE id = ?').get(id) as
      { device: number | null } | undefined;
    return row?.device ?? null;
  }

  setDevice(id: number, device: number): void {
    this.sql('UPDATE watched_folders SET device = ? WHERE id = ?').run(device, id);
  }

  /** Forgets the folder, what was uploaded from it and what was declined; the files on the service stay. */
  remove(id: number): void {
    this.byId.delete(id);
    this.db.transaction(() => {
      this.sql('DELETE FROM folder_files WHERE folder_id = ?').run(id);
      this.sql('DELETE FROM sync_index WHERE folder_id = ?').run(id);
      this.sql('DELETE FROM sync_declined WHERE folder_id = ?').run(id);
      this.sql('DELETE FROM watched_folders WHERE id = ?').run(id);
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
