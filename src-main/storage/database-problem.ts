import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Why the app's database cannot be used, said so a person knows which file
 * and what to do, never as SQLite's stack:
 * - `damaged`: the file is not a database, or parts of it cannot be read
 *   (SQLITE_NOTADB, SQLITE_CORRUPT, a failed quick check). Only the person
 *   decides to set it aside and start a fresh one (`media-sync repair`, the
 *   button of `serve`'s page or the desktop app's dialog: database-repair.ts);
 * - `readOnly`: the file or its folder cannot be written (its permissions, a
 *   file another user made, a read-only disk). Starting afresh would not help.
 */
export class DatabaseProblem extends Error {
  /** what is wrong, with the file's path */
  readonly summary: string;
  /** what the person can do about it, in any shell */
  readonly advice: string;

  constructor(
    readonly kind: 'damaged' | 'readOnly',
    /** the database file */
    readonly path: string,
    /** what SQLite or the file system said, in a few words */
    readonly detail: string,
  ) {
    const summary =
      kind === 'damaged'
        ? `The database ${path} is damaged (${detail}).`
        : `Media Sync cannot write to its database ${path} (${detail}).`;
    const advice =
      kind === 'damaged'
        ? 'Media Sync can keep a copy of it aside and start with a fresh database, keeping your settings and tokens ' +
          'and what can still be read of your accounts, watched folders and queue.'
        : `Make sure the file and its folder ${dirname(path)} belong to your user and that you may write to them, ` +
          'then start Media Sync again.';
    super(`${summary} ${advice}`);
    this.name = 'DatabaseProblem';
    this.summary = summary;
    this.advice = advice;
  }
}

const DAMAGED = /^SQLITE_(CORRUPT|NOTADB)/;
const READ_ONLY = /^SQLITE_(READONLY|CANTOPEN|PERM)/;

/**
 * The problem `error` (thrown while opening or using the database at `path`)
 * means, or null for any other error. Only SQLite's own codes count: an
 * EACCES of the file system may be any file's (checkWritable names the
 * database's itself).
 */
export function databaseProblem(error: unknown, path: string): DatabaseProblem | null {
  if (error instanceof DatabaseProblem) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  const detail = error instanceof Error ? error.message : code;
  if (DAMAGED.test(code)) return new DatabaseProblem('damaged', path, detail);
  if (READ_ONLY.test(code)) return new DatabaseProblem('readOnly', path, detail);
  return null;
}

/**
 * A database SQLite would open read-only without a word (a file this user may
 * not write) fails at its first write, deep in whatever wrote first: asked
 * before it is opened, the file (when it exists) and its folder (for the
 * write-ahead log beside it) must be writable.
 */
export function checkWritable(path: string): void {
  for (const target of [path, dirname(path)]) {
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      const reason = code === 'EROFS' ? 'the disk is read-only' : 'permission denied';
      throw new DatabaseProblem('readOnly', path, target === path ? reason : `${reason} in its folder`);
    }
  }
}
