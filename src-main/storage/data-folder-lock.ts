import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

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

export type LockAttempt = { ok: true; lock: DataFolderLock } | { ok: false; owner: Owner | null };

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
 */
export function tryLockDataFolder(
  dataDir: string,
  owner: Omit<Owner, 'since' | 'pid'>,
  nativeBinding?: string,
): LockAttempt {
  // the folder is this user's alone: tokens and the queue live there
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(join(dataDir, 'owner.lock'), nativeBinding ? { nativeBinding } : {});
  try {
    // no waiting: a held lock is an answer, not a reason to block the start
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    return { ok: false, owner: readOwner(dataDir) };
  }
  const infoPath = join(dataDir, 'owner.json');
  let info: Owner = { ...owner, pid: process.pid, since: new Date().toISOString() };
  const write = () => writeFileSync(infoPath, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  write();
  let held = true;
  return {
    ok: true,
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
