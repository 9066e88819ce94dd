import { API_LIMITS } from '../../src-shared/api/index.js';
import { sameQueueHold, type QueueHold } from '../../src-shared/model/queue-hold.js';
import type { QueuePause } from '../../src-shared/model/queue-pause.js';
import { ACTIVE_KINDS, type UploadItem } from '../../src-shared/model/upload-state.js';
import { ApiError } from '../api-client/api-error.js';
import type { MediaApiClient } from '../api-client/media-api-client.js';
import { systemClock, type Clock } from '../common/clock.js';
import { DisposableStore, Emitter, type Disposable, type Event } from '../common/disposable.js';
import type { AppStateStore } from '../storage/app-state-store.js';
import { DEFAULT_SETTLE_MS, settleWindowFor } from '../sync/stability.js';
import type { BandwidthLimiter } from './bandwidth-limiter.js';
import { enqueue, type EnqueueInput, type EnqueueResult } from './enqueue.js';
import { noWriterProbe, type WriterProbe } from './file-writers.js';
import { ItemStates, type ItemProgress } from './item-states.js';
import { Semaphore } from './semaphore.js';
import type { UploadStore } from './upload-store.js';
import type { UploadEvent } from './upload-transition.js';
import { UploadWorker, type StopReason, type UploadedEvent, type WorkerContext } from './upload-worker.js';
import { WriterWaits } from './writer-waits.js';

export interface UploadQueueOptions {
  store: UploadStore;
  appState: AppStateStore;
  /** the API client of an account, or null when the account is gone */
  clientFor(accountId: string): MediaApiClient | null;
  /**
   * the accounts whose items may start: signed in, their token not refused;
   * the items of any other (refused, signed out) wait without taking a turn
   */
  readyAccounts(): string[];
  /** watched folders the person paused: their items not started wait (poke() once one is resumed) */
  pausedFolders?(): readonly number[];
  /** the largest file the account's plan accepts, in bytes */
  fileSizeLimitFor(accountId: string): number;
  limiter: BandwidthLimiter;
  clock?: Clock;
  random?: () => number;
  chunkSize?: number;
  /** upload requests in flight across all files */
  concurrency?: number;
  /** chunks of one file in flight */
  chunksPerFile?: number;
  /** whether an item not started yet is first looked for on the service (its folder's `skipExisting`) */
  skipIfOnService?: (item: UploadItem) => boolean;
  /**
   * A write to the store failed: whether for lack of room (DataDisk.report).
   * Then the item is left as last saved, and goes back in line once the
   * hold of the full disk is lifted.
   */
  outOfSpace?: (error: unknown) => boolean;
  /** who holds a file open for writing (file-writers.ts): such a file does not start; none by default */
  writers?: WriterProbe;
  /**
   * How long a file that changed under its upload must stay the same before
   * it starts over: the watcher's settle window for its size (by default
   * that of a folder with no window of its own)
   */
  settleMsFor?: (item: UploadItem) => number;
}

/** The engine's own view of its pause, hold and work; the core turns it into the contract's QueueStatus. */
export interface QueueRunState {
  /** the person's own pause, null when not paused */
  pause: QueuePause | null;
  /** the app's own hold (schedule, battery), apart from the person's pause; null when none */
  hold: QueueHold | null;
  active: number;
}

/** How a pause stops what runs: now (abandoning the chunks in flight), or once they are committed. */
export type PauseOptions = { afterChunk?: boolean };

/**
 * Runs the upload queue (docs/uploads.md): picks queued items in order, has
 * a worker send each through its account's client (ChunkedUpload), and
 * records every step in the store.
 *
 * Invariants, per item:
 * - one worker at most; its state changes only through `transition`;
 * - at most `concurrency` upload requests in flight across all files;
 * - a 401/403 puts the item back in the queue: the account waits, the file
 *   keeps its attempts.
 */
export class UploadQueue implements Disposable {
  private readonly clock: Clock;
  private chunkSize: number;
  private concurrency: number;
  private readonly slots: Semaphore;
  private readonly workers = new Map<number, UploadWorker>();
  private readonly context: WorkerContext;
  private wake: { at: number; cancel: AbortController } | null = null;
  private running = false;
  /** in memory only: whoever sets it (the schedule, the power source) sets it again at start */
  private hold: QueueHold | null = null;
  private readonly disposables = new DisposableStore();
  private readonly items: ItemStates;
  private readonly statusEmitter = this.disposables.add(new Emitter<QueueRunState>());
  private readonly uploadedEmitter = this.disposables.add(new Emitter<UploadedEvent>());
  private readonly removeEmitter = this.disposables.add(new Emitter<number>());
  private readonly idleWaiters: Array<() => void> = [];
  private readonly writers: WriterWaits;
  /** a stored item changed (state, or a new item) */
  readonly onDidChangeItem: Event<UploadItem>;
  /** bytes moved in a running item (frequent: throttle before showing) */
  readonly onDidProgress: Event<ItemProgress>;
  readonly onDidChangeStatus = this.statusEmitter.event;
  /** an item is done */
  readonly onDidUpload = this.uploadedEmitter.event;
  /** items left the queue's list (cleared, or no longer wanted): how many */
  readonly onDidRemove = this.removeEmitter.event;

