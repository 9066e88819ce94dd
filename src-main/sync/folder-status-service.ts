import type { FolderStatus } from '../../src-shared/model/folder-status.js';
import type { WatchedFolder } from '../../src-shared/model/folder-options.js';
import { etaSeconds, observe, RATE_WINDOW_MS, type RateMeter } from '../../src-shared/model/transfer-rate.js';
import { ackedBytes } from '../../src-shared/model/chunk-bytes.js';
import { UNFINISHED_KINDS, type UploadItem } from '../../src-shared/model/upload-state.js';
import { systemClock, type Clock } from '../common/clock.js';
import { DisposableStore, Emitter, type Event } from '../common/disposable.js';
import { Throttle } from '../common/throttle.js';
import type { FolderStore } from '../storage/folder-store.js';
import type { UploadQueue } from '../uploads/upload-queue.js';
import type { FolderFiles } from './folder-files.js';
import { folderState, type AccountProblem, type FolderFacts } from './folder-state.js';
import type { SyncService } from './sync-service.js';

export interface FolderStatusServiceOptions {
  folders: FolderStore;
  files: FolderFiles;
  sync: Pick<SyncService, 'activity' | 'onDidChangeFolder'>;
  queue: Pick<UploadQueue, 'status' | 'onDidChangeItem' | 'onDidProgress' | 'onDidChangeStatus'>;
  /** the queue's items not done, failed or cancelled */
  unfinishedItems(): UploadItem[];
  /** why the account cannot upload (its token refused, signed out), else null: its folders have a problem */
  accountProblem(accountId: string): AccountProblem | null;
  /** an account's state changed (a token refused or accepted again, signed in or out) */
  onDidChangeAccount: Event<unknown>;
  clock?: Clock;
}

/** Folder statuses reach the UI at most this often: twice a second. */
export const FOLDER_STATUS_EVERY_MS = 500;

/** An item of a folder waiting, being sent or paused: its size and the bytes of it already sent. */
interface Work {
  folderId: number;
  size: number;
  sent: number;
  /** paused by the person: not uploading, and the folder not up to date either */
  paused: boolean;
  /** queued, but a process still writes its file: the folder says it is being written, not sent */
  beingWritten: boolean;
}

/** An unfinished item as the folder counts it; undefined when it is not the folder's work (or has ended). */
function itemWork(item: UploadItem, folderId: number): Work | undefined {
  if (!UNFINISHED_KINDS.includes(item.state.kind)) return undefined;
  const paused = item.state.kind === 'paused';
  const sent = item.state.kind === 'uploading' ? item.state.sentBytes : ackedBytes(item);
  const beingWritten = item.state.kind === 'queued' && item.state.waiting === 'beingWritten';
  return { folderId, size: item.size, sent, paused, beingWritten };
}

/**
 * Each watched folder's status (docs/ARCHITECTURE.md, Folders): its state
 * from the watcher's activity and trouble (SyncService), its pause, the
 * queue's pause and hold, its account's token and its items in the queue;
 * its counts and recent files from FolderFiles, which it keeps as its items
 * end. `onDidChange` carries the statuses that changed, at most twice a second.
 */
export class FolderStatusService {
  private readonly clock: Clock;
  private readonly disposables = new DisposableStore();
  /** the folders' items not finished, by item id; read from the store at the first look */
  private works: Map<number, Work> | null = null;
  /** bytes each folder has sent since the app started, and its rate over them */
  private readonly sent = new Map<number, { bytes: number; meter: RateMeter | undefined }>();
  /** since when each folder is up to date; null while it is not (absent: not looked at yet) */
  private readonly upToDateSince = new Map<number, number | null>();
  private readonly accountTroubles = new Map<string, { problem: AccountProblem['problem']; since: number }>();
  private readonly dirty = new Set<number>();
  private readonly lastSent = new Map<number, string>();
  private readonly throttle: Throttle;
  private readonly changes = this.disposables.add(new Emitter<FolderStatus[]>());
  /** the statuses that changed (each whole) */
  readonly onDidChange = this.changes.event;

  constructor(private readonly options: FolderStatusServiceOptions) {
    this.clock = options.clock ?? systemClock;
    this.throttle = this.disposables.add(new Throttle(() => this.flush(), FOLDER_STATUS_EVERY_MS, this.clock));
    const { queue, sync } = options;
    this.disposables.add(queue.onDidChangeItem((item) => this.itemChanged(item)));
    this.disposables.add(
      queue.onDidProgress(({ id, state }) => {
        const work = this.workOf().get(id);
        if (!work || state.kind !== 'uploading') return;
        this.moved(work.folderId, state.sentBytes - work.sent);
        work.sent = state.sentBytes;
        this.changed(work.folderId);
      }),
    );
    this.disposables.add(queue.onDidChangeStatus(() => this.changedAll()));
    this.disposables.add(options.onDidChangeAccount(() => this.changedAll()));
    this.disposables.add(sync.onDidChangeFolder((id) => this.changed(id)));
  }

  /** Every watched folder's status, in the order of folders:list. */
  statuses(): FolderStatus[] {
    return this.options.folders.list().map((folder) => this.statusOf(folder));
  }

