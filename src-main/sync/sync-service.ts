import { isAbsolute, join, relative, sep } from 'node:path';
import {
  FolderOptionsSchema,
  type FolderOptionsInput,
  type WatchedFolder,
} from '../../src-shared/model/folder-options.js';
import type { FolderPolling, FolderState } from '../../src-shared/model/folder-status.js';
import type { UploadItem } from '../../src-shared/model/upload-state.js';
import { systemClock, type Clock } from '../common/clock.js';
import { CoreError } from '../common/core-error.js';
import { DisposableStore, Emitter, type Disposable } from '../common/disposable.js';
import { quickFingerprint, sameVersion, type FileIdentity } from '../common/file-fingerprint.js';
import { NoTrashError, type TrashPort } from '../core/ports.js';
import type { DataDisk } from '../storage/data-disk.js';
import type { FolderStore } from '../storage/folder-store.js';
import type { UploadQueue } from '../uploads/upload-queue.js';
import type { DeclinedFiles } from './declined-files.js';
import { message } from '../../src-shared/i18n/message.js';
import { detectFileSystemWithoutEvents, type FileSystemProbe } from './file-system-kind.js';
import { checkFolderPath, folderPathTrouble, isGone } from './folder-path.js';
import { absPathOf, countFiles, PathRules } from './folder-walk.js';
import { runAfterUpload } from './after-upload.js';
import { FolderWatcher, type StableFile } from './folder-watcher.js';
import type { SyncIndex } from './sync-index.js';

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

/**
 * New files remembered while the app's disk is full, at most: past this,
 * their folders are walked again once there is room (the index keeps the
 * files sent from going twice), so nothing is lost and memory stays bounded.
 */
export const WAITING_FOR_ROOM_LIMIT = 10_000;

/**
 * Folder sync (docs/ARCHITECTURE.md, Folders): one FolderWatcher per watched folder; each file
 * that settles is checked against the SyncIndex and enqueued only if it is
 * new content for that folder. When its upload is done, the index records it
 * and the folder's after-upload action runs.
 *
 * A file is not uploaded again when it is, in the index, at the same path
 * with the same size and mtime; or at the same path with the same fingerprint
 * (touched, not changed); or under another spelling of its name
 * (path-spellings.ts) with the same size and fingerprint (one name, one
 * content: one file, docs/uploads.md); or under another path that no longer
 * exists with the same size and fingerprint (renamed or moved within the
 * folder). Two spellings of a name with different content, which Linux
 * keeps as two files, are two files: each is uploaded once, under its own
 * path in the index.
 *
 * Nor is a file whose item the person cancelled (DeclinedFiles): at the same
 * path with the same size, mtime and fingerprint, or renamed or moved within
 * the folder since. Retrying that item takes the mark away; a new version of
 * the file is queued like any new file.
 */
/** What keeps a folder from being watched, and since when (epoch ms). */
export type FolderProblem = Extract<FolderState, { kind: 'problem' }>['problem'];
export interface FolderTrouble {
  problem: FolderProblem;
  since: number;
}