  constructor(private readonly options: UploadQueueOptions) {
    this.clock = options.clock ?? systemClock;
    this.chunkSize = options.chunkSize ?? API_LIMITS.chunkSizeBytes;
    this.concurrency = options.concurrency ?? 3;
    this.slots = new Semaphore(this.concurrency);
    this.items = this.disposables.add(new ItemStates(options.store, this.clock));
    this.writers = new WriterWaits(options.writers ?? noWriterProbe, this.items, this.clock);
    this.context = {
      store: options.store,
      items: this.items,
      limiter: options.limiter,
      clock: this.clock,
      random: options.random ?? Math.random,
      chunksPerFile: options.chunksPerFile ?? 3,
      slots: this.slots,
      writers: this.writers,
      fileSizeLimitFor: (accountId) => options.fileSizeLimitFor(accountId),
      skipIfOnService: (item) => options.skipIfOnService?.(item) ?? false,
      settleMsFor: (item) => options.settleMsFor?.(item) ?? settleWindowFor(item.size, DEFAULT_SETTLE_MS),
      outOfSpace: (error) => this.outOfSpace(error),
      uploaded: (event) => this.uploadedEmitter.fire(event),
    };
    this.onDidChangeItem = this.items.onDidChangeItem;
    this.onDidProgress = this.items.onDidProgress;
  }

  /** Recovers what a crash left running and starts picking items. */
  start(): void {
    if (this.running) return;
    this.running = true;
    // a worker was running when the app stopped: it goes back in line, keeping its chunks
    this.requeueStopped();
    this.pump();
  }

  /** Stops every worker; their items go back to `queued` with their chunks kept. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.cancel.abort();
    this.wake = null;
    await this.abortWorkers([...this.workers.keys()], 'stop');
  }

  /** Drops every listener; after `stop`, when the queue's owner closes. */
  dispose(): void {
    this.disposables.dispose();
  }

  async enqueue(input: EnqueueInput): Promise<EnqueueResult> {
    const result = await enqueue(input, {
      store: this.options.store,
      chunkSize: this.chunkSize,
      hasClient: (accountId) => this.options.clientFor(accountId) !== null,
      isRunning: (id) => this.workers.has(id),
      retry: (id) => this.retry(id),
      moveToAccount: (ids, accountId, folderId) => this.moveToAccount(ids, accountId, folderId),
      added: (item) => this.items.added(item),
    });
    if (result.outcome !== 'done') this.pump();
    return result;
  }

  /** The items not done, failed or cancelled, in queue order, with the running items' progress. */
  listActive(): UploadItem[] {
    return this.options.store.unfinished().map((item) => this.items.withProgress(item));
  }

  /** One page of the queue (queue order) with the running items' progress, and the queue's length. */
  page(offset: number, limit: number): { items: UploadItem[]; total: number } {
    const { items, total } = this.options.store.page(offset, limit);
    return { items: items.map((item) => this.items.withProgress(item)), total };
  }

  get(id: number): UploadItem | undefined {
    const item = this.options.store.get(id);
    return item && this.items.withProgress(item);
  }

  /** The items being uploaded now, with their bytes. */
  runningItems(): UploadItem[] {
    return [...this.workers.keys()].flatMap((id) => this.get(id) ?? []);
  }

  status(): QueueRunState {
    return { pause: this.options.appState.queuePause(), hold: this.hold, active: this.workers.size };
  }

  /**
   * Holds the whole queue for the app's own reason (the schedule, the
   * battery), or (null) lets it go. Apart from the person's pause: a hold
   * never changes `pause`, and pauseAll/resumeAll never change the
   * hold, so the queue runs only when neither holds it. Running uploads stop
   * as for a pause (back in line, their chunks kept).
   */
  async setHold(hold: QueueHold | null): Promise<void> {
    if (sameQueueHold(this.hold, hold)) return;
    const started = this.hold === null;
    this.hold = hold;
    this.statusEmitter.fire(this.status());
    if (hold !== null && started) await this.abortWorkers([...this.workers.keys()], 'stop');
    if (hold === null) {
      try {
        this.requeueStopped();
      } catch (error) {
        if (!this.outOfSpace(error)) throw error;
      }
    }
    this.pump();
  }

