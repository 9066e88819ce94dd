import { isAbsolute, relative, sep } from 'node:path';
import type { WatchedFolder } from '../../src-shared/model/folder-options.js';
import type { UploadItem } from '../../src-shared/model/upload-state.js';
import type { Clock } from '../common/clock.js';
import { Emitter, type Disposable } from '../common/disposable.js';
import { NoTrashError, type TrashPort } from '../core/ports.js';
import type { DataDisk } from '../storage/data-disk.js';
import type { FolderStore } from '../storage/folder-store.js';
import type { UploadQueue } from '../uploads/upload-queue.js';
import { runAfterUpload } from './after-upload.js';
import type { DeclinedFiles } from './declined-files.js';
import type { SyncIndex } from './sync-index.js';

/** An uploaded file "Delete after upload" left in place, and why (a catalog message). */
export interface LeftInPlace {
  folderId: number;
  path: string;
  why: NoTrashError['text'];
}

export interface UploadedFilesOptions {
  folders: FolderStore;
  index: SyncIndex;
  declines: DeclinedFiles;
  queue: UploadQueue;
  trash: TrashPort;
  clock: Clock;
  dataDisk?: Pick<DataDisk, 'report'>;
  log: (message: string) => void;
  /** the folder's watcher looks at the file again (it changed after it was read) */
  lookAgain: (folderId: number, relPath: string) => void;
  /** a folder's after-upload moves started or stopped failing for a full disk */
  changed: (folderId: number) => void;
}

/**
 * What follows a folder's item in the queue (docs/uploads.md, Delete after
 * upload): done, it goes in the folder's index (SyncIndex) and the folder's
 * after-upload action runs; cancelled, the file is declined (DeclinedFiles);
 * queued again, it is no longer. Files the person uploaded themselves from a
 * watched folder are recorded too, so the folder does not send them again.
 */
export class UploadedFiles {
  /** after-upload actions under way: a close waits for them, so none is cut off half-way */
  private readonly acting = new Set<Promise<void>>();
  /** folders whose after-upload move or delete failed for a full disk, since when */
  private readonly diskFull = new Map<number, number>();
  /** folders whose files found no Trash since their last one that did: said once, not per file */
  private readonly noTrash = new Set<number>();
  private readonly leftEmitter = new Emitter<LeftInPlace>();
  /** "Delete after upload" found no Trash for an uploaded file: once per folder, until one goes to the Trash again */
  readonly onDidLeaveFile = this.leftEmitter.event;
  private readonly queueSubscription: Disposable;

  constructor(private readonly options: UploadedFilesOptions) {
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
  }

  /** Since when the folder's after-upload moves fail for a full disk, if they do. */
  diskFullSince(folderId: number): number | undefined {
    return this.diskFull.get(folderId);
  }

  /** A folder removed: nothing of it is kept. */
  forget(folderId: number): void {
    this.diskFull.delete(folderId);
  }

  /**
   * An item the queue found uploaded already when the folder enqueued it: by
   * this folder (its after-upload action may still be owed), or by the person themselves.
   */
  async uploadedBefore(folder: WatchedFolder, item: UploadItem): Promise<void> {
    await (item.folderId === null ? this.record(folder, item) : this.afterUpload(item));
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

  /** Stops following the queue; resolves once the after-upload actions under way have ended. */
  async close(): Promise<void> {
    this.queueSubscription.dispose();
    this.leftEmitter.dispose();
    await Promise.all(this.acting);
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
          this.options.log(`After the upload of ${item.path}: ${(error as Error).message}`);
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
      this.options.log(`Uploaded ${path}, but did not ${verb}: ${(error as Error).message}`);
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
        this.options.log(
          `Uploaded ${item.path}, but it changed since it was read: left in place, its new content goes next.`,
        );
        this.options.lookAgain(folder.id, relPath);
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
    if (full) this.diskFull.set(id, this.options.clock.wall());
    else this.diskFull.delete(id);
    this.options.changed(id);
  }
}
