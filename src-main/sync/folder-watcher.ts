import type { Stats } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { systemClock, type Clock } from '../common/clock.js';
import { Emitter, type Disposable } from '../common/disposable.js';
import { eachAtOnce } from '../common/each-at-once.js';
import { fileCalls } from '../common/file-calls.js';
import { Repeater } from '../common/repeater.js';
import {
  absPathOf,
  listFolder,
  listStableFiles,
  PathRules,
  relPathOf,
  type PathRuleOptions,
  type StableFile,
} from './folder-walk.js';
import { FolderWatches, WATCH_BATCH_FOLDERS } from './folder-watches.js';
import { DEFAULT_SETTLE_MS, SettleTracker, type SettledFile } from './stability.js';

export type { StableFile } from './folder-walk.js';

/** What to watch and how patiently. */
export interface FolderWatcherOptions extends PathRuleOptions {
  root: string;
  /** Base settle window in ms (default 3000); large files get longer, see settleWindowFor. */
  settleMs?: number;
  /**
   * Check by polling every this many ms instead of listening to change
   * events (a network share, FUSE: see file-system-kind.ts); undefined:
   * events. Each poll lists the tree with each file's size and mtime and
   * hands the settle tracker only what differs from what was reported.
   */
  pollMs?: number;
  clock?: Clock;
}

/** Files stat'ed at once by a poll: enough to keep libuv's pool busy, far from any descriptor limit. */
const POLL_STAT_CONCURRENCY = 16;

interface KnownFile {
  size: number;
  mtimeMs: number;
  /** The last rescan that saw it; a rescan that does not is how a missed deletion shows up. */
  generation: number;
}

/**
 * Watches one folder and reports each file once it is complete, again when it
 * changes and settles again, and when a reported file goes away.
 *
 * Why chokidar watches folders only: with files included it puts an
 * `fs.watch` on every file (one open descriptor per file on macOS, one inotify
 * watch on Linux) and keeps a closure, a throttle timer and map entries per
 * file: for 100,000 files that is ~800 MB of RSS and EMFILE on a Mac. So its
 * `ignored` function lets only folders through, and files come from two
 * sources that cost nothing per file while idle:
 * - a walk of the tree (`rescan`, also run by `start`) that sees what exists;
 * - the raw events of the folder watchers, which name the child that changed.
 *
 * Why the walk hands folders to chokidar, a few at a time, instead of chokidar
 * watching the root recursively: see WATCH_BATCH_FOLDERS. Each chokidar
 * instance watches its folders at depth 0; the walk watches a folder before it
 * lists it, so a file created in between raises an event, and a new subfolder
 * (chokidar's `addDir`, from its parent's instance) is walked the same way.
 * Both feed the SettleTracker, whose single sweep timer decides when a file is
 * complete. The watcher then remembers size and mtime of what it reported (a
 * Map entry per file, ~100 bytes), which turns event noise on an unchanged
 * file (a chmod, an access-time update) into nothing and a deletion into
 * `onDidRemoveFile`.
 *
 * Symbolic links inside the folder are not followed, so a link cannot pull in
 * another tree or loop.
 *
 * With `pollMs` (a file system that gives no change events: a network share,
 * FUSE) there is no chokidar at all: every `pollMs` the tree is listed with
 * each file's size and mtime, and only what differs from what was reported
 * goes to the settle tracker (`poll`).
 */
export class FolderWatcher {
  private readonly root: string;
  private readonly clock: Clock;
  private readonly rules: PathRules;
  private readonly tracker: SettleTracker;
  private readonly known = new Map<string, KnownFile>();
  private readonly closing = new AbortController();
  /** the chokidar instances, none when polled */
  private readonly watches: FolderWatches;
  /** null: change events; else what runs the polls */
  private readonly poller: Repeater | null;