  /**
   * Pauses the whole queue, until a wall-clock time or (null) until resumed.
   * `afterChunk`: uploads with a chunk in flight finish it (committed) first.
   */
  async pauseAll(until: number | null, options: PauseOptions = {}): Promise<void> {
    this.setPause({ until });
    const now = [...this.workers.keys()].filter(
      (id) => !(options.afterChunk && this.workers.get(id)?.finishInFlight({ type: 'interrupt' })),
    );
    await this.abortWorkers(now, 'stop');
    this.pump();
  }

  resumeAll(): void {
    this.setPause(null);
    for (const worker of this.workers.values()) if (worker.after?.type === 'interrupt') worker.keepGoing();
    this.pump();
  }

  /** `afterChunk`: an upload with a chunk in flight finishes it (committed), then pauses. */
  async pause(id: number, until: number | null = null, options: PauseOptions = {}): Promise<UploadItem | undefined> {
    if (options.afterChunk && this.workers.get(id)?.finishInFlight({ type: 'pause', until })) return this.get(id);
    return this.command(id, { type: 'pause', until }, 'pause');
  }

  async resume(id: number): Promise<UploadItem | undefined> {
    // under the queue's pause the item waits for the queue, as a paused one would
    const worker = this.workers.get(id);
    if (worker?.after?.type === 'pause' && worker.keepGoing()) return this.get(id);
    return this.command(id, { type: 'resume' });
  }

  async cancel(id: number): Promise<UploadItem | undefined> {
    return this.command(id, { type: 'cancel' }, 'cancel');
  }

  /** A failed or cancelled item goes back in line with fresh attempts; an item waiting to retry goes now. */
  async retry(id: number): Promise<UploadItem | undefined> {
    const item = this.options.store.get(id);
    if (item?.state.kind === 'retrying') {
      this.items.save(item, { ...item.state, retryAt: this.clock.wall() });
      this.pump();
      return this.options.store.get(id);
    }
    return this.command(id, { type: 'retry' });
  }

  /**
   * True while uploads run or wait their turn: a restart (an update) should
   * wait. Paused items, and everything while the queue is paused, are not work.
   */
  hasWork(): boolean {
    if (this.workers.size > 0) return true;
    if (this.options.appState.queuePause() !== null || this.hold !== null) return false;
    return this.options.store.count(ACTIVE_KINDS) > 0;
  }

  /** Every item waiting out a backoff goes now (the network is probably back); attempts are not reset. */
  retryNow(): void {
    const now = this.clock.wall();
    for (const item of this.options.store.ofKind('retrying')) {
      // a changed file waits for itself, not for the network
      if (item.state.kind === 'retrying' && item.state.retryAt > now && !item.state.changed)
        this.items.save(item, { ...item.state, retryAt: now });
    }
    this.pump();
  }

  clearFinished(): number {
    return this.removed(this.options.store.clearFinished());
  }

  /**
   * Takes the items of a watched folder that `leftAlone` picks off the queue
   * as if never queued (the folder's rules now leave them alone), not as
   * declined: should the rules change back, the folder's next walk queues
   * them again. An item being sent, or whose last request may have reached
   * the service, stays and finishes.
   */
  forget(folderId: number, leftAlone: (item: UploadItem) => boolean): number {
    const ids = this.options.store
      .unfinishedOfFolder(folderId)
      .filter((item) => !this.workers.has(item.id) && !item.finalSent && leftAlone(item))
      .map((item) => item.id);
    return this.removed(this.options.store.remove(ids));
  }

  private removed(count: number): number {
    if (count > 0) this.removeEmitter.fire(count);
    return count;
  }

  /** Upload requests in flight across all files, from now on. */
  setConcurrency(concurrency: number): void {
    this.concurrency = concurrency;
    this.slots.setCapacity(concurrency);
    this.pump();
  }

  /** The chunk size of uploads queued from now on; queued ones keep theirs, so their chunks still line up. */
  setChunkSize(bytes: number): void {
    this.chunkSize = bytes;
  }

  /**
   * An account signs out (its client is already gone, so none of its items
   * starts again): its running uploads stop where they are, back in line
   * with their acknowledged chunks, to go on once it signs in again.
   */
  async releaseAccount(accountId: string): Promise<void> {
    const ids = [...this.workers.keys()].filter((id) => this.options.store.get(id)?.accountId === accountId);
    await this.abortWorkers(ids, 'stop');
  }

  /**
   * Items of an account that is signed out go to `accountId` (their folder
   * moved to it, or the file was queued again for it), and, given, to another
   * watched folder: each starts over there (UploadStore.moveToAccount).
   */
  moveToAccount(ids: readonly number[], accountId: string, folderId?: number | null): UploadItem[] {
    const moved = this.options.store.moveToAccount(ids, accountId, folderId);
    // announced as changed items: their account (and folder) is another now
    for (const item of moved) this.items.added(item);
    this.pump();
    return moved;
  }

