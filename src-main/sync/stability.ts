import type { Clock } from '../common/clock.js';
import { Emitter, type Disposable } from '../common/disposable.js';
import { eachAtOnce } from '../common/each-at-once.js';
import { fileCalls } from '../common/file-calls.js';
import { NotRegularFileError, openRegularFile } from '../common/open-regular.js';

/** The settle window when a folder sets none: long enough to outlast a copy's pauses, short enough to feel prompt. */
export const DEFAULT_SETTLE_MS = 3_000;
/** Sweeps walk every pending entry: at most one per 50 ms, however many files arrive. */
const MIN_SWEEP_GAP_MS = 50;

const GIB = 1024 ** 3;
const MAX_SIZE_BONUS_WINDOW_MS = 15_000;
const MAX_LOCKED_RETRY_MS = 60_000;

/**
 * How long a file of `size` bytes must stay unchanged before it counts as complete:
 * `baseMs` plus one second per GiB, at most 15 s (or `baseMs` when that is longer).
 * Big files come from slow sources (cameras on USB, network shares) whose writes
 * pause for longer between bursts, so a 40 GB recording gets more patience than a photo.
 */
export function settleWindowFor(size: number, baseMs: number): number {
  const bonus = Math.round((Math.max(0, size) / GIB) * 1000);
  return Math.max(baseMs, Math.min(baseMs + bonus, MAX_SIZE_BONUS_WINDOW_MS));
}

/** What a stat tells the tracker: a regular file's size and mtime, nothing there, or something else (a folder, a link, a FIFO). */
export type ProbeStat = { kind: 'file'; size: number; mtimeMs: number } | { kind: 'missing' } | { kind: 'other' };

/**
 * Whether a file can be opened for reading right now; `locked` is Windows'
 * answer while a writer holds it; `other`: no longer a regular file.
 */
export type ProbeOpen = 'ok' | 'missing' | 'locked' | 'other';

/** The file-system edge of the tracker, so unit tests can script sizes, deletions and locks. */
export interface FileProbe {
  /** Throws only for unexpected errors (EACCES on the parent, EIO); a vanished path is `missing`. */
  stat(absPath: string): Promise<ProbeStat>;
  open(absPath: string): Promise<ProbeOpen>;
}

const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR']);

/**
 * The real file system: `fs.lstat`, then an open for reading (and close) as
 * the readability check. Links are not followed (lstat, and O_NOFOLLOW), and
 * the open never blocks on a FIFO or a device that took a file's place
 * (openRegularFile): such a path is `other`, and dropped.
 */
export const nodeFileProbe: FileProbe = {
  async stat(absPath) {
    try {
      const stats = await fileCalls.lstat(absPath);
      return stats.isFile() ? { kind: 'file', size: stats.size, mtimeMs: stats.mtimeMs } : { kind: 'other' };
    } catch (error) {
      if (MISSING_CODES.has((error as NodeJS.ErrnoException).code ?? '')) return { kind: 'missing' };
      throw error;
    }
  },
  async open(absPath) {
    try {
      const { fd, calls } = await openRegularFile(absPath, { followLink: false });
      await calls.close(fd);
      return 'ok';
    } catch (error) {
      if (error instanceof NotRegularFileError) return 'other';
      // Windows reports a file another process is writing as EBUSY (sharing
      // violation) or EPERM; either way it is worth asking again later.
      return MISSING_CODES.has((error as NodeJS.ErrnoException).code ?? '') ? 'missing' : 'locked';
    }
  },
};

/** A file that has stopped changing and can be read. */
export interface SettledFile {
  absPath: string;
  relPath: string;
  size: number;
  mtimeMs: number;
  /** `scan` when a folder walk asked for it (report even if unchanged), `change` when only change events did. */
  reason: TrackReason;
}

/** Why a path is being watched: a walk saw it, or the file system said it changed. */
export type TrackReason = 'scan' | 'change';

export interface SettleTrackerOptions {
  clock: Clock;
  /** Base settle window; see `settleWindowFor`. */
  settleMs?: number;
  probe?: FileProbe;
  /** Most stat/open calls in flight at once, so 2,000 new files do not take 2,000 descriptors. */
  concurrency?: number;
}

interface Entry {
  readonly relPath: string;
  readonly absPath: string;
  reason: TrackReason;
  /** -1 until the first stat. */
  size: number;
  mtimeMs: number;
  /** Monotonic time since which neither a stat nor an event has seen a change. */
  quietSince: number;
  nextCheckAt: number;
  lockedChecks: number;
}

