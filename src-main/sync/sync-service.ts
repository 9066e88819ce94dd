import {
  FolderOptionsSchema,
  type FolderOptionsInput,
  type WatchedFolder,
} from '../../src-shared/model/folder-options.js';
import { PREVIEW_LIMITS, type FolderPreview } from '../../src-shared/model/folder-preview.js';
import type { FolderPolling, FolderState } from '../../src-shared/model/folder-status.js';
import type { UploadItem } from '../../src-shared/model/upload-state.js';
import { systemClock, type Clock } from '../common/clock.js';
import { CoreError } from '../common/core-error.js';
import { DisposableStore, Emitter } from '../common/disposable.js';
import { Repeater } from '../common/repeater.js';
import type { TrashPort } from '../core/ports.js';
import type { DataDisk } from '../storage/data-disk.js';
import type { FolderStore } from '../storage/folder-store.js';
import type { UploadQueue } from '../uploads/upload-queue.js';
import type { DeclinedFiles } from './declined-files.js';
import { message } from '../../src-shared/i18n/message.js';
import { detectFileSystemWithoutEvents, type FileSystemProbe } from '../common/file-system-kind.js';
import { FileIntake } from './file-intake.js';
import { createFileRules, createFolderRules } from './file-rules.js';
import { checkFolderPath, folderPathTrouble } from './folder-path.js';
import { absPathOf, countFiles, PathRules, pathRuleOptions, relPathOf } from './folder-walk.js';
import { previewFolder } from './folder-preview.js';
import { FolderWatcher } from './folder-watcher.js';
import type { SyncIndex } from './sync-index.js';
import { UploadedFiles } from './uploaded-files.js';

export interface SyncServiceOptions {
  folders: FolderStore;
  index: SyncIndex;
  declines: DeclinedFiles;
  queue: UploadQueue;
  /** where "Delete after upload" puts files */
  trash: TrashPort;
  clock?: Clock;
  /** the settle window of a folder that sets none (3 s) */
  settleMs?: number;
  /** a full rescan of every folder this often, for what the watcher missed (sleep, network drives) */
  rescanIntervalMs?: number;
  /** every folder's path is looked at this often (30 s): gone or unreadable, or back again */
  folderCheckMs?: number;
  /** the app's own disk: a file that cannot be taken in for lack of room waits for it (absent: never full) */
  dataDisk?: Pick<DataDisk, 'full' | 'report' | 'check' | 'onDidChange'>;
  /** how often a folder checked by polling is looked at (Settings; 60 s) */
  pollIntervalMs?: number;
  /** the file system of a folder when it gives no change events (file-system-kind.ts); tests mark a folder so */
  fileSystemOf?: FileSystemProbe;
  log?: (message: string) => void;
}

/** What keeps a folder from being watched, and since when (epoch ms). */
export type FolderProblem = Extract<FolderState, { kind: 'problem' }>['problem'];
export interface FolderTrouble {
  problem: FolderProblem;
  since: number;
}

/** What a folder's watcher is doing, for its status (folder-status-service.ts). */
export interface FolderActivity {
  scan: { found: number } | null;
  settling: number;
  lastScanAt: number | null;
  /** missing or unreadable (then it is not watched), or a full disk (its after-upload moves fail) */
  trouble: FolderTrouble | null;
  /** checked by polling, and why; null with change events (or while not watched) */
  polling: FolderPolling | null;
}

/** A folder checked by polling is looked at every minute unless Settings say otherwise. */
export const DEFAULT_POLL_INTERVAL_MS = 60_000;

/**
 * Folder sync (docs/ARCHITECTURE.md, Folders): the watched folders (list,
 * add, update, remove, pause), one FolderWatcher per folder, and the checks
 * of each folder's path every 30 s. Each file that settles goes to the
 * FileIntake, which queues it only if it is new content for that folder;
 * UploadedFiles records it once uploaded and runs the folder's after-upload action.
 */
