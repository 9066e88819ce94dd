import { statfs } from 'node:fs/promises';
import { statfsSync } from 'node:fs';
import type { Clock } from '../common/clock.js';
import { Emitter, type Disposable } from '../common/disposable.js';
import type { Log } from '../common/file-log.js';

/** Since when the app's own disk has been full (epoch ms). */
export interface DataDiskFull {
  since: number;
}

export interface DataDiskOptions {
  /** the data folder: the database, and the folder looked at first */
  dataDir: string;
  clock: Clock;
  /** how often the free space is looked at while the disk is full (5 s) */
  probeMs?: number;
  /** free bytes at which there is room again (8 MiB): a few pages more would only fill it again at once */
  minFreeBytes?: number;
  /** the bytes free for this process on the file system of a folder (statfs) */
  freeBytes?: (folder: string) => Promise<number>;
  /** the same, at once: whether an I/O error of SQLite was for lack of room (it does not say) */
  freeBytesSync?: (folder: string) => number;
  log?: Log;
}

/** What SQLite and the system call a write that found no room. */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/**
 * Whether `error` says a write found no room: SQLite's SQLITE_FULL, a
 * system ENOSPC (or EDQUOT: a quota is a full disk to the person), or an
 * SQLITE_IOERR while `roomLeft()` finds the disk short of `minFreeBytes`
 * (SQLite reports a failed write or fsync as an I/O error without its errno).
 */
export function isOutOfSpace(error: unknown, roomLeft: () => number, minFreeBytes: number): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (FULL_CODES.has(code)) return true;
  if (!code.startsWith('SQLITE_IOERR')) return false;
  try {
    return roomLeft() < minFreeBytes;
  } catch {
    return false;
  }
}

/**
 * The disk of the app's own files (docs/uploads.md, A full disk): whether
 * the database or the log could not be written for lack of room, and when
 * there is room again. A write that fails for a full disk is `report`ed by
 * whoever tried it (the folders' sync, the queue's workers, the log); from
 * then on the free space of each folder whose write failed is looked at
 * every `probeMs` (`fs.statfs`, no write), and at once when `check` is
 * called (a new file to take in). Once each has `minFreeBytes` free the
 * disk has room again, and `onDidChange` says so: what waited is taken up.
 */
export class DataDisk implements Disposable {
  private episode: { since: number; folders: Set<string> } | null = null;
  private checking: Promise<void> | null = null;
  private probing: AbortController | null = null;
  private readonly probeMs: number;
  private readonly minFreeBytes: number;
  private readonly freeBytes: (folder: string) => Promise<number>;
  private readonly freeBytesSync: (folder: string) => number;
  private readonly emitter = new Emitter<DataDiskFull | null>();
  /** the disk became full (since when), or has room again (null) */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly options: DataDiskOptions) {
    this.probeMs = options.probeMs ?? 5_000;
    this.minFreeBytes = options.minFreeBytes ?? 8 * 1024 * 1024;
    this.freeBytes = options.freeBytes ?? statfsFreeBytes;
    this.freeBytesSync = options.freeBytesSync ?? statfsFreeBytesSync;
  }

  /** Since when the disk is full; null while there is room. */
  get full(): DataDiskFull | null {
    return this.episode && { since: this.episode.since };
  }

  /**
   * A write in `folder` (the data folder unless said) failed with `error`:
   * true when it was for lack of room, and the disk is full from now on
   * (the caller keeps what it could not write, and takes it up again once
   * `onDidChange` says there is room); false for any other failure.
   */
  report(error: unknown, folder: string = this.options.dataDir): boolean {
    if (!isOutOfSpace(error, () => this.freeBytesSync(folder), this.minFreeBytes)) return false;
    if (this.episode) {
      this.episode.folders.add(folder);
      return true;
    }
    this.episode = { since: this.options.clock.wall(), folders: new Set([this.options.dataDir, folder]) };
    this.options.log?.warn(
      `Media Sync's disk is full (${(error as Error).message}): uploads wait, and new files are taken in once ${[...this.episode.folders].join(' and ')} has room again.`,
    );
    this.emitter.fire(this.full);
    this.probeUntilRoom();
    return true;
  }

  /** Looks at the free space now, while the disk is full (one look at a time). */
  check(): Promise<void> {
    if (!this.episode) return Promise.resolve();
    this.checking ??= this.look().finally(() => (this.checking = null));
    return this.checking;
  }

  dispose(): void {
    this.probing?.abort();
    this.probing = null;
    this.emitter.dispose();
  }

  private probeUntilRoom(): void {
    const cancel = new AbortController();
    this.probing = cancel;
    const loop = async () => {
      while (this.episode && !cancel.signal.aborted) {
        await this.options.clock.sleep(this.probeMs, cancel.signal);
        await this.check();
      }
    };
    loop().catch(() => undefined);
  }

  private async look(): Promise<void> {
    const episode = this.episode;
    if (!episode) return;
    const free = await Promise.all([...episode.folders].map((folder) => this.freeBytes(folder).catch(() => 0)));
    if (this.episode !== episode || free.some((bytes) => bytes < this.minFreeBytes)) return;
    this.episode = null;
    this.probing?.abort();
    this.probing = null;
    this.options.log?.info("Media Sync's disk has room again: uploads go on.");
    this.emitter.fire(null);
  }
}

async function statfsFreeBytes(folder: string): Promise<number> {
  const stats = await statfs(folder);
  return stats.bavail * stats.bsize;
}

function statfsFreeBytesSync(folder: string): number {
  const stats = statfsSync(folder);
  return stats.bavail * stats.bsize;
}