/** An uploaded file "Delete after upload" left in place, and why (a catalog message). */
export interface LeftInPlace {
  folderId: number;
  path: string;
  why: NoTrashError['text'];
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

export class SyncService {
  private readonly watchers = new Map<
    number,
    { watcher: FolderWatcher; subscriptions: DisposableStore; polling: Omit<FolderPolling, 'everySeconds'> | null }
  >();
  private readonly clock: Clock;
  private readonly log: (message: string) => void;
  private rescanTimer: AbortController | null = null;
  private readonly queueSubscription: Disposable;
  /** files being looked at, so two reports of one file do not race each other into the queue */
  private readonly inspecting = new Set<string>();
  /** folders that cannot be watched now (gone, unreadable), checked again every `folderCheckMs` */
  private readonly troubles = new Map<number, FolderTrouble>();
  /** folders whose after-upload move or delete failed for a full disk, since when */
  private readonly diskFull = new Map<number, number>();
  private readonly lastScans = new Map<number, number>();
  /** after-upload actions under way: a close waits for them, so none is cut off half-way */
  private readonly acting = new Set<Promise<void>>();
  /** each folder's checks, one after the other */
  private readonly checks = new Map<number, Promise<void>>();
  private checkTimer: AbortController | null = null;
  private pollIntervalMs: number;
  private closed = false;
  private readonly changeEmitter = new Emitter<number>();
  /** a folder's activity, trouble or pause may have changed, or it was added or removed (its id) */
  readonly onDidChangeFolder = this.changeEmitter.event;
  /** files that settled while the app's disk was full, by path: taken in once it has room */
  private readonly waiting = new Map<string, { folderId: number; file: StableFile }>();
  /** folders with more such files than WAITING_FOR_ROOM_LIMIT: walked again once there is room */
  private readonly walkWhenRoom = new Set<number>();
  private readonly waitingEmitter = new Emitter<void>();
  /** `waitingForRoom` changed */
  readonly onDidChangeWaiting = this.waitingEmitter.event;
  private readonly subscriptions = new DisposableStore();
  private readonly leftEmitter = new Emitter<LeftInPlace>();
  /** folders whose files found no Trash since their last one that did: said once, not per file */
  private readonly noTrash = new Set<number>();
  /**
   * "Delete after upload" found no Trash for an uploaded file: it stays where
   * it is. Once per folder, until one of its files goes to the Trash again
   */
  readonly onDidLeaveFile = this.leftEmitter.event;

  constructor(private readonly options: SyncServiceOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? (() => undefined);
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.queueSubscription = options.queue.onDidChangeItem((item) => {
      if (item.folderId === null) {
        if (item.state.kind === 'done') this.recordInWatchedFolders(item);
        return;
      }
      if (item.state.kind === 'done') this.act(item);
      if (item.state.kind === 'cancelled') this.decline(item, item.folderId);
      // retried, or a new version queued: the folder wants this path again
      if (item.state.kind === 'queued') options.declines.forget(item.path);
    });
    if (options.dataDisk) {
      this.subscriptions.add(options.dataDisk.onDidChange((full) => full === null && void this.takeInWaiting()));
    }
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
        includeSubfolders: options.includeSubfolders,
        ...ignoreOf(folder),
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
    const after = options.afterUpload;
    const rules = new PathRules({
      includeSubfolders: options.includeSubfolders,
      ignoreGlobs: options.ignoreGlobs,
      ignorePrefixes: after.kind === 'move' ? [after.subfolder] : [],
    });
    const { index, declines } = this.options;
    const pending = (relPath: string) =>
      folderId === null ||
      (index.lookup(folderId, relPath) === undefined && declines.lookup(absPathOf(root, relPath)) === undefined);
    return countFiles(root, rules, pending, { files: 10_000, ms: 2_000, now: () => this.clock.monotonic() });
  }