export class SyncService {
  private readonly watchers = new Map<
    number,
    { watcher: FolderWatcher; subscriptions: DisposableStore; polling: Omit<FolderPolling, 'everySeconds'> | null }
  >();
  private readonly clock: Clock;
  private readonly log: (message: string) => void;
  private rescanTimer: AbortController | null = null;
  private readonly intake: FileIntake;
  private readonly uploaded: UploadedFiles;
  /** folders that cannot be watched now (gone, unreadable), checked again every `folderCheckMs` */
  private readonly troubles = new Map<number, FolderTrouble>();
  private readonly lastScans = new Map<number, number>();
  /** each folder's checks, one after the other */
  private readonly checks = new Map<number, Promise<void>>();
  private checkTimer: AbortController | null = null;
  private pollIntervalMs: number;
  private closed = false;
  private readonly changeEmitter = new Emitter<number>();
  /** a folder's activity, trouble or pause may have changed, or it was added or removed (its id) */
  readonly onDidChangeFolder = this.changeEmitter.event;
  /** `waitingForRoom` changed */
  readonly onDidChangeWaiting: FileIntake['onDidChangeWaiting'];
  /**
   * "Delete after upload" found no Trash for an uploaded file: it stays where
   * it is. Once per folder, until one of its files goes to the Trash again
   */
  readonly onDidLeaveFile: UploadedFiles['onDidLeaveFile'];

  constructor(private readonly options: SyncServiceOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? (() => undefined);
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const shared = { ...options, clock: this.clock, log: this.log };
    this.uploaded = new UploadedFiles({
      ...shared,
      lookAgain: (id, relPath) => this.watchers.get(id)?.watcher.lookAgain(relPath),
      changed: (id) => this.changeEmitter.fire(id),
    });
    this.intake = new FileIntake({
      ...shared,
      uploaded: this.uploaded,
      rescan: (id) => void this.watchers.get(id)?.watcher.rescan(),
    });
    this.onDidChangeWaiting = this.intake.onDidChangeWaiting;
    this.onDidLeaveFile = this.uploaded.onDidLeaveFile;
  }

  /** Starts watching every folder (each one's first scan finds what arrived while the app was off). */
  async start(): Promise<void> {
    await Promise.all(this.options.folders.list().map((folder) => this.watch(folder)));
    this.scheduleRescan();
    this.scheduleChecks();
  }

  /**
   * Watches a new folder. With `uploadExisting: false`, what is in it now is
   * recorded as already known before watching starts, so only later files go.
   * `path` is checked first (checkFolderPath): absolute or `~/…`, an existing,
   * readable folder; otherwise the CoreError says what is wrong with it.
   */
  async addFolder(accountId: string, path: string, input: FolderOptionsInput = {}): Promise<WatchedFolder> {
    const root = await checkFolderPath(path);
    const existing = this.options.folders.findByPath(root);
    if (existing) return existing;
    const options = FolderOptionsSchema.parse(input);
    const folder = this.options.folders.add(accountId, root, options);
    if (!options.uploadExisting) {
      const files = await FolderWatcher.list({
        root,
        ...pathRuleOptions(folder.options),
      });
      this.options.index.recordBaseline(folder.id, files);
    }
    await this.watch(folder);
    return folder;
  }

  /**
   * How many files "Delete after upload" would put in the Trash, each once
   * it is uploaded, in the folder `folderId` (or the one at `path` about to
   * be added) with `options`: the files its rules take that it has not sent
   * nor declined. None for a new folder that uploads only new files. A walk
   * bounded to 10,000 files or 2 s: `more` when it stopped before the end.
   */
  async countToRemove(
    path: string,
    folderId: number | null,
    input: FolderOptionsInput,
  ): Promise<{ files: number; more: boolean }> {
    const options = FolderOptionsSchema.parse(input);
    const root = folderId === null ? await checkFolderPath(path) : this.folderOrFail(folderId).path;
    if (folderId === null && !options.uploadExisting) return { files: 0, more: false };
    const rules = new PathRules(pathRuleOptions(options));
    const { index, declines } = this.options;
    const pending = (relPath: string) =>
      folderId === null ||
      (index.lookup(folderId, relPath) === undefined && declines.lookup(absPathOf(root, relPath)) === undefined);
    return countFiles(root, rules, pending, { files: 10_000, ms: 2_000, now: () => this.clock.monotonic() });
  }

