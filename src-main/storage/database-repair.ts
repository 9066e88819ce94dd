import Database from 'better-sqlite3';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE, migrate, openDatabase, SCHEMA_VERSION, type Db } from './database.js';

/** The tables of the schema, in the words of the report. */
const TABLES: ReadonlyArray<readonly [table: string, words: string]> = [
  ['accounts', 'accounts'],
  ['watched_folders', 'watched folders'],
  ['sync_index', "files in the watched folders' index"],
  ['sync_declined', "watched folders' files you cancelled"],
  ['folder_files', "watched folders' recent files"],
  ['upload_items', 'uploads in the queue'],
  ['known_files', 'files uploaded before'],
  ['conversion_follows', 'followed conversions'],
  ['app_state', 'saved states'],
];

export interface RepairReport {
  /** where the damaged file went (its -wal and -shm beside it, named alike) */
  damagedCopy: string;
  /** each table of the damaged file: the rows the fresh database has of it, and whether all could be read */
  tables: Array<{ words: string; kept: number; complete: boolean }>;
  /** the watched folders were kept but not all of their index: they now skip files already on the service */
  foldersSkipExisting: boolean;
}

/**
 * Sets the damaged database aside and starts a fresh one with what can still
 * be read of it: only when the person asks (`media-sync repair`, the button of
 * `serve`'s page, the desktop app's dialog), with the data folder's lock held.
 *
 * - The file, its -wal and its -shm are renamed together, to
 *   `media-sync.db.damaged-<time>`: nothing is deleted, and SQLite reading the
 *   copy finds its own write-ahead log.
 * - The copy is read read-only, table by table, from the first row until a
 *   page cannot be read and then from the last row back to it, so a broken
 *   page in the middle loses only the rows on it. Rows go into a fresh
 *   database made at the copy's schema version, then migrated as any other.
 * - Settings and tokens are files of their own, untouched; an account's
 *   token still goes with its row when the row is kept.
 * - Watched folders kept without all of their index (what was sent) would
 *   send every file again: they are set to skip files already on the service.
 */
export function repairDatabase(dataDir: string, options: { nativeBinding?: string; now?: Date } = {}): RepairReport {
  const path = join(dataDir, DATABASE_FILE);
  const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const damagedCopy = `${path}.damaged-${stamp}`;
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      renameSync(`${path}${suffix}`, `${damagedCopy}${suffix}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const binding = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
  const damaged = readable(new Database(damagedCopy, { ...binding, readonly: true, fileMustExist: true }));
  const fresh = new Database(path, binding);
  const tables: RepairReport['tables'] = [];
  let foldersSkipExisting = false;
  try {
    migrate(fresh, damaged ? (damaged.pragma('user_version', { simple: true }) as number) : SCHEMA_VERSION);
    const copied = new Map<string, { kept: number; complete: boolean }>();
    for (const [table, words] of TABLES) {
      const copy = copyTable(damaged, fresh, table);
      if (!copy) continue;
      copied.set(table, copy);
      if (copy.kept > 0 || !copy.complete) tables.push({ words, ...copy });
    }
    if ((copied.get('watched_folders')?.kept ?? 0) > 0 && !copied.get('sync_index')?.complete) {
      fresh.exec(`UPDATE watched_folders SET options = json_set(options, '$.skipExisting', json('true'))`);
      foldersSkipExisting = true;
    }
  } finally {
    damaged?.close();
    fresh.close();
  }
  // the migrations after the copy's version, WAL, and the check any start makes
  openDatabase(path, options.nativeBinding).close();
  return { damagedCopy, tables, foldersSkipExisting };
}

/** The damaged copy when SQLite can read anything of it (its schema), else null (closed). */
function readable(db: Db): Db | null {
  try {
    db.pragma('user_version');
    db.prepare('SELECT name FROM sqlite_schema').all();
    return db;
  } catch {
    db.close();
    return null;
  }
}

/**
 * The rows of `table` that can be read from `damaged`, put into `fresh`
 * (their columns in both; a row the fresh schema refuses is left out).
 * Null when the fresh database has no such table at this version.
 */
function copyTable(damaged: Db | null, fresh: Db, table: string): { kept: number; complete: boolean } | null {
  const freshColumns = columnsOf(fresh, table);
  if (freshColumns.length === 0) return null;
  if (!damaged) return { kept: 0, complete: false };
  let columns: string[];
  try {
    const found = new Set(columnsOf(damaged, table));
    columns = freshColumns.filter((column) => found.has(column));
  } catch {
    return { kept: 0, complete: false };
  }
  if (columns.length === 0) return { kept: 0, complete: false };
  const list = columns.map((column) => `"${column}"`).join(', ');
  const rows: unknown[][] = [];
  let complete = true;
  const read = (sql: string) => {
    try {
      for (const row of damaged.prepare(sql).raw().iterate() as Iterable<unknown[]>) rows.push(row);
      return true;
    } catch {
      return false;
    }
  };
  if (!read(`SELECT ${list} FROM "${table}"`)) {
    complete = false;
    // past the broken page, from the other end (a table without rowid stays with what the first pass read)
    read(`SELECT ${list} FROM "${table}" ORDER BY rowid DESC`);
  }
  const insert = fresh.prepare(
    `INSERT OR IGNORE INTO "${table}" (${list}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  let kept = 0;
  fresh.transaction(() => {
    for (const row of rows) {
      try {
        kept += insert.run(row).changes;
      } catch {
        complete = false;
      }
    }
  })();
  return { kept, complete };
}

function columnsOf(db: Db, table: string): string[] {
  return (db.pragma(`table_info("${table}")`) as Array<{ name: string }>).map((column) => column.name);
}

const LIST = new Intl.ListFormat('en', { type: 'conjunction' });

/** The report in a few sentences, for the terminal, the log and the page. */
export function describeRepair(report: RepairReport): string {
  const kept = report.tables.filter((table) => table.kept > 0);
  const unread = report.tables.filter((table) => table.kept === 0);
  const parts = [`Kept the damaged database as ${report.damagedCopy} and started a fresh one.`];
  if (kept.length > 0) {
    const counts = kept.map(
      (table) => `the ${table.words} (${table.kept}${table.complete ? '' : ', what could be read'})`,
    );
    parts.push(`It has ${LIST.format(counts)}.`);
  }
  if (unread.length > 0) {
    parts.push(
      kept.length > 0
        ? `Could not read ${LIST.format(unread.map((table) => `the ${table.words}`))}.`
        : 'Nothing could be read from the damaged database: sign in and add your watched folders again.',
    );
  }
  if (report.foldersSkipExisting) {
    parts.push(
      'Not all of what the watched folders had sent could be read, so they now skip files already on the service ' +
        '(same name and size) rather than send them again; you can change that in Folders.',
    );
  }
  parts.push('Your settings and tokens were not touched.');
  return parts.join(' ');
}