  /** New options for a folder: its watcher starts over with them; what it uploaded stays known. */
  async updateFolder(id: number, input: FolderOptionsInput): Promise<WatchedFolder> {
    const options = FolderOptionsSchema.parse(input);
    return this.rewatch(id, () => this.options.folders.update(id, options));
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
    this.diskFull.delete(id);
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
    const scanned = watcher?.lastScanAt ?? null;
    if (scanned !== null) this.lastScans.set(id, scanned);
    const diskFullSince = this.diskFull.get(id);
    const polling = this.watchers.get(id)?.polling ?? null;
    return {
      polling: polling && { ...polling, everySeconds: Math.max(1, Math.round(this.pollIntervalMs / 1000)) },
      scan: watcher?.scan ?? null,
      settling: watcher?.settlingCount ?? 0,
      lastScanAt: this.lastScans.get(id) ?? null,
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
    return this.waiting.size;
  }

  /** A file the watchers have seen is still settling, or being looked at before it is queued. */
  get busy(): boolean {
    return this.inspecting.size > 0 || [...this.watchers.values()].some(({ watcher }) => watcher.pendingCount > 0);
  }

  async close(): Promise<void> {
    this.rescanTimer?.abort();
    this.rescanTimer = null;
    this.closed = true;
    this.checkTimer?.abort();
    this.checkTimer = null;
    this.changeEmitter.dispose();
    this.waitingEmitter.dispose();
    this.subscriptions.dispose();
    this.leftEmitter.dispose();
    this.queueSubscription.dispose();
    await Promise.all([...this.watchers.keys()].map((id) => this.unwatch(id)));
    await Promise.all(this.acting);
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
      includeSubfolders: folder.options.includeSubfolders,
      settleMs: folder.options.settleSeconds === null ? this.options.settleMs : folder.options.settleSeconds * 1000,
      pollMs: polling ? this.pollIntervalMs : undefined,
      clock: this.clock,
      ...ignoreOf(folder),
    });
    const subscriptions = new DisposableStore();
    subscriptions.add(watcher.onDidFindFile((file) => void this.consider(folder, file)));
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
    entry.subscriptions.dispose();
    await entry.watcher.close();
    this.changeEmitter.fire(id);
  }

  private async consider(folder: WatchedFolder, file: StableFile): Promise<void> {
    if (this.inspecting.has(file.absPath)) return;
    if (this.options.dataDisk?.full) {
      // nothing can be written now: the file waits for room, and this new write is the moment to look for it
      this.waitForRoom(folder.id, file);
      void this.options.dataDisk.check();
      return;
    }
    this.inspecting.add(file.absPath);
    try {
      const index = this.options.index;
      const known = index.lookup(folder.id, file.relPath);
      const here = known?.relPath === file.relPath;
      if (here && known.size === file.size && known.mtimeMs === file.mtimeMs) return;
      const identity = await quickFingerprint(file.absPath);
      if (known && known.size === identity.size && known.fingerprint === identity.fingerprint) {
        // touched, not changed; or another spelling of its name with the same content: one file
        if (here || !(await isGone(join(folder.path, known.relPath)))) {
          index.record({ ...known, relPath: file.relPath, mtimeMs: identity.mtimeMs });
        } else index.move(folder.id, known.relPath, file.relPath, identity.mtimeMs);
        return;
      }
      for (const candidate of index.findByContent(folder.id, identity.size, identity.fingerprint)) {
        if (await isGone(join(folder.path, candidate.relPath))) {
          index.move(folder.id, candidate.relPath, file.relPath, identity.mtimeMs);
          return;
        }
      }
      if (await this.isDeclined(folder, file.absPath, identity)) return;
      const { item, outcome } = await this.options.queue.enqueue({
        accountId: folder.accountId,
        path: file.absPath,
        visibility: folder.options.visibility,
        metadata:
          folder.options.allowOnlineWatch === null ? {} : { allow_online_watch: folder.options.allowOnlineWatch },
        folderId: folder.id,
        identity,
      });
      // uploaded before: by this folder (its after-upload action may still be owed), or by the person themselves
      if (outcome === 'done') await (item.folderId === null ? this.record(folder, item) : this.afterUpload(item));
    } catch (error) {
      if (this.options.dataDisk?.report(error)) this.waitForRoom(folder.id, file);
      // gone or unreadable since it settled: the next event or rescan brings it back
      else this.log(`Skipped ${file.absPath}: ${(error as Error).message}`);
    } finally {
      this.inspecting.delete(file.absPath);
    }
  }

  /** Remembers a file that could not be taken in for lack of room (or its folder, past the limit). */
  private waitForRoom(folderId: number, file: StableFile): void {
    if (this.waiting.size >= WAITING_FOR_ROOM_LIMIT && !this.waiting.has(file.absPath)) {
      this.walkWhenRoom.add(folderId);
      return;
    }
    this.waiting.set(file.absPath, { folderId, file });
    this.waitingEmitter.fire();
  }