  /**
   * What the folder `folderId` (or the one at `path` about to be added)
   * would upload with `options`, and what they leave alone, before anything
   * is queued (folder-preview.ts). A path already watched is that folder.
   */
  async preview(path: string, folderId: number | null, input: FolderOptionsInput): Promise<FolderPreview> {
    const options = FolderOptionsSchema.parse(input);
    const root = folderId === null ? await checkFolderPath(path) : this.folderOrFail(folderId).path;
    const id = folderId ?? this.options.folders.findByPath(root)?.id ?? null;
    const { index, declines } = this.options;
    return previewFolder({
      root,
      options,
      adding: id === null,
      isKnown: (relPath, size) =>
        id !== null &&
        (index.lookup(id, relPath)?.size === size || declines.lookup(absPathOf(root, relPath))?.size === size),
      bounds: { ...PREVIEW_LIMITS, now: () => this.clock.monotonic() },
    });
  }

  /**
   * New options for a folder: its watcher starts over with them; what it
   * uploaded stays known, and what it queued that they now leave alone
   * leaves the queue (what is being sent finishes).
   */
  async updateFolder(id: number, input: FolderOptionsInput): Promise<WatchedFolder> {
    const options = FolderOptionsSchema.parse(input);
    return this.rewatch(id, () => {
      this.options.folders.update(id, options);
      const root = this.options.folders.get(id)!.path;
      const leftAlone = createFolderRules(options);
      this.options.queue.forget(id, (item) => {
        const relPath = relPathOf(root, item.path);
        return relPath !== undefined && leftAlone({ ...item, relPath }) !== null;
      });
    });
  }

  /**
   * Stops watching a folder while `change` rewrites it (its options, its
   * account), then watches it as it is now: each watcher works with the
   * folder as it was when it started.
   */
  async rewatch(id: number, change: () => void): Promise<WatchedFolder> {
    this.folderOrFail(id);
    await this.unwatch(id);
    change();
    const updated = this.options.folders.get(id)!;
    await this.watch(updated);
    this.changeEmitter.fire(id);
    return updated;
  }

  async removeFolder(id: number): Promise<void> {
    await this.unwatch(id);
    this.options.folders.remove(id);
    this.troubles.delete(id);
    this.uploaded.forget(id);
    this.lastScans.delete(id);
    this.changeEmitter.fire(id);
  }

  /**
   * Pauses (or resumes) one folder, kept across restarts: its new and queued
   * files wait in the queue (a file already being sent finishes), the other
   * folders go on; resumed, its files start at once.
   */
  setPaused(id: number, paused: boolean): void {
    this.folderOrFail(id);
    this.options.folders.setPaused(id, paused);
    this.changeEmitter.fire(id);
    this.options.queue.poke();
  }

  /**
   * Walks one folder now (folders:rescan). A folder that could not be watched
   * is looked at again instead: back, it is watched and walked.
   */
  rescanFolder(id: number): void {
    this.folderOrFail(id);
    const entry = this.watchers.get(id);
    if (entry) void entry.watcher.rescan();
    else void this.check(id);
  }

  /** How often folders checked by polling are looked at, from now on (Settings). */
  setPollInterval(ms: number): void {
    if (ms === this.pollIntervalMs) return;
    this.pollIntervalMs = ms;
    for (const [id, { watcher }] of this.watchers) {
      if (watcher.pollEveryMs === null) continue;
      watcher.setPollInterval(ms);
      this.changeEmitter.fire(id);
    }
  }

