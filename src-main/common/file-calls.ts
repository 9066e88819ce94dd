import {
  close,
  closeSync,
  constants,
  fstat,
  fstatSync,
  lstat,
  lstatSync,
  open,
  openSync,
  read,
  readSync,
  stat,
} from 'node:fs';
import type { Stats } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { detectFileSystemWithoutEvents, type FileSystemProbe } from './file-system-kind.js';

/**
 * The file-system calls each new file costs (its settling, its fingerprint, a
 * small file's body, the checks around its request), by descriptor.
 */
export interface FileCalls {
  open(path: string, flags: number): Promise<number>;
  fstat(fd: number): Promise<Stats>;
  /** answers the bytes read */
  read(fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<number>;
  close(fd: number): Promise<void>;
  lstat(path: string): Promise<Stats>;
}

/** An open file's descriptor, and the calls that go on with it. */
export interface OpenedFile {
  fd: number;
  calls: FileCalls;
}

/** Windows has no such flag (and every call there goes through the pool): 0. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

const readInPool = promisify(read);
const statInPool = promisify(stat);

/** In libuv's thread pool: what a call on a share, or anywhere but Linux, goes through. */
const inPool: FileCalls = {
  open: promisify(open),
  fstat: promisify(fstat),
  read: async (fd, buffer, offset, length, position) =>
    (await readInPool(fd, buffer, offset, length, position)).bytesRead,
  close: promisify(close),
  lstat: promisify(lstat),
};

/**
 * A folder's calls leave the event loop for the pool after two calls in a
 * row slower than this (a card or stick that reads slowly), or one slower
 * than STALL_MS (a disk spinning up, one failing). Not after one slow call:
 * on a busy machine, or a virtual one whose host runs others, a 60 µs read
 * now and then waits 10 ms and more for its core, and a folder sent to the
 * pool for that (for good) cost every later upload from it a fifth more CPU
 * per byte (the upload-throughput bench caught its rounds doing so).
 */
const SLOW_CALL_MS = 10;
const STALL_MS = 100;
/** Folders remembered; past this the memory starts over (each folder's first call goes through the pool again). */
const MAX_FOLDERS = 1_000;

/**
 * Where a folder's calls run: each call through the thread pool costs ~30 µs
 * of CPU in hand-offs between threads (measured: an 8 KB file opened, looked
 * at, read and closed in 131 µs of CPU that way, in 5 on the event loop),
 * more than the call itself on a local disk, where it answers from the
 * kernel's cache in microseconds. So on a local file system of Linux they run
 * on the event loop, as a small file's reads already did; on a share, FUSE
 * or 9p (file-system-kind.ts), a folder not known yet (its first call, while
 * `statfs` is asked in the pool), one whose calls proved slow, and on
 * macOS and Windows (where `statfs` does not tell a share from a disk), and
 * for a link, in the pool, so a share that hangs holds a pool thread, never
 * the app.
 */
export class FileCallsByFolder {
  private readonly folders = new Map<string, FileCalls>();

  constructor(private readonly probe: FileSystemProbe = detectFileSystemWithoutEvents) {}

  /**
   * Opens `path`, and answers the calls for its descriptor: its folder's,
   * or for a symbolic link (its target may be on a share, whatever its
   * folder is on) the pool's. The open itself tells a link, with O_NOFOLLOW
   * (ELOOP), so a file that is not one costs no `lstat` first (two per new
   * file, ~2 % of a small file's CPU); a link not followed is that ELOOP.
   */
  async open(path: string, flags: number, { followLink }: { followLink: boolean }): Promise<OpenedFile> {
    const calls = this.ofFolder(path);
    try {
      return { fd: await calls.open(path, flags | NO_FOLLOW), calls };
    } catch (error) {
      if (!followLink || (error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
      return { fd: await inPool.open(path, flags), calls: inPool };
    }
  }

  /**
   * One call for what is not a link (its own stats are the file's), and its
   * target's in the pool for a link.
   */
  async stat(path: string): Promise<Stats> {
    const own = await this.lstat(path);
    return own.isSymbolicLink() ? statInPool(path) : own;
  }

  /** a link's own stats: never its target's, so by its folder */
  lstat(path: string): Promise<Stats> {
    return this.ofFolder(path).lstat(path);
  }

  private ofFolder(path: string): FileCalls {
    if (process.platform !== 'linux') return inPool;
    const folder = dirname(path);
    const known = this.folders.get(folder);
    if (known) return known;
    if (this.folders.size >= MAX_FOLDERS) this.folders.clear();
    // asked once: until answered, this folder's calls go through the pool
    this.folders.set(folder, inPool);
    void this.probe(folder).then((fileSystem) => {
      if (fileSystem === null && this.folders.get(folder) === inPool) this.folders.set(folder, this.onLoop(folder));
    });
    return inPool;
  }

  /**
   * The folder's calls on the event loop, as long as it keeps them there:
   * two slow calls in a row, or one stall (SLOW_CALL_MS, STALL_MS), send the
   * folder's later calls to the pool, a file's opened before too.
   */
  private onLoop(folder: string): FileCalls {
    let lastWasSlow = false;
    const timed =
      <A extends unknown[], R>(call: (...args: A) => R, inPoolInstead: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        if (this.folders.get(folder) !== calls) return inPoolInstead(...args);
        const started = performance.now();
        try {
          return call(...args);
        } finally {
          const took = performance.now() - started;
          if (took > STALL_MS || (took > SLOW_CALL_MS && lastWasSlow)) this.folders.set(folder, inPool);
          lastWasSlow = took > SLOW_CALL_MS;
        }
      };
    const calls: FileCalls = {
      open: timed((path: string, flags: number) => openSync(path, flags), inPool.open),
      fstat: timed((fd: number) => fstatSync(fd), inPool.fstat),
      read: timed(
        (fd: number, buffer: Buffer, offset: number, length: number, position: number) =>
          readSync(fd, buffer, offset, length, position),
        inPool.read,
      ),
      close: timed((fd: number) => closeSync(fd), inPool.close),
      lstat: timed((path: string) => lstatSync(path), inPool.lstat),
    };
    return calls;
  }
}

/** The app's one memory of where each folder's calls run. */
export const fileCalls = new FileCallsByFolder();