  /**
   * The app's disk has room again: the files that waited are looked at as
   * if they had just settled (in the order they came), and the folders that
   * had too many are walked. Should the disk fill up again meanwhile, the
   * rest wait again.
   */
  private async takeInWaiting(): Promise<void> {
    const entries = [...this.waiting.values()];
    const walks = [...this.walkWhenRoom];
    this.waiting.clear();
    this.walkWhenRoom.clear();
    if (entries.length > 0) this.waitingEmitter.fire();
    for (const { folderId, file } of entries) {
      const folder = this.closed ? undefined : this.options.folders.get(folderId);
      if (folder) await this.consider(folder, file);
    }
    for (const id of walks) void this.watchers.get(id)?.watcher.rescan();
  }

  /**
   * Whether the person cancelled this version of the file: at this path, or
   * at one it was renamed or moved from within the folder (the mark follows it).
   */
  private async isDeclined(folder: WatchedFolder, absPath: string, identity: FileIdentity): Promise<boolean> {
    const declines = this.options.declines;
    const here = declines.lookup(absPath);
    if (here && sameVersion(here, identity)) return true;
    for (const candidate of declines.findByIdentity(folder.id, identity)) {
      if (await isGone(candidate.path)) {
        declines.move(candidate.path, absPath);
        return true;
      }
    }
    return false;
  }

  /** Remembers a cancelled item of a folder as declined, as it was when queued (or last restarted). */
  private decline(item: UploadItem, folderId: number): void {
    if (!this.options.folders.get(folderId)) return;
    this.options.declines.record({
      path: item.path,
      folderId,
      size: item.size,
      mtimeMs: item.mtimeMs,
      fingerprint: item.fingerprint,
    });
  }

  /** The after-upload action of a done item, kept track of until it ends. */
  private act(item: UploadItem): void {
    const acting = this.afterUpload(item)
      .catch((error: unknown) => {
        // its index entry could not be written: the done item in the queue keeps it from going twice until then
        if (!this.options.dataDisk?.report(error))
          this.log(`After the upload of ${item.path}: ${(error as Error).message}`);
      })
      .finally(() => this.acting.delete(acting));
    this.acting.add(acting);
  }

  /**
   * Records an uploaded file in the index, then moves it or puts it in the
   * Trash if the folder says so (after-upload.ts: a last look first, and its
   * sidecars with it). A file that changed since it was read stays, and the
   * watcher looks at it again, so its new content is queued once it settles.
   */
  private async afterUpload(item: UploadItem): Promise<void> {
    if (item.state.kind !== 'done' || item.folderId === null) return;
    const folder = this.options.folders.get(item.folderId);
    if (!folder) return;
    const relPath = this.record(folder, item);
    // found on the service by name and size, not sent: a guess is no reason to move or delete the person's file
    if (relPath === null || item.state.existing) return;
    const action = folder.options.afterUpload.kind;
    if (action === 'keep') return;
    let full = false;
    const fail = (path: string, error: unknown) => {
      const verb = action === 'delete' ? 'put it in the Trash' : 'move it';
      this.log(`Uploaded ${path}, but did not ${verb}: ${(error as Error).message}`);
      full ||= (error as NodeJS.ErrnoException).code === 'ENOSPC';
      if (error instanceof NoTrashError && !this.noTrash.has(folder.id)) {
        this.noTrash.add(folder.id);
        this.leftEmitter.fire({ folderId: folder.id, path, why: error.text });
      }
    };
    const { index, trash } = this.options;
    try {
      const outcome = await runAfterUpload(folder, item, relPath, { index, trash }, fail);
      if (outcome.kind === 'done') this.noTrash.delete(folder.id);
      if (outcome.kind === 'changed') {
        this.log(`Uploaded ${item.path}, but it changed since it was read: left in place, its new content goes next.`);
        this.watchers.get(folder.id)?.watcher.lookAgain(relPath);
      }
    } catch (error) {
      fail(item.path, error);
    }
    this.setDiskFull(folder.id, full);
  }

