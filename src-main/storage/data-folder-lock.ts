import Database from 'better-sqlite3';
import { lstatSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import {
  describeMadePrivate,
  makeFolderPrivate,
  PRIVATE_UMASK,
  type MadePrivate,
} from '../../src-server/private-files.js';

export const OwnerSchema = z.object({
  pid: z.int().positive(),
  /** which Media Sync holds the folder: the desktop app, `media-sync serve`, or a CLI command */
  kind: z.enum(['desktop', 'daemon', 'cli']),
  /** the daemon's address without its session key, for the message to whoever is refused */
  url: z.string().nullable(),
  since: z.string(),
});
export type Owner = z.infer<typeof OwnerSchema>;

export interface DataFolderLock {
  /** says more about the owner in owner.json (the daemon's address, once it listens) */
  describe(details: Pick<Owner, 'url'>): void;
  release(): void;
}

export type LockAttempt =
  | {
      ok: true;
      lock: DataFolderLock;
      /** what was made private in the folder at this start: each file's modes before and after */
      madePrivate: MadePrivate;
      /** for the log: the same in words, and a lock file made anew */
      tightened: string[];
    }
  | { ok: false; owner: Owner | null };

/**
 * One process at a time owns a data folder and runs its queue: two runners
 * over one SQLite queue would pick the same item. The lock is SQLite's own
 * exclusive lock on `owner.lock`, a database opened for nothing else and held
 * in an open EXCLUSIVE transaction for the life of the owner. SQLite takes it
 * with POSIX fcntl locks (LockFileEx on Windows), which the kernel drops when
 * the process ends however it ends: a kill -9 or a crash never leaves a stale
 * lock, and no pid is ever checked to decide ownership (a pid can be reused
 * after a reboot). `owner.json` beside it says who holds the lock, for the
 * message only.
 *
 * Each attempt first makes the folder private (SECURITY.md, The data
 * folder): the process's umask becomes 077 and what the folder holds loses
 * every permission of other users, so no other user can open the lock file
 * and hold a lock on it that keeps Media Sync from starting. One who opened
 * it before is the one case where owner.json decides: a lock file that was
 * open to others, locked while owner.json names no process that runs, is
 * made anew.
 */
export function tryLockDataFolder(
  dataDir: string,
  owner: Omit<Owner, 'since' | 'pid'>,
  nativeBinding?: string,
): LockAttempt {
  const lockPath = join(dataDir, 'owner.lock');
  const tightened: string[] = [];
  // a lock file others could open may be locked by any of them: its lock proves nothing (see below)
  const openToOthers = isOpenToOthers(lockPath);
  // the folder is this user's alone (tokens, the queue, the session key), as found and for all the process makes
  if (process.platform !== 'win32') process.umask(PRIVATE_UMASK);
  const madePrivate = makeFolderPrivate(dataDir);
  const made = describeMadePrivate(dataDir, madePrivate);
  if (made) tightened.push(made);
  let db = lockDatabase(lockPath, nativeBinding);
  if (!db && openToOthers && !isRunning(readOwner(dataDir))) {
    // A local user who opened the file while it was 0644 may hold a read lock on it to keep every Media Sync
    // from starting. Media Sync writes owner.json once it holds the lock, and none that runs wrote one: the
    // holder is not a Media Sync of this user, and a new file (0600 now) leaves its lock on the old one.
    rmSync(lockPath, { force: true });
    db = lockDatabase(lockPath, nativeBinding);
    tightened.push(`Made ${lockPath} anew: another user held a lock on it that kept Media Sync from starting.`);
  }
  if (!db) return { ok: false, owner: readOwner(dataDir) };
  const infoPath = join(dataDir, 'owner.json');
  let info: Owner = { ...owner, pid: process.pid, since: new Date().toISOString() };
  const write = () => writeFileSync(infoPath, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  write();
  let held = true;
  return {
    ok: true,
    madePrivate,
    tightened,
    lock: {
      describe(details) {
        info = { ...info, ...details };
        if (held) write();
      },
      release() {
        if (!held) return;
        held = false;
        rmSync(infoPath, { force: true });
        db.close();
      },
    },
  };
}

/** The lock database in an open EXCLUSIVE transaction, or null when another process holds a lock on the file. */
function lockDatabase(path: string, nativeBinding: string | undefined): Database.Database | null {
  const db = new Database(path, nativeBinding ? { nativeBinding } : {});
  try {
    // no waiting: a held lock is an answer, not a reason to block the start
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    return null;
  }
}

/** Whether another user could open the file: it is readable or writable by others, in a folder they may enter. */
function isOpenToOthers(path: string): boolean {
  try {
    return (
      process.platform !== 'win32' &&
      (lstatSync(path).mode & 0o066) !== 0 &&
      (lstatSync(dirname(path)).mode & 0o011) !== 0
    );
  } catch {
    return false;
  }
}

/** Whether the owner named in owner.json still runs (signal 0 only asks; EPERM: it runs, as another user). */
function isRunning(owner: Owner | null): boolean {
  if (!owner) return false;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Who holds the folder, as it wrote down; null when it did not (yet) or the file is unreadable. */
export function readOwner(dataDir: string): Owner | null {
  try {
    return OwnerSchema.parse(JSON.parse(readFileSync(join(dataDir, 'owner.json'), 'utf8')));
  } catch {
    return null;
  }
}

/** The sentence for a process that found the folder taken. */
export function describeOwner(owner: Owner | null, dataDir: string): string {
  if (!owner) return `Another Media Sync is using the data folder ${dataDir}.`;
  switch (owner.kind) {
    case 'desktop':
      return `The Media Sync app (pid ${owner.pid}) is using the data folder ${dataDir}.`;
    case 'daemon':
      return owner.url
        ? `media-sync serve (pid ${owner.pid}, ${owner.url}) is using the data folder ${dataDir}.`
        : `media-sync serve (pid ${owner.pid}) is using the data folder ${dataDir}.`;
    case 'cli':
      return `Another media-sync command (pid ${owner.pid}) is using the data folder ${dataDir}.`;
  }
}