  /** One folder's status; undefined when it is not watched. */
  status(id: number): FolderStatus | undefined {
    const folder = this.options.folders.get(id);
    return folder && this.statusOf(folder);
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private statusOf(folder: WatchedFolder): FolderStatus {
    const now = this.clock.wall();
    const activity = this.options.sync.activity(folder.id);
    const queue = this.options.queue.status();
    const paused = this.options.folders.isPaused(folder.id);
    const state = folderState({
      trouble: activity.trouble ?? this.accountTrouble(folder.accountId, now),
      paused,
      queuePause: queue.pause,
      hold: queue.hold,
      scan: activity.scan,
      settling: activity.settling + this.beingWritten(folder.id),
      ...this.work(folder.id),
      // at the first look, up to date since its last scan
      upToDateSince: this.upToDateSince.has(folder.id)
        ? (this.upToDateSince.get(folder.id) ?? now)
        : (activity.lastScanAt ?? now),
    });
    this.upToDateSince.set(folder.id, state.kind === 'watching' ? state.since : null);
    const files = this.options.files;
    return {
      id: folder.id,
      accountId: folder.accountId,
      path: folder.path,
      paused,
      state,
      counts: files.counts(folder.id, startOfDay(now)),
      lastScanAt: activity.lastScanAt,
      recent: files.recent(folder.id),
      ...(activity.polling && { polling: activity.polling }),
    };
  }

  /** The folder's account's problem (a refused token, signed out), since it was first seen. */
  private accountTrouble(accountId: string, now: number) {
    const trouble = this.options.accountProblem(accountId);
    const seen = this.accountTroubles.get(accountId);
    if (!trouble) {
      this.accountTroubles.delete(accountId);
      return null;
    }
    const since = seen?.problem === trouble.problem ? seen.since : now;
    this.accountTroubles.set(accountId, { problem: trouble.problem, since });
    return { ...trouble, since };
  }

  /** The folder's items being sent or waiting their turn, and those the person paused, with their bytes. */
  private work(folderId: number): Pick<FolderFacts, 'uploading' | 'pausedFiles'> {
    const sum = ({ paused }: { paused: boolean }) => {
      let files = 0;
      let bytesDone = 0;
      let bytesTotal = 0;
      for (const work of this.workOf().values()) {
        if (work.folderId !== folderId || work.paused !== paused || work.beingWritten) continue;
        files += 1;
        bytesDone += work.sent;
        bytesTotal += work.size;
      }
      return files === 0 ? null : { files, bytesDone, bytesTotal };
    };
    const pausedFiles = sum({ paused: true });
    const uploading = sum({ paused: false });
    if (!uploading) return { uploading: null, pausedFiles };
    const sent = this.sent.get(folderId);
    const now = this.clock.monotonic();
    // the meter counts what the folder sent in all; the time left is for what its items still lack, and only while
    // bytes move: a rate from before (files queued again after a sign-in, a pause) would say minutes for 100 KB
    const last = sent?.meter?.samples.at(-1);
    const moving = last !== undefined && now - last.at <= RATE_WINDOW_MS;
    const left = (last?.bytes ?? 0) + uploading.bytesTotal - uploading.bytesDone;
    return {
      uploading: { ...uploading, secondsLeft: moving ? etaSeconds(sent?.meter, now, left) : null },
      pausedFiles,
    };
  }

  private beingWritten(folderId: number): number {
    let files = 0;
    for (const work of this.workOf().values()) if (work.folderId === folderId && work.beingWritten) files += 1;
    return files;
  }

  private itemChanged(item: UploadItem): void {
    const folderId = item.folderId;
    if (folderId === null) return;
    const at = this.clock.wall();
    const record = (outcome: 'uploaded' | 'failed' | 'skipped', fileId: string | null) =>
      this.options.files.record({
        folderId,
        path: item.path,
        name: item.fileName,
        uploadId: item.id,
        outcome,
        fileId,
        at,
      });
    const state = item.state;
    if (state.kind === 'done') record(state.existing ? 'skipped' : 'uploaded', state.fileId);
    else if (state.kind === 'failed') record('failed', null);
    else if (state.kind === 'cancelled') record('skipped', null);
    else if (state.kind === 'queued') this.options.files.forgetFailure(folderId, item.path);
    if (this.works) {
      const work = itemWork(item, folderId);
      if (work) this.works.set(item.id, work);
      else this.works.delete(item.id);
    }
    this.changed(folderId);
  }

  private moved(folderId: number, bytes: number): void {
    if (bytes <= 0) return;
    const sent = this.sent.get(folderId) ?? { bytes: 0, meter: undefined };
    sent.bytes += bytes;
    sent.meter = observe(sent.meter, this.clock.monotonic(), sent.bytes);
    this.sent.set(folderId, sent);
  }

  /** The folders' unfinished items, read from the store once (later kept up to date by the queue's events). */
  private workOf(): Map<number, Work> {
    if (this.works) return this.works;
    const works = new Map<number, Work>();
    for (const item of this.options.unfinishedItems()) {
      const work = item.folderId === null ? undefined : itemWork(item, item.folderId);
      if (work) works.set(item.id, work);
    }
    return (this.works = works);
  }

  private changed(folderId: number): void {
    this.dirty.add(folderId);
    this.throttle.schedule();
  }

  private changedAll(): void {
    for (const folder of this.options.folders.list()) this.dirty.add(folder.id);
    this.throttle.schedule();
  }

  private flush(): void {
    const changed: FolderStatus[] = [];
    for (const id of this.dirty) {
      const status = this.status(id);
      if (!status) {
        this.lastSent.delete(id);
        continue;
      }
      const key = JSON.stringify(status);
      if (this.lastSent.get(id) === key) continue;
      this.lastSent.set(id, key);
      changed.push(status);
    }
    this.dirty.clear();
    if (changed.length > 0) this.changes.fire(changed);
  }
}

/** Local midnight of the day of `now` (epoch ms). */
export function startOfDay(now: number): number {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}