/**
 * Decides when files that are being written have finished: a file settles when
 * two stats a settle window apart agree on size and mtime, no change event came
 * in between, and it opens for reading. On Linux and macOS a writer does not
 * lock the file, so size and mtime are the real signal; on Windows the open
 * check catches a copy that paused longer than the window.
 *
 * One sweep timer (on the injected clock) serves every pending file instead of
 * a timer per file, and it only runs while something is pending, so an idle
 * folder costs nothing and 100,000 pending files cost one Map entry each. It
 * sleeps until the earliest entry is due (a new or changed file wakes it), so
 * a file is reported close to the end of its window rather than up to a
 * sweep period after; sweeps are at least `minGapMs` apart, so a scan that
 * adds thousands of files does not walk the Map thousands of times.
 *
 *     track() ──► [no baseline] ──stat──► [quiet since t] ──stat equal, t+window passed──► open ok ──► onDidSettle
 *                                           ▲    │ stat differs / change event: t = now, stat again next sweep
 *                                           └────┘ open locked: ask again later (backoff)
 *     stat or open says missing ──► onDidVanish;  not a regular file ──► dropped
 */
export class SettleTracker implements Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly clock: Clock;
  private readonly settleMs: number;
  private readonly probe: FileProbe;
  private readonly concurrency: number;
  private readonly sweepEveryMs: number;
  private readonly minGapMs: number;
  private readonly abort = new AbortController();
  private running = false;
  /** the earliest `nextCheckAt` of any entry, as of the last sweep or track */
  private nextDue = 0;
  /** ends the current sleep early; null while not sleeping */
  private wake: { at: number; controller: AbortController } | null = null;

  private readonly settled = new Emitter<SettledFile>();
  private readonly vanished = new Emitter<string>();
  private readonly errors = new Emitter<Error>();

  /** A file finished changing; it is no longer tracked. */
  readonly onDidSettle = this.settled.event;
  /** A tracked path turned out not to exist (deleted or renamed away); it is no longer tracked. */
  readonly onDidVanish = this.vanished.event;
  /** A stat failed for a reason other than the file being gone; that path is dropped until seen again. */
  readonly onDidError = this.errors.event;

  constructor(options: SettleTrackerOptions) {
    this.clock = options.clock;
    this.settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
    this.probe = options.probe ?? nodeFileProbe;
    this.concurrency = Math.max(1, options.concurrency ?? 32);
    // The longest sleep, should no entry be due sooner (none is, only while every
    // file waits on a locked open); and the shortest time between two sweeps.
    this.sweepEveryMs = Math.min(1_000, Math.max(25, Math.round(this.settleMs / 4)));
    this.minGapMs = Math.min(this.sweepEveryMs, MIN_SWEEP_GAP_MS);
  }

  /** How many paths are waiting to settle. */
  get pendingCount(): number {
    return this.entries.size;
  }

  /** Whether a path is waiting to settle. */
  isTracking(relPath: string): boolean {
    return this.entries.has(relPath);
  }

  /**
   * Starts watching a path, or notes that it changed again. A `change` on a
   * path already pending restarts its quiet period; a `scan` of a pending path
   * only upgrades its reason, since seeing a file is not evidence it changed.
   */
  track(relPath: string, absPath: string, reason: TrackReason): void {
    if (this.abort.signal.aborted) return;
    const now = this.clock.monotonic();
    const entry = this.entries.get(relPath);
    if (entry === undefined) {
      this.entries.set(relPath, {
        relPath,
        absPath,
        reason,
        size: -1,
        mtimeMs: -1,
        quietSince: now,
        nextCheckAt: now,
        lockedChecks: 0,
      });
      this.dueAt(now);
      this.ensureRunning();
      return;
    }
    if (reason === 'scan') {
      entry.reason = 'scan';
    } else {
      // Stat it at the next sweep: the write behind the event most likely
      // moved size or mtime, and the sooner the new values are the baseline,
      // the sooner the file can settle after its last write.
      entry.quietSince = now;
      entry.nextCheckAt = now;
      this.dueAt(now);
    }
  }

  /** Something is due at `at`: wake the sweep loop if it would sleep past that. */
  private dueAt(at: number): void {
    this.nextDue = Math.min(this.nextDue, at);
    if (this.wake && this.wake.at > at + this.minGapMs) this.wake.controller.abort();
  }

  /** Stops tracking a path (the folder was removed, the caller no longer cares). */
  forget(relPath: string): void {
    this.entries.delete(relPath);
  }

  dispose(): void {
    this.abort.abort(new Error('settle tracker disposed'));
    this.entries.clear();
    this.settled.dispose();
    this.vanished.dispose();
    this.errors.dispose();
  }

  private ensureRunning(): void {
    if (this.running) return;
    this.running = true;
    void this.run();
  }

  private async run(): Promise<void> {
    try {
      while (this.entries.size > 0 && !this.abort.signal.aborted) {
        const untilDue = this.nextDue - this.clock.monotonic();
        await this.sleep(Math.max(this.minGapMs, Math.min(this.sweepEveryMs, untilDue)));
        await this.sweep();
      }
    } catch (error) {
      // Only the abort of dispose() rejects the sleep; sweep() catches per file.
      if (!this.abort.signal.aborted) this.errors.fire(error as Error);
    } finally {
      this.running = false;
    }
  }

  /** Sleeps `ms`, or less when `dueAt` wakes it; rejects only on dispose. */
  private async sleep(ms: number): Promise<void> {
    const controller = new AbortController();
    this.wake = { at: this.clock.monotonic() + ms, controller };
    try {
      await this.clock.sleep(ms, AbortSignal.any([this.abort.signal, controller.signal]));
    } catch (error) {
      if (this.abort.signal.aborted) throw error;
    } finally {
      this.wake = null;
    }
  }

  /** Checks every due entry with at most `concurrency` checks in flight. */
  private async sweep(): Promise<void> {
    const now = this.clock.monotonic();
    await eachAtOnce(this.entries.values(), this.concurrency, async (entry) => {
      if (this.abort.signal.aborted || entry.nextCheckAt > now) return;
      try {
        await this.check(entry);
      } catch (error) {
        // A throwing probe or listener must not stop the sweep for every other file.
        this.entries.delete(entry.relPath);
        this.errors.fire(error as Error);
      }
    });
    let nextDue = Infinity;
    for (const entry of this.entries.values()) nextDue = Math.min(nextDue, entry.nextCheckAt);
    this.nextDue = nextDue;
  }

  /**
   * One look at one file. Invariants:
   * - an entry is reported at most once, and only if it is still the tracked entry after every await;
   * - a change event during the check (quietSince moved) defers the verdict to a later sweep;
   * - the stat that precedes a report is the one whose size and mtime are reported.
   */
  private async check(entry: Entry): Promise<void> {
    const quietSinceBefore = entry.quietSince;
    let observed: ProbeStat;
    try {
      observed = await this.probe.stat(entry.absPath);
    } catch (error) {
      if (!this.isCurrent(entry)) return;
      this.entries.delete(entry.relPath);
      this.errors.fire(error as Error);
      return;
    }
    if (!this.isCurrent(entry)) return;
    const now = this.clock.monotonic();
    if (observed.kind === 'missing' || observed.kind === 'other') return this.drop(entry, observed.kind);

    if (observed.size !== entry.size || observed.mtimeMs !== entry.mtimeMs) {
      const isBaseline = entry.size < 0;
      entry.size = observed.size;
      entry.mtimeMs = observed.mtimeMs;
      entry.quietSince = now;
      // A first look at a file the walk found gives no reason to hurry; a file
      // that just appeared (an event) is most likely still being written, and
      // its writes may raise no further event, so, like a file seen moving, it
      // is looked at every sweep: the quiet period starts close to its last
      // write instead of a whole window after its first look (network shares
      // deliver no change events, only stats notice).
      const lazy = isBaseline && entry.reason === 'scan';
      entry.nextCheckAt = lazy ? now + settleWindowFor(observed.size, this.settleMs) : now;
      return;
    }
    const window = settleWindowFor(entry.size, this.settleMs);
    if (now - entry.quietSince < window) {
      entry.nextCheckAt = entry.quietSince + window;
      return;
    }

    const readable = await this.probe.open(entry.absPath);
    if (!this.isCurrent(entry)) return;
    if (entry.quietSince !== quietSinceBefore) {
      entry.nextCheckAt = entry.quietSince + window;
      return;
    }
    if (readable === 'missing' || readable === 'other') return this.drop(entry, readable);
    if (readable === 'locked') {
      entry.lockedChecks += 1;
      entry.nextCheckAt = now + Math.min(window * 2 ** (entry.lockedChecks - 1), MAX_LOCKED_RETRY_MS);
      return;
    }
    this.entries.delete(entry.relPath);
    this.settled.fire({
      absPath: entry.absPath,
      relPath: entry.relPath,
      size: entry.size,
      mtimeMs: entry.mtimeMs,
      reason: entry.reason,
    });
  }

  private isCurrent(entry: Entry): boolean {
    return !this.abort.signal.aborted && this.entries.get(entry.relPath) === entry;
  }

  /** Stops tracking a file that is gone (`missing`: said so) or no longer a file (`other`). */
  private drop(entry: Entry, why: 'missing' | 'other'): void {
    this.entries.delete(entry.relPath);
    if (why === 'missing') this.vanished.fire(entry.relPath);
  }
}