  private readonly found = new Emitter<StableFile>();
  private readonly removed = new Emitter<string>();
  private readonly errors = new Emitter<Error>();
  private readonly activity = new Emitter<void>();
  private readonly lost = new Emitter<void>();

  /** A file that is complete and stable (fires again if it changes later and settles again). */
  readonly onDidFindFile: (listener: (file: StableFile) => void) => Disposable = this.found.event;
  /** A file reported before is gone (deleted, renamed away, or moved into an ignored folder). */
  readonly onDidRemoveFile: (listener: (relPath: string) => void) => Disposable = this.removed.event;
  /** Something could not be watched or read; watching goes on for everything else. */
  readonly onDidError: (listener: (error: Error) => void) => Disposable = this.errors.event;
  /** `scan`, `settlingCount` or `lastScanAt` may have changed (often: throttle before showing) */
  readonly onDidChangeActivity: (listener: () => void) => Disposable = this.activity.event;
  /** The watched folder itself is gone (deleted, moved away, its drive unmounted): nothing more comes from it. */
  readonly onDidLoseRoot: (listener: () => void) => Disposable = this.lost.event;

  /** The root with symlinks resolved: chokidar reports paths under it. */
  private watchRoot: string;
  private starting: Promise<void> | undefined;
  private rescanning: Promise<number> | undefined;
  private generation = 0;
  private folderScans: Promise<void> = Promise.resolve();
  /** files the running scan found, until the walk ended and what it found settled; null between scans */
  private scanFound: number | null = null;
  private scanEndedAt: number | null = null;

  constructor(options: FolderWatcherOptions) {
    this.root = path.resolve(options.root);
    this.watchRoot = this.root;
    this.clock = options.clock ?? systemClock;
    this.rules = new PathRules(options);
    this.poller = options.pollMs === undefined ? null : new Repeater(options.pollMs, this.clock, this.closing.signal);
    this.tracker = new SettleTracker({ clock: this.clock, settleMs: options.settleMs ?? DEFAULT_SETTLE_MS });
    this.watches = new FolderWatches(
      (relFolder) => this.watchPathOf(relFolder),
      {
        ignored: (absPath, stats) => this.chokidarIgnores(absPath, stats),
        raw: (event, name, details) => this.onRawEvent(event, name, details),
        folderAdded: (absPath) => this.onFolderAdded(absPath),
        folderRemoved: (absPath) => this.onFolderRemoved(absPath),
        error: (error) => this.reportError(error),
      },
      this.closing.signal,
    );
    this.tracker.onDidSettle((file) => this.onSettled(file));
    this.tracker.onDidVanish((relPath) => this.forgetKnown(relPath));
    this.tracker.onDidError((error) => this.errors.fire(error));
    // after the listeners above: a file left the tracker
    for (const left of [this.tracker.onDidSettle, this.tracker.onDidVanish, this.tracker.onDidError])
      left(() => this.activityChanged());
  }

  /** The eligible files of a folder as they are now (listStableFiles). */
  static readonly list = listStableFiles;

  /** Files seen but not yet settled, plus one while a walk is running: 0 means all reported. */
  get pendingCount(): number {
    return this.tracker.pendingCount + (this.rescanning ? 1 : 0);
  }

  /** The scan under way, from a walk's start until what it found settled (not "1,000 files settling"), or null. */
  get scan(): { found: number } | null {
    return this.scanFound === null ? null : { found: this.scanFound };
  }

  /** Files being written (seen changing, not yet settled), outside a scan. */
  get settlingCount(): number {
    return this.scanFound === null ? this.tracker.pendingCount : 0;
  }

  /** When the last scan ended, its files settled (wall-clock ms); null before the first. */
  get lastScanAt(): number | null {
    return this.scanEndedAt;
  }

  /**
   * Starts watching. Resolves once the first walk has watched every folder and
   * handed every existing file to the settle tracker; those files are reported
   * as they settle, like new ones. Rejects when the root does not exist.
   * Calling it again returns the same promise.
   */
  start(): Promise<void> {
    this.starting ??= this.startWatching();
    return this.starting;
  }