  /**
   * A file the person uploaded themselves (a drop, `media-sync upload`) that
   * lies in a folder watched for the same account: the folder counts it as
   * sent, so it is not uploaded a second time once its item leaves the queue.
   * The folder's after-upload action is not the person's choice here: none runs.
   */
  private recordInWatchedFolders(item: UploadItem): void {
    for (const folder of this.options.folders.list()) {
      if (folder.accountId === item.accountId) this.record(folder, item);
    }
  }

  /**
   * Done items about to leave the queue (the pruning): one the folders'
   * index does not hold (the app stopped between the item's write and the
   * index's) is recorded now, so no folder sends it again once its item is
   * gone. A path the index holds already, this version or a later one, is
   * left as it is.
   */
  keepUploaded(items: readonly UploadItem[]): void {
    const folders = this.options.folders.list();
    for (const item of items) {
      if (item.state.kind !== 'done') continue;
      for (const folder of folders) {
        const ours = item.folderId === null ? folder.accountId === item.accountId : folder.id === item.folderId;
        if (ours) this.record(folder, item, { unlessKnown: true });
      }
    }
  }

  /**
   * Records a done item in the folder's index: its path in the folder, or
   * null when the file is not in the folder or was recorded already
   * (`unlessKnown`: or any version of it was).
   */
  private record(folder: WatchedFolder, item: UploadItem, options: { unlessKnown?: boolean } = {}): string | null {
    if (item.state.kind !== 'done') return null;
    const relPath = relative(folder.path, item.path).split(sep).join('/');
    if (relPath.startsWith('..') || isAbsolute(relPath)) return null;
    const index = this.options.index;
    // this very path: another spelling of its name may be another file (Linux keeps both)
    const known = index.lookup(folder.id, relPath);
    if (known?.relPath === relPath && (options.unlessKnown || known.fileId === item.state.fileId)) return null;
    index.record({
      folderId: folder.id,
      relPath,
      size: item.size,
      mtimeMs: item.mtimeMs,
      fingerprint: item.fingerprint,
      fileId: item.state.fileId,
      origin: 'uploaded',
    });
    return relPath;
  }

  private setDiskFull(id: number, full: boolean): void {
    if (full === this.diskFull.has(id)) return;
    if (full) this.diskFull.set(id, this.clock.wall());
    else this.diskFull.delete(id);
    this.changeEmitter.fire(id);
  }

  private scheduleChecks(): void {
    const interval = this.options.folderCheckMs ?? 30_000;
    const cancel = new AbortController();
    this.checkTimer = cancel;
    const loop = async () => {
      while (!cancel.signal.aborted) {
        await this.clock.sleep(interval, cancel.signal);
        await Promise.all(this.options.folders.list().map((folder) => this.check(folder.id)));
      }
    };
    loop().catch(() => undefined);
  }

  private scheduleRescan(): void {
    const interval = this.options.rescanIntervalMs ?? 60 * 60_000;
    const cancel = new AbortController();
    this.rescanTimer = cancel;
    const loop = async () => {
      while (!cancel.signal.aborted) {
        await this.clock.sleep(interval, cancel.signal);
        await this.rescan();
      }
    };
    loop().catch(() => undefined);
  }
}

/** The watcher's ignore settings for a folder: its globs, and its after-upload subfolder. */
function ignoreOf(folder: WatchedFolder): { ignoreGlobs: string[]; ignorePrefixes: string[] } {
  const after = folder.options.afterUpload;
  return { ignoreGlobs: folder.options.ignoreGlobs, ignorePrefixes: after.kind === 'move' ? [after.subfolder] : [] };
}