  /** What the folder's watcher is doing now. */
  activity(id: number): FolderActivity {
    const watcher = this.watchers.get(id)?.watcher;
    const diskFullSince = this.uploaded.diskFullSince(id);
    const polling = this.watchers.get(id)?.polling ?? null;
    return {
      polling: polling && { ...polling, everySeconds: Math.max(1, Math.round(this.pollIntervalMs / 1000)) },
      scan: watcher?.scan ?? null,
      settling: watcher?.settlingCount ?? 0,
      lastScanAt: watcher?.lastScanAt ?? this.lastScans.get(id) ?? null,
      trouble:
        this.troubles.get(id) ?? (diskFullSince === undefined ? null : { problem: 'diskFull', since: diskFullSince }),
    };
  }

  /** Walks every watched folder again; returns how many files were seen. */
  async rescan(): Promise<number> {
    let seen = 0;
    for (const { watcher } of this.watchers.values()) seen += await watcher.rescan();
    return seen;
  }

  /**
   * Resolves once every file the watchers have seen so far has settled and been
   * looked at (enqueued or found known): what `watch --once` waits for.
   */
  async whenSettled(): Promise<void> {
    // the settle tracker has no "drained" event; a short poll costs nothing next to the settle window
    while (this.busy) await this.clock.sleep(50);
  }

  /** Files that settled while the app's disk was full, not queued yet (at most WAITING_FOR_ROOM_LIMIT). */
  get waitingForRoom(): number {
    return this.intake.waitingForRoom;
  }

  /** A file the watchers have seen is still settling, or being looked at before it is queued. */
  get busy(): boolean {
    return this.intake.busy || [...this.watchers.values()].some(({ watcher }) => watcher.pendingCount > 0);
  }

  async close(): Promise<void> {
    this.rescanTimer?.abort();
    this.rescanTimer = null;
    this.closed = true;
    this.checkTimer?.abort();
    this.checkTimer = null;
    this.changeEmitter.dispose();
    this.intake.close();
    const uploaded = this.uploaded.close();
    await Promise.all([...this.watchers.keys()].map((id) => this.unwatch(id)));
    await uploaded;
  }

  private async watch(folder: WatchedFolder): Promise<void> {
    if (this.watchers.has(folder.id)) return;
    const trouble = await this.pathTrouble(folder);
    if (trouble) return this.setTrouble(folder.id, trouble);
    // looked at each time it is watched (added, the app started, back after it was gone): a share may be remounted
    const fileSystem = await (this.options.fileSystemOf ?? detectFileSystemWithoutEvents)(folder.path);
    if (this.watchers.has(folder.id)) return;
    const polling: Omit<FolderPolling, 'everySeconds'> | null = fileSystem
      ? { why: 'network', fileSystem }
      : folder.options.checkByPolling
        ? { why: 'chosen', fileSystem: null }
        : null;
    const watcher = new FolderWatcher({
      root: folder.path,
      settleMs: folder.options.settleSeconds === null ? this.options.settleMs : folder.options.settleSeconds * 1000,
      pollMs: polling ? this.pollIntervalMs : undefined,
      clock: this.clock,
      ...pathRuleOptions(folder.options),
    });
    const subscriptions = new DisposableStore();
    // a file its type, size or age rule leaves alone is never queued, like a file its name rules leave alone
    const leftAlone = createFileRules(folder.options);
    subscriptions.add(
      watcher.onDidFindFile((file) => {
        if (leftAlone(file) === null) void this.intake.consider(folder, file);
      }),
    );
    subscriptions.add(
      watcher.onDidError((error) => {
        this.log(`Watching ${folder.path}: ${error.message}`);
        // the folder itself may be what cannot be read any more
        void this.check(folder.id);
      }),
    );
    subscriptions.add(watcher.onDidLoseRoot(() => void this.check(folder.id)));
    subscriptions.add(watcher.onDidChangeActivity(() => this.changeEmitter.fire(folder.id)));
    this.watchers.set(folder.id, { watcher, subscriptions, polling });
    this.setTrouble(folder.id, null);
    try {
      await watcher.start();
    } catch (error) {
      // gone or locked between the look and the start: the next check says which
      this.log(`Watching ${folder.path}: ${(error as Error).message}`);
      void this.check(folder.id);
    }
  }