  /** Looks for runnable items again: call when an account's token was replaced or its gate reopened. */
  poke(): void {
    this.pump();
  }

  /** Resolves when no item can run now (all final, paused, blocked or waiting for a retry time). */
  whenIdle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.pump();
    });
  }

  private async command(id: number, event: UploadEvent, stop?: StopReason): Promise<UploadItem | undefined> {
    if (stop && this.workers.has(id)) await this.abortWorkers([id], stop);
    this.writers.forget(id);
    const item = this.options.store.get(id);
    if (!item) return undefined;
    this.items.apply(item, event);
    this.pump();
    return this.options.store.get(id);
  }

  /**
   * Items saved as `uploading` or `finalizing` with no worker go back in
   * line, keeping their chunks: the app stopped while they ran, or their
   * stop could not be saved (a full disk).
   */
  private requeueStopped(): void {
    for (const kind of ['uploading', 'finalizing'] as const) {
      for (const item of this.options.store.ofKind(kind)) {
        if (!this.workers.has(item.id)) this.items.apply(item, { type: 'interrupt' });
      }
    }
  }

  /** Whether a failed write was for lack of room (the app's disk is full from now on); never the service's answer. */
  private outOfSpace(error: unknown): boolean {
    return !(error instanceof ApiError) && (this.options.outOfSpace?.(error) ?? false);
  }

  private async abortWorkers(ids: number[], reason: StopReason): Promise<void> {
    const waits = ids.flatMap((id) => {
      const worker = this.workers.get(id);
      if (!worker) return [];
      worker.controller.abort(reason);
      return [worker.done];
    });
    await Promise.all(waits);
  }

  private setPause(pause: QueuePause | null): void {
    this.options.appState.setQueuePause(pause);
    this.statusEmitter.fire(this.status());
  }

  /** Starts workers for runnable items, and sets a timer for the next item that becomes runnable. */
  private pump(): void {
    if (!this.running) return this.settleIdle();
    const pause = this.options.appState.queuePause();
    // a pause whose time has come ends here, in the runner woken for it
    if (pause?.until != null && pause.until <= this.clock.wall()) this.setPause(null);
    else if (pause) {
      if (pause.until !== null) this.wakeAt(pause.until);
      return this.settleIdle();
    }
    // the holder lets the queue go itself (setHold(null)): no timer here
    if (this.hold !== null) return this.settleIdle();
    const store = this.options.store;
    const now = this.clock.wall();
    const free = this.concurrency - this.workers.size;
    const written = this.writers.waiting(now);
    if (free > 0) {
      const runnable = store.runnable({
        now,
        limit: free,
        accounts: this.options.readyAccounts(),
        skipIds: [...this.workers.keys(), ...written.ids],
        skipFolders: this.options.pausedFolders?.() ?? [],
      });
      for (const item of runnable) {
        const client = this.options.clientFor(item.accountId);
        if (!client) continue;
        this.launch(item.state.kind === 'paused' ? this.items.apply(item, { type: 'resume' }) : item, client);
      }
    }
    const next = Math.min(store.nextWake(now) ?? Infinity, written.nextCheck);
    if (Number.isFinite(next)) this.wakeAt(next);
    this.settleIdle();
  }

  private settleIdle(): void {
    if (this.workers.size > 0) return;
    for (const resolveIdle of this.idleWaiters.splice(0)) resolveIdle();
  }

  private wakeAt(wallTime: number): void {
    if (this.wake && this.wake.at <= wallTime) return;
    this.wake?.cancel.abort();
    const cancel = new AbortController();
    this.wake = { at: wallTime, cancel };
    this.clock.sleep(Math.max(0, wallTime - this.clock.wall()), cancel.signal).then(
      () => {
        if (this.wake?.cancel === cancel) this.wake = null;
        this.pump();
      },
      () => undefined,
    );
  }

  /** Starts a worker on `item`, as the store holds it now. */
  private launch(item: UploadItem, client: MediaApiClient): void {
    const id = item.id;
    const worker = new UploadWorker(item, client, this.context);
    this.workers.set(id, worker);
    worker.done = worker
      .run()
      .catch((error: unknown) => {
        // its stop could not be saved for lack of room: the row stays as it was (requeueStopped)
        if (!this.outOfSpace(error)) throw error;
      })
      .finally(() => {
        this.workers.delete(id);
        this.items.stopped(id);
        // stopped by a pause, a cancel or a hold: whoever stopped it moves its state, then looks for work; a look
        // now could start it again, still queued (stopped while its file's writers were looked for)
        if (!worker.controller.signal.aborted) this.pump();
      });
  }
}
