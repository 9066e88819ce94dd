import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import {
  FolderOptionsSchema,
  type FolderOptionsInput,
  type WatchedFolder,
} from '../../src-shared/model/folder-options.js';
import type { FolderState } from '../../src-shared/model/folder-status.js';
import type { UploadItem } from '../../src-shared/model/upload-state.js';
import { systemClock, type Clock } from '../common/clock.js';
import { CoreError } from '../common/core-error.js';
import { DisposableStore, Emitter, type Disposable } from '../common/disposable.js';
import { quickFingerprint, type FileIdentity } from '../common/file-fingerprint.js';
import type { FolderStore } from '../storage/folder-store.js';
import type { UploadQueue } from '../uploads/upload-queue.js';
import { sameVersion, type DeclinedFiles } from './declined-files.js';
import { message } from '../../src-shared/i18n/message.js';
import { checkFolderPath, folderPathTrouble, isGone } from './folder-path.js';
import { FolderWatcher, type StableFile } from './folder-watcher.js';
import type { SyncIndex } from './sync-index.js';

export interface SyncServiceOptions {
  folders: FolderStore;
  index: SyncIndex;
  declines: DeclinedFiles;
  queue: UploadQueue;
  clock?: Clock;
  settleMs?: number;
  /** a full rescan of every folder this often, for what the watcher missed (sleep, network drives) */
  rescanIntervalMs?: number;
  /** every folder's path is looked at this often (30 s): gone or unreadable, or back again */
  folderCheckMs?: number;
  log?: (message: string) => void;
}

/**
 * Folder sync (docs/ARCHITECTURE.md, Folders): one FolderWatcher per watched folder; each file
 * that settles is checked against the SyncIndex and enqueued only if it is
 * new content for that folder. When its upload is done, the index records it
 * and the folder's after-upload action runs.
 *
 * A file is not uploaded again when it is, in the index, at the same path
 * with the same size and mtime; or at the same path with the same fingerprint
 * (touched, not changed); or under another path that no longer exists with
 * the same size and fingerprint (renamed or moved within the folder).
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

/** What a folder's watcher is doing, for its status (folder-status-service.ts). */
export interface FolderActivity {
  scan: { found: number } | null;
  settling: number;
  lastScanAt: number | null;
  /** missing or unreadable (then it is not watched), or a full disk (its after-upload moves fail) */
  trouble: FolderTrouble | null;
}

export class SyncService {
  private readonly watchers = new Map<number, { watcher: FolderWatcher; subscriptions: DisposableStore }>();
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
  /** each folder's checks, one after the other */
  private readonly checks = new Map<number, Promise<void>>();
  private checkTimer: AbortController | null = null;
  private closed = false;
  private readonly changeEmitter = new Emitter<number>();
  /** a folder's activity, trouble or pause may have changed, or it was added or removed (its id) */
  readonly onDidChangeFolder = this.changeEmitter.event;

  constructor(private readonly options: SyncServiceOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? (() => undefined);
    this.queueSubscription = options.queue.onDidChangeItem((item) => {
      if (item.folderId === null) {
        if (item.state.kind === 'done') this.recordInWatchedFolders(item);
        return;
      }
      if (item.state.kind === 'done') void this.afterUpload(item);
      if (item.state.kind === 'cancelled') this.decline(item, item.folderId);
      // retried, or a new version queued: the folder wants this path again
      if (item.state.kind === 'queued') options.declines.forget(item.path);
    });
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

  /** What the folder's watcher is doing now. */
  activity(id: number): FolderActivity {
    const watcher = this.watchers.get(id)?.watcher;
    const scanned = watcher?.lastScanAt ?? null;
    if (scanned !== null) this.lastScans.set(id, scanned);
    const diskFullSince = this.diskFull.get(id);
    return {
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
    this.queueSubscription.dispose();
    await Promise.all([...this.watchers.keys()].map((id) => this.unwatch(id)));
  }

  private async watch(folder: WatchedFolder): Promise<void> {
    if (this.watchers.has(folder.id)) return;
    const trouble = await folderPathTrouble(folder.path);
    if (trouble) return this.setTrouble(folder.id, trouble);
    if (this.watchers.has(folder.id)) return;
    const watcher = new FolderWatcher({
      root: folder.path,
      includeSubfolders: folder.options.includeSubfolders,
      settleMs: this.options.settleMs,
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
    this.watchers.set(folder.id, { watcher, subscriptions });
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
      const trouble = await folderPathTrouble(folder.path);
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
    this.inspecting.add(file.absPath);
    try {
      const index = this.options.index;
      const known = index.lookup(folder.id, file.relPath);
      if (known && known.size === file.size && known.mtimeMs === file.mtimeMs) return;
      const identity = await quickFingerprint(file.absPath);
      if (known && known.size === identity.size && known.fingerprint === identity.fingerprint) {
        index.record({ ...known, mtimeMs: identity.mtimeMs });
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
        visibility: folder.options.visibility === 'public',
        metadata:
          folder.options.allowOnlineWatch === null ? {} : { allow_online_watch: folder.options.allowOnlineWatch },
        folderId: folder.id,
        identity,
      });
      // uploaded before: by this folder (its after-upload action may still be owed), or by the person themselves
      if (outcome === 'done') await (item.folderId === null ? this.record(folder, item) : this.afterUpload(item));
    } catch (error) {
      // gone or unreadable since it settled: the next event or rescan brings it back
      this.log(`Skipped ${file.absPath}: ${(error as Error).message}`);
    } finally {
      this.inspecting.delete(file.absPath);
    }
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

  /** Records an uploaded file in the index, then moves or deletes it if the folder says so. */
  private async afterUpload(item: UploadItem): Promise<void> {
    if (item.state.kind !== 'done' || item.folderId === null) return;
    const folder = this.options.folders.get(item.folderId);
    if (!folder) return;
    const relPath = this.record(folder, item);
    // found on the service by name and size, not sent: a guess is no reason to move or delete the person's file
    if (relPath === null || item.state.existing) return;
    const action = folder.options.afterUpload;
    try {
      if (action.kind === 'delete') await rm(item.path, { force: true });
      if (action.kind === 'move') {
        const target = join(folder.path, action.subfolder, relPath);
        await mkdir(dirname(target), { recursive: true });
        await rename(item.path, target);
      }
      this.setDiskFull(folder.id, false);
    } catch (error) {
      this.log(`Uploaded ${item.path}, but could not ${action.kind} it: ${(error as Error).message}`);
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC') this.setDiskFull(folder.id, true);
    }
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
    const known = index.lookup(folder.id, relPath);
    if (known && (options.unlessKnown || known.fileId === item.state.fileId)) return null;
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
