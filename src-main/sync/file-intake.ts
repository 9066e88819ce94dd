import { join } from 'node:path';
import type { WatchedFolder } from '../../src-shared/model/folder-options.js';
import { DisposableStore, Emitter } from '../common/disposable.js';
import { quickFingerprint, sameVersion, type FileIdentity } from '../common/file-fingerprint.js';
import type { DataDisk } from '../storage/data-disk.js';
import type { FolderStore } from '../storage/folder-store.js';
import type { UploadQueue } from '../uploads/upload-queue.js';
import type { DeclinedFiles } from './declined-files.js';
import { isGone } from './folder-path.js';
import type { StableFile } from './folder-walk.js';
import type { SyncIndex } from './sync-index.js';
import type { UploadedFiles } from './uploaded-files.js';

/**
 * New files remembered while the app's disk is full, at most: past this,
 * their folders are walked again once there is room (the index keeps the
 * files sent from going twice), so nothing is lost and memory stays bounded.
 */
export const WAITING_FOR_ROOM_LIMIT = 10_000;

export interface FileIntakeOptions {
  folders: FolderStore;
  index: SyncIndex;
  declines: DeclinedFiles;
  queue: UploadQueue;
  uploaded: UploadedFiles;
  dataDisk?: Pick<DataDisk, 'full' | 'report' | 'check' | 'onDidChange'>;
  log: (message: string) => void;
  /** walks a folder again (it had more files waiting for room than are remembered) */
  rescan: (folderId: number) => void;
}

/**
 * Whether a file a watcher found settled goes to the queue: only if it is
 * new content for its folder.
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
 *
 * While the app's disk is full, files wait here for room (WAITING_FOR_ROOM_LIMIT).
 */
export class FileIntake {
  /** files being looked at, so two reports of one file do not race each other into the queue */
  private readonly inspecting = new Set<string>();
  /** files that settled while the app's disk was full, by path: taken in once it has room */
  private readonly waiting = new Map<string, { folderId: number; file: StableFile }>();
  /** folders with more such files than WAITING_FOR_ROOM_LIMIT: walked again once there is room */
  private readonly walkWhenRoom = new Set<number>();
  private readonly waitingEmitter = new Emitter<void>();
  /** `waitingForRoom` changed */
  readonly onDidChangeWaiting = this.waitingEmitter.event;
  private readonly subscriptions = new DisposableStore();
  private closed = false;

  constructor(private readonly options: FileIntakeOptions) {
    if (options.dataDisk) {
      this.subscriptions.add(options.dataDisk.onDidChange((full) => full === null && void this.takeInWaiting()));
    }
  }

  /** Files that settled while the app's disk was full, not queued yet (at most WAITING_FOR_ROOM_LIMIT). */
  get waitingForRoom(): number {
    return this.waiting.size;
  }

  /** A file is being looked at before it is queued. */
  get busy(): boolean {
    return this.inspecting.size > 0;
  }

  close(): void {
    this.closed = true;
    this.waitingEmitter.dispose();
    this.subscriptions.dispose();
  }

  /** Queues a settled file of the folder if it is new content there (see the class comment). */
  async consider(folder: WatchedFolder, file: StableFile): Promise<void> {
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
      if (outcome === 'done') await this.options.uploaded.uploadedBefore(folder, item);
    } catch (error) {
      if (this.options.dataDisk?.report(error)) this.waitForRoom(folder.id, file);
      // gone or unreadable since it settled: the next event or rescan brings it back
      else this.options.log(`Skipped ${file.absPath}: ${(error as Error).message}`);
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
    for (const id of walks) this.options.rescan(id);
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
}
