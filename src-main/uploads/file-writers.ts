import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** One open file description of a process: `/proc/<pid>/fd/<fd>`. */
export interface FileWriter {
  pid: number;
  fd: number;
}

/** Tells whether a process holds a file open for writing (a recorder between two flushes). */
export interface WriterProbe {
  /**
   * A descriptor that holds `absPath` open for writing, or null: none, or it
   * could not tell (another system, or the look ran out of its budget).
   * `last`, the writer found before, is looked at first: while a file waits,
   * a look costs two reads, not a walk of every process. `queuedAt` (wall
   * ms): when the file was queued, which was after its last write.
   */
  writerOf(absPath: string, last?: FileWriter | null, queuedAt?: number): Promise<FileWriter | null>;
}

/** Where nothing can tell: every file may start. */
export const noWriterProbe: WriterProbe = { writerOf: () => Promise.resolve(null) };

export interface ProcWriterProbeOptions {
  /** processes looked at in one walk, at most */
  maxProcesses?: number;
  /** a walk that takes longer than this gives up (it could not tell) */
  budgetMs?: number;
  /** a walk serves every start within this long (several files starting together) */
  cacheMs?: number;
}

/**
 * A walk that started after a file was queued serves its start up to this
 * long after: every process that wrote to the file opened it before its last
 * write, so before it was queued, and the walk saw it. Thousands of files
 * that settled together take one or two walks instead of one a second, each
 * a look at every descriptor of every process (the daemon's costliest step
 * per small file on a busy machine).
 */
const QUEUED_BEFORE_WALK_MS = 10_000;

const PROC = '/proc';
/** The access mode bits of `flags:` in fdinfo (O_ACCMODE): 1 O_WRONLY, 2 O_RDWR. */
const ACCESS_MODE = 0o3;
/** The event loop is let go between processes once a slice of the walk took this long. */
const SLICE_MS = 4;

/** Each absolute path some process has open, and by which descriptors. */
type OpenPaths = Map<string, FileWriter[]>;

/**
 * Linux: the writers of a file from `/proc/<pid>/fd/*` (symlinks to what is
 * open) and `/proc/<pid>/fdinfo/<fd>` (its `flags:`, octal). Only for the
 * file about to start, and bounded: one walk of every process's descriptors
 * (stopped after `maxProcesses` processes or `budgetMs`) serves every start
 * within `cacheMs`, and a file already seen held is asked about its holder
 * first. It sees the processes of the user the app runs as (all of them as
 * root): another user's writer is not seen, nor one in another mount
 * namespace (a container) whose paths differ. Elsewhere (no `/proc`) it
 * cannot tell and answers null.
 */
export class ProcWriterProbe implements WriterProbe {
  private readonly maxProcesses: number;
  private readonly budgetMs: number;
  private readonly cacheMs: number;
  /** the last walk, from when it started (monotonic, and wall ms); dropped QUEUED_BEFORE_WALK_MS later */
  private cached: { at: number; wallAt: number; walk: Promise<OpenPaths> } | null = null;
  /** the folder of the last file asked about, resolved (monotonic ms) */
  private lastFolder: { path: string; at: number; real: Promise<string | null> } | null = null;

  constructor(options: ProcWriterProbeOptions = {}) {
    this.maxProcesses = options.maxProcesses ?? 4_000;
    this.budgetMs = options.budgetMs ?? 500;
    this.cacheMs = options.cacheMs ?? 1_000;
  }

  async writerOf(absPath: string, last?: FileWriter | null, queuedAt = Infinity): Promise<FileWriter | null> {
    const target = await this.realPathOf(absPath);
    if (target === null) return null;
    if (last && this.holdsForWriting(last, target)) return last;
    const open = await this.currentWalk(queuedAt);
    return open.get(target)?.find((writer) => this.holdsForWriting(writer, target)) ?? null;
  }

  /**
   * The path as /proc names it (no link in it): its folder's resolved once
   * for the files of one folder that start together (a realpath per file was
   * most of this check's cost), the name joined to it. A name that is itself
   * a link (the watcher never queues one) is not seen held.
   */
  private async realPathOf(absPath: string): Promise<string | null> {
    const folder = dirname(absPath);
    if (this.lastFolder?.path !== folder || performance.now() - this.lastFolder.at >= this.cacheMs) {
      this.lastFolder = { path: folder, at: performance.now(), real: realpath(folder).catch(() => null) };
    }
    const real = await this.lastFolder.real;
    return real === null ? null : join(real, basename(absPath));
  }

  /** The walk started within cacheMs, or after `queuedAt` (done or under way), else a new one. */
  private currentWalk(queuedAt: number): Promise<OpenPaths> {
    const cached = this.cached;
    if (cached && (performance.now() - cached.at < this.cacheMs || cached.wallAt > queuedAt)) return cached.walk;
    const made = { at: performance.now(), wallAt: Date.now(), walk: this.walkProcesses() };
    this.cached = made;
    // what every process has open is not kept longer than it may be used
    const keepMs = Math.max(this.cacheMs, QUEUED_BEFORE_WALK_MS);
    setTimeout(() => this.cached === made && (this.cached = null), keepMs).unref();
    return made.walk;
  }

  /** Every process's open paths. Synchronous reads of /proc in slices: a few µs each, far cheaper than a promise each. */
  private async walkProcesses(): Promise<OpenPaths> {
    const started = performance.now();
    const open: OpenPaths = new Map();
    let pids: string[];
    try {
      pids = readdirSync(PROC).filter((name) => /^\d+$/.test(name));
    } catch {
      return open;
    }
    let slice = started;
    for (const pid of pids.slice(0, this.maxProcesses)) {
      if (performance.now() - started > this.budgetMs) break;
      this.readDescriptors(Number(pid), open);
      if (performance.now() - slice > SLICE_MS) {
        await nextTurn();
        slice = performance.now();
      }
    }
    return open;
  }

  /** Adds a process's descriptors that point at paths; one gone or another user's has none to read. */
  private readDescriptors(pid: number, open: OpenPaths): void {
    let fds: string[];
    try {
      fds = readdirSync(`${PROC}/${pid}/fd`);
    } catch {
      return;
    }
    for (const name of fds) {
      const fd = Number(name);
      let target: string;
      try {
        target = readlinkSync(`${PROC}/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      // sockets, pipes and anonymous inodes read as "socket:[123]" and the like
      if (!target.startsWith('/')) continue;
      const writers = open.get(target);
      if (writers) writers.push({ pid, fd });
      else open.set(target, [{ pid, fd }]);
    }
  }

  /** Whether the descriptor still points at `target` and was opened for writing. */
  private holdsForWriting(writer: FileWriter, target: string): boolean {
    const base = `${PROC}/${writer.pid}`;
    try {
      if (readlinkSync(`${base}/fd/${writer.fd}`) !== target) return false;
      const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`${base}/fdinfo/${writer.fd}`, 'utf8'));
      return flags !== null && (parseInt(flags[1]!, 8) & ACCESS_MODE) !== 0;
    } catch {
      // closed, or the process ended
      return false;
    }
  }
}