  /**
   * Walks the tree and reports every eligible file again through the settle
   * path, even unchanged ones; a reported file the walk no longer finds is
   * reported removed. Returns how many files it saw. A call while a walk is
   * running joins that walk.
   */
  rescan(): Promise<number> {
    if (this.closing.signal.aborted) return Promise.resolve(0);
    this.rescanning ??= this.walkTree().finally(() => {
      this.rescanning = undefined;
      this.activityChanged();
    });
    return this.rescanning;
  }

  /**
   * Looks at one file again, as a walk would: it is reported once it has
   * settled, even at the size and mtime last reported (the after-upload
   * action found it changed after the watcher had reported it).
   */
  lookAgain(relPath: string): void {
    this.track(relPath, 'scan');
  }

  /** Stops watching; no events fire afterwards. */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort(new Error('folder watcher closed'));
    this.tracker.dispose();
    this.found.dispose();
    this.removed.dispose();
    this.errors.dispose();
    this.activity.dispose();
    this.lost.dispose();
    await this.watches.close();
  }

  private async startWatching(): Promise<void> {
    this.watchRoot = await realpath(this.root);
    if (this.closing.signal.aborted) return;
    await this.rescan();
    void this.poller?.run(() => this.poll().catch((error: unknown) => this.reportError(error)));
  }

  /** A polled folder's new interval, from now on (the wait under way ends early when it is shorter). */
  setPollInterval(everyMs: number): void {
    this.poller?.setEvery(everyMs);
  }

  /**
   * One poll: lists the tree, stats each file (no read of its content), and
   * tracks those whose size or mtime differs from what was reported (new or
   * changed); a reported file a complete listing no longer holds is gone. A
   * root that is no longer a folder is lost, as with events.
   */
  private async poll(): Promise<void> {
    if (this.rescanning) return;
    if (!(await isFolder(this.root))) {
      if (!this.closing.signal.aborted) this.lost.fire();
      return;
    }
    const listed: string[] = [];
    const complete = await this.walkFolders('', (relPath) => listed.push(relPath));
    await eachAtOnce(listed, POLL_STAT_CONCURRENCY, async (relPath) => {
      if (this.closing.signal.aborted || this.tracker.isTracking(relPath)) return;
      const stats = await lstat(this.absPathOf(relPath)).catch(() => undefined);
      const known = this.known.get(relPath);
      if (!stats?.isFile() || (known?.size === stats.size && known.mtimeMs === stats.mtimeMs)) return;
      this.track(relPath, 'change');
    });
    if (!complete || this.closing.signal.aborted) return;
    const present = new Set(listed);
    for (const relPath of [...this.known.keys()]) {
      if (!present.has(relPath)) this.forgetKnown(relPath);
    }
  }

  /** How the folder learns of changes: null for change events, else the interval of its polls. */
  get pollEveryMs(): number | null {
    return this.poller?.everyMs ?? null;
  }

  /** chokidar's view: folders that are not ignored, never files (see the class comment). */
  private chokidarIgnores(absPath: string, stats: Stats | undefined): boolean {
    if (stats !== undefined && !stats.isDirectory()) return true;
    const relPath = this.toRelPath(absPath);
    if (relPath === undefined) return false;
    return !this.rules.entersFolder(relPath);
  }

  /** A folder watcher says a child changed; `name` is that child, or missing on platforms that cannot tell. */
  private onRawEvent(event: string, name: string | null | undefined, details: unknown): void {
    const folder = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
    if (typeof folder !== 'string' || this.closing.signal.aborted) return;
    if (name == null || name === '') {
      const relFolder = this.toRelPath(folder) ?? '';
      const trackChanged = (relPath: string): void => this.track(relPath, 'change');
      this.queueFolderTask(() =>
        listFolder(this.root, relFolder, this.rules, {
          onFile: trackChanged,
          onSubfolder: () => undefined,
          onError: (error) => this.reportError(error),
          signal: this.closing.signal,
        }),
      );
      return;
    }
    // the root's own watch says a child, or the root itself, was renamed or deleted: is the root still there?
    if (event === 'rename' && folder === this.watchRoot) this.checkRoot();
    const relPath = this.toRelPath(path.resolve(folder, name));
    if (relPath === undefined) return;
    // a child created or deleted may be a folder made again under a name just deleted, which chokidar may not
    // report (no addDir), or report gone after the new one came: its watch is checked (a stat per such event)
    if (event === 'rename' && this.rules.entersFolder(relPath)) this.queueFolderTask(() => this.checkFolder(relPath));
    if (this.rules.isIgnoredFile(relPath)) return;
    // Folders get here too (their parent saw them change); the tracker's stat drops them.
    this.track(relPath, 'change');
  }

  /**
   * A folder created or moved in after start: its files (and a moved-in
   * tree's subfolders) exist without having raised events, so walk it, which
   * watches each folder before listing it. A watch still held under its name
   * belonged to a folder deleted before its removal was heard: it went with
   * that folder, so the new one is watched afresh.
   */
  private onFolderAdded(absPath: string): void {
    const relFolder = this.toRelPath(absPath);
    if (relFolder === undefined || !this.rules.entersFolder(relFolder)) return;
    // through its lstat: a link to a folder is not walked
    this.queueFolderTask(() => this.reconcileFolder(relFolder));
  }

  /**
   * A folder moved away takes its files and subfolders with it without a
   * word about each. Its removal may be heard after a folder of the same name
   * was created again (deleted and made anew at once; chokidar may then never
   * say `addDir`): then that folder is watched afresh, and only what is not
   * in it is reported gone.
   */
  private onFolderRemoved(absPath: string): void {
    const relFolder = this.toRelPath(absPath);
    if (relFolder === undefined) return;
    this.watches.unwatchTree(relFolder);
    this.queueFolderTask(() => this.reconcileFolder(relFolder));
  }

  /** A folder not watched, or watched under its name but another one now, is watched afresh. */
  private async checkFolder(relFolder: string): Promise<void> {
    // lstat: a link to a folder is not a folder of this tree (links are not followed); one per file created
    const stats = await fileCalls.lstat(this.watchPathOf(relFolder)).catch(() => undefined);
    if (!stats?.isDirectory()) return;
    if (this.watches.watches(relFolder, stats)) return;
    await this.reconcileFolder(relFolder);
  }

  /** Watches afresh what is under `relFolder` now (nothing if it is gone) and reports gone what is not there. */
  private async reconcileFolder(relFolder: string): Promise<void> {
    const there = await lstat(this.watchPathOf(relFolder)).then(
      (stats) => stats.isDirectory(),
      () => false,
    );
    const seen = there && this.rules.entersFolder(relFolder) ? await this.watchAnew(relFolder) : new Set<string>();
    for (const relPath of [...this.known.keys()]) {
      if (relPath.startsWith(`${relFolder}/`) && !seen.has(relPath)) this.forgetKnown(relPath);
    }
  }

  /** Watches `relFolder` and its subfolders with new watches, tracks the files it holds that are new, and answers all it holds. */
  private async watchAnew(relFolder: string): Promise<Set<string>> {
    this.watches.unwatchTree(relFolder);
    const seen = new Set<string>();
    await this.walkFolders(relFolder, (relPath) => {
      seen.add(relPath);
      if (this.known.has(relPath) || this.tracker.isTracking(relPath)) return;
      this.track(relPath, 'change');
    });
    return seen;
  }

  private onSettled(file: SettledFile): void {
    if (this.closing.signal.aborted) return;
    const known = this.known.get(file.relPath);
    const unchanged = known !== undefined && known.size === file.size && known.mtimeMs === file.mtimeMs;
    if (unchanged && file.reason === 'change') return;
    this.known.set(file.relPath, { size: file.size, mtimeMs: file.mtimeMs, generation: this.generation });
    this.found.fire({ absPath: file.absPath, relPath: file.relPath, size: file.size, mtimeMs: file.mtimeMs });
  }

  private forgetKnown(relPath: string): void {
    if (this.known.delete(relPath) && !this.closing.signal.aborted) this.removed.fire(relPath);
  }

  private async walkTree(): Promise<number> {
    const generation = ++this.generation;
    let files = 0;
    this.scanFound = 0;
    this.activity.fire();
    const complete = await this.walkFolders('', (relPath) => {
      this.scanFound = ++files;
      const known = this.known.get(relPath);
      if (known !== undefined) known.generation = generation;
      this.track(relPath, 'scan');
    });
    // Only a walk that read every folder may conclude that a file it did not see is gone.
    if (complete && !this.closing.signal.aborted) {
      for (const [relPath, known] of this.known) {
        if (known.generation < generation) this.forgetKnown(relPath);
      }
    }
    return files;
  }

  /**
   * Walks the tree under `relStart`: each batch of folders is watched, then
   * listed, one folder at a time. Returns false when a folder could not be read.
   */
  private async walkFolders(relStart: string, onFile: (relPath: string) => void): Promise<boolean> {
    let complete = true;
    // Depth-first with an explicit stack: memory is one name per pending folder, not per file.
    const folders: string[] = [relStart];
    while (folders.length > 0 && !this.closing.signal.aborted) {
      const batch = folders.splice(-WATCH_BATCH_FOLDERS);
      // a polled folder has no watches: its polls walk the tree
      if (!this.poller) await this.watches.watch(batch);
      for (const relFolder of batch) {
        if (this.closing.signal.aborted) break;
        const listed = await listFolder(this.root, relFolder, this.rules, {
          onFile,
          onSubfolder: (relSubfolder) => folders.push(relSubfolder),
          onError: (error) => this.reportError(error),
          signal: this.closing.signal,
        });
        complete &&= listed;
      }
    }
    return complete;
  }

  private track(relPath: string, reason: 'scan' | 'change'): void {
    this.tracker.track(relPath, this.absPathOf(relPath), reason);
    this.activity.fire();
  }

  /** Ends the scan once its walk ended and what it found settled, and tells who listens. */
  private activityChanged(): void {
    if (this.closing.signal.aborted) return;
    if (this.scanFound !== null && !this.rescanning && this.tracker.pendingCount === 0) {
      this.scanFound = null;
      this.scanEndedAt = this.clock.wall();
    }
    this.activity.fire();
  }

  /** Says when the root is no longer a folder. */
  private checkRoot(): void {
    void isFolder(this.root).then((there) => !there && !this.closing.signal.aborted && this.lost.fire());
  }

  /** Serialised so that a moved-in tree of 500 folders does not open 500 directories at once. */
  private queueFolderTask(task: () => Promise<unknown>): void {
    this.folderScans = this.folderScans.then(async () => {
      if (!this.closing.signal.aborted) await task();
    });
  }

  /** A folder's path as chokidar knows it: under the resolved root, in the platform's separators. */
  private watchPathOf(relFolder: string): string {
    return relFolder === '' ? this.watchRoot : absPathOf(this.watchRoot, relFolder);
  }

  private reportError(error: unknown): void {
    if (!this.closing.signal.aborted) this.errors.fire(toError(error));
  }

  private toRelPath(absPath: string): string | undefined {
    return relPathOf(this.watchRoot, absPath);
  }

  private absPathOf(relPath: string): string {
    return absPathOf(this.root, relPath);
  }
}

function isFolder(absPath: string): Promise<boolean> {
  return stat(absPath).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
