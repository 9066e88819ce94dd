import type { Clock } from '../clock.js';
import { newPublicId } from '../ids.js';
import type { Db } from './database.js';

export interface FileRow {
  id: number;
  public_id: string;
  account_id: number;
  name: string;
  filename: string;
  mime: string;
  extension: string;
  size_bytes: number;
  visibility: 'public' | 'private';
  password_hash: string | null;
  allow_online_watch: number;
  description: string | null;
  folder_id: number | null;
  blocked_countries: string;
  downloads: number;
  stream_views: number;
  created_at: number;
}

export interface NewFile {
  accountId: number;
  name: string;
  filename: string;
  mime: string;
  extension: string;
  sizeBytes: number;
  visibility: 'public' | 'private';
  passwordHash?: string | null;
  allowOnlineWatch?: boolean;
  description?: string | null;
  folderId?: number | null;
  blockedCountries?: readonly string[];
}

export interface FileChanges {
  name?: string;
  description?: string | null;
  visibility?: 'public' | 'private';
  allowOnlineWatch?: boolean;
  passwordHash?: string | null;
}

/** LIKE with the user's `%` and `_` taken literally. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class FileStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Reserves a public ID; the row is inserted by `insert` once the bytes are in place. */
  newId(): string {
    return newPublicId();
  }

  insert(publicId: string, file: NewFile): FileRow {
    this.db
      .prepare(
        `INSERT INTO files (public_id, account_id, name, filename, mime, extension, size_bytes, visibility,
           password_hash, allow_online_watch, description, folder_id, blocked_countries, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        publicId,
        file.accountId,
        file.name,
        file.filename,
        file.mime,
        file.extension,
        file.sizeBytes,
        file.visibility,
        file.passwordHash ?? null,
        file.allowOnlineWatch === false ? 0 : 1,
        file.description ?? null,
        file.folderId ?? null,
        JSON.stringify([...new Set(file.blockedCountries ?? [])]),
        this.clock.now(),
      );
    return this.byPublicId(publicId)!;
  }

  byPublicId(publicId: string): FileRow | undefined {
    return this.db.prepare('SELECT * FROM files WHERE public_id = ?').get(publicId) as FileRow | undefined;
  }

  /** An owned file; another account's file is as absent as an unknown one. */
  owned(accountId: number, publicId: string): FileRow | undefined {
    return this.db.prepare('SELECT * FROM files WHERE public_id = ? AND account_id = ?').get(publicId, accountId) as
      FileRow | undefined;
  }

  byRowId(id: number): FileRow | undefined {
    return this.db.prepare('SELECT * FROM files WHERE id = ?').get(id) as FileRow | undefined;
  }

  /** Newest first; `search` matches the display name or the stored filename. */
  list(accountId: number, search: string | undefined, page: number, perPage: number) {
    const where = search
      ? "account_id = ? AND (name LIKE ? ESCAPE '\\' OR filename LIKE ? ESCAPE '\\')"
      : 'account_id = ?';
    const params = search ? [accountId, likePattern(search), likePattern(search)] : [accountId];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM files WHERE ${where}`).get(...params) as {
      total: number;
    };
    const rows = this.db
      .prepare(`SELECT * FROM files WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...params, perPage, (page - 1) * perPage) as FileRow[];
    return { rows, total };
  }

  update(id: number, changes: FileChanges): void {
    const sets: string[] = [];
    const values: unknown[] = [];
    const set = (column: string, value: unknown) => {
      sets.push(`${column} = ?`);
      values.push(value);
    };
    if (changes.name !== undefined) set('name', changes.name);
    if (changes.description !== undefined) set('description', changes.description);
    if (changes.visibility !== undefined) set('visibility', changes.visibility);
    if (changes.allowOnlineWatch !== undefined) set('allow_online_watch', changes.allowOnlineWatch ? 1 : 0);
    if (changes.passwordHash !== undefined) set('password_hash', changes.passwordHash);
    if (sets.length === 0) return;
    this.db.prepare(`UPDATE files SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
  }

  delete(id: number): void {
    this.db.prepare('DELETE FROM files WHERE id = ?').run(id);
  }

  countDownload(id: number): void {
    this.db.prepare('UPDATE files SET downloads = downloads + 1 WHERE id = ?').run(id);
  }

  countStreamView(id: number): void {
    this.db.prepare('UPDATE files SET stream_views = stream_views + 1 WHERE id = ?').run(id);
  }
}