  /**
   * Looks at a folder's path: gone or unreadable, its watcher stops and the
   * folder waits for the next check; back again, it is watched and walked,
   * and the SyncIndex keeps what it sent before from going twice.
   */
  private check(id: number): Promise<void> {
    const next = (this.checks.get(id) ?? Promise.resolve()).then(async () => {
      const folder = this.closed ? undefined : this.options.folders.get(id);
      if (!folder) return;
      const trouble = await this.pathTrouble(folder);
      if (this.closed) return;
      if (trouble) {
        if (this.watchers.has(id)) this.log(`Watching ${folder.path} stopped: ${trouble}.`);
        await this.unwatch(id);
        this.setTrouble(id, trouble);
      } else if (!this.watchers.has(id)) {
        if (this.troubles.has(id)) this.log(`${folder.path} is back: watching it again.`);
        await this.watch(folder);
      }
    });
    const settled = next.catch((error: unknown) => this.log(`Checking folder #${id}: ${(error as Error).message}`));
    this.checks.set(id, settled);
    return settled;
  }

  /**
   * What keeps the folder's path from being watched now (folderPathTrouble),
   * remembering the device it is on while it can be: its drive unmounted,
   * the folder is then "not connected" rather than an empty folder.
   */
  private async pathTrouble(folder: WatchedFolder): Promise<FolderProblem | null> {
    const known = this.options.folders.device(folder.id);
    const { trouble, device } = await folderPathTrouble(folder.path, known);
    if (device !== null && device !== known && !this.closed) {
      try {
        this.options.folders.setDevice(folder.id, device);
      } catch (error) {
        // no room to remember it: the next look tries again
        if (!this.options.dataDisk?.report(error)) throw error;
      }
    }
    return trouble;
  }

  /** Keeps the first `since` of a trouble that goes on. */
  private setTrouble(id: number, problem: FolderProblem | null): void {
    const before = this.troubles.get(id);
    if (problem === null ? before === undefined : before?.problem === problem) return;
    if (problem) this.troubles.set(id, { problem, since: this.clock.wall() });
    else this.troubles.delete(id);
    this.changeEmitter.fire(id);
  }

  private folderOrFail(id: number): WatchedFolder {
    const folder = this.options.folders.get(id);
    if (!folder) throw CoreError.say('NOT_FOUND', message('core.errors.noFolder', { id }));
    return folder;
  }

  private async unwatch(id: number): Promise<void> {
    const entry = this.watchers.get(id);
    if (!entry) return;
    this.watchers.delete(id);
    // its last scan is still the folder's until a new watcher's first one ends
    const scanned = entry.watcher.lastScanAt;
    if (scanned !== null) this.lastScans.set(id, scanned);
    entry.subscriptions.dispose();
    await entry.watcher.close();
    this.changeEmitter.fire(id);
  }

  /** Done items about to leave the queue (the pruning): see UploadedFiles.keepUploaded. */
  keepUploaded(items: readonly UploadItem[]): void {
    this.uploaded.keepUploaded(items);
  }

  private scheduleChecks(): void {
    this.checkTimer = new AbortController();
    void new Repeater(this.options.folderCheckMs ?? 30_000, this.clock, this.checkTimer.signal)
      .run(() => Promise.all(this.options.folders.list().map((folder) => this.check(folder.id))))
      .catch(() => undefined);
  }

  private scheduleRescan(): void {
    this.rescanTimer = new AbortController();
    void new Repeater(this.options.rescanIntervalMs ?? 60 * 60_000, this.clock, this.rescanTimer.signal)
      .run(() => this.rescan())
      .catch(() => undefined);
  }
}
