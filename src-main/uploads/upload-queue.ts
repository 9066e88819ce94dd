import { basename, resolve } from 'node:path';
import { z } from 'zod';
import { API_LIMITS, UpdateFileBodySchema, type MediaFile } from '../../src-shared/api/index.js';
import { sameQueueHold, type QueueHold } from '../../src-shared/model/queue-hold.js';
import type { QueuePause } from '../../src-shared/model/queue-pause.js';
import { ackedBytes } from '../../src-shared/model/chunk-bytes.js';
import { ACTIVE_KINDS, type UploadItem, type UploadMetadata } from '../../src-shared/model/upload-state.js';
import type { Visibility } from '../../src-shared/model/visibility.js';
import { ApiError } from '../api-client/api-error.js';
import { FileChangedError } from '../api-client/multipart-body.js';
import type { MediaApiClient } from '../api-client/media-api-client.js';
import { systemClock, type Clock } from '../common/clock.js';
import { CoreError } from '../common/core-error.js';
import { DisposableStore, Emitter, type Disposable, type Event } from '../common/disposable.js';
import { quickFingerprint, sameVersion, type FileIdentity } from '../common/file-fingerprint.js';
import { sameFileOnDisk } from '../common/path-spellings.js';
import type { AppStateStore } from '../storage/app-state-store.js';
import { DEFAULT_SETTLE_MS, settleWindowFor } from '../sync/stability.js';
import type { BandwidthLimiter } from './bandwidth-limiter.js';
import { ChunkedUpload } from './chunked-upload.js';
import { noWriterProbe, type FileWriter, type WriterProbe } from './file-writers.js';
import { ItemStates, type ItemProgress } from './item-states.js';
import { Semaphore } from './semaphore.js';
import { isRetryableFailure, problemOf } from './upload-errors.js';
import { isFinal, type UploadStore } from './upload-store.js';
import type { UploadEvent } from './upload-transition.js';

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

export interface EnqueueInput {
  accountId: string;
  path: string;
  /** `visibility` of the upload; null leaves the server's default (private) */
  visibility?: Visibility | null;
  metadata?: UploadMetadata;
  folderId?: number | null;
  /** upload again even if this exact file was uploaded before */
  force?: boolean;
  /** the file's identity, when the caller has just read it (a watched folder's file that settled) */
  identity?: FileIdentity;
}

export interface EnqueueResult {
  item: UploadItem;
  /** `new`: queued now; `resumed`: an unfinished (or failed) upload of the same file; `done`: already uploaded */
  outcome: 'new' | 'resumed' | 'done';
}

/** An item is done. */
export interface UploadedEvent {
  item: UploadItem;
  /** the server's File when its answer carried one (links, no extra request) */
  file: MediaFile | null;
  /** the file changed as the service took it: the copy of that version was deleted once this one was there */
  replacedStale: boolean;
}

/** The engine's own view of its pause, hold and work; the core turns it into the contract's QueueStatus. */
export interface QueueRunState {
  /** the person's own pause, null when not paused */
  pause: QueuePause | null;
  /** the app's own hold (schedule, battery), apart from the person's pause; null when none */
  hold: QueueHold | null;
  active: number;
}

type StopReason = 'pause' | 'cancel' | 'stop';

/** One running item. */
interface Worker {
  controller: AbortController;
  done: Promise<void>;
  upload: ChunkedUpload | null;
  /** set by a pause after this chunk: what ends the item once the chunks in flight are committed */
  after: Extract<UploadEvent, { type: 'pause' | 'interrupt' }> | null;
}

/** How a pause stops what runs: now (abandoning the chunks in flight), or once they are committed. */
export type PauseOptions = { afterChunk?: boolean };

/** A file held open for writing is looked at again this often (its row says so meanwhile). */
export const WRITER_RECHECK_MS = 2_000;

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
  private readonly random: () => number;
  private chunkSize: number;
  private readonly chunksPerFile: number;
  private concurrency: number;
  private readonly slots: Semaphore;
  private readonly workers = new Map<number, Worker>();
  private wake: { at: number; cancel: AbortController } | null = null;
  private running = false;
  /** in memory only: whoever sets it (the schedule, the power source) sets it again at start */
  private hold: QueueHold | null = null;
  private readonly disposables = new DisposableStore();
  private readonly items: ItemStates;
  private readonly statusEmitter = this.disposables.add(new Emitter<QueueRunState>());
  private readonly uploadedEmitter = this.disposables.add(new Emitter<UploadedEvent>());
  private readonly idleWaiters: Array<() => void> = [];
  /** queued items whose file a process writes: who held it, and when it is looked at again (wall ms); in memory */
  private readonly beingWritten = new Map<number, { writer: FileWriter; checkAt: number }>();
  /** a stored item changed (state, or a new item) */
  readonly onDidChangeItem: Event<UploadItem>;
  /** bytes moved in a running item (frequent: throttle before showing) */
  readonly onDidProgress: Event<ItemProgress>;
  readonly onDidChangeStatus = this.statusEmitter.event;
  /** an item is done */
  readonly onDidUpload = this.uploadedEmitter.event;

  constructor(private readonly options: UploadQueueOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.chunkSize = options.chunkSize ?? API_LIMITS.chunkSizeBytes;
    this.chunksPerFile = options.chunksPerFile ?? 3;
    this.concurrency = options.concurrency ?? 3;
    this.slots = new Semaphore(this.concurrency);
    this.items = this.disposables.add(new ItemStates(options.store, this.clock));
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
    const path = resolve(input.path);
    const metadata = UpdateFileBodySchema.safeParse(input.metadata ?? {});
    // the contract refuses such details first; here too they are a mistake in what was asked, not a failure to log
    if (!metadata.success) {
      throw new CoreError('VALIDATION_ERROR', `Invalid file details: ${z.prettifyError(metadata.error)}`);
    }
    const identity = input.identity ?? (await quickFingerprint(path));
    const store = this.options.store;
    let existing = await this.unfinishedUploadOf(path);
    if (existing && existing.accountId !== input.accountId && !this.options.clientFor(existing.accountId)) {
      // queued for an account signed out since: the file goes to the account it is asked for now
      [existing] = this.moveToAccount([existing.id], input.accountId, input.folderId ?? null);
    }
    if (existing) {
      const item = await this.resumeWith(existing, identity);
      this.pump();
      return { item, outcome: 'resumed' };
    }
    if (!input.force) {
      const done = store.findDone(path, identity, input.accountId);
      if (done) return { item: done, outcome: 'done' };
    }
    const item = store.insert({
      accountId: input.accountId,
      path,
      // the name the file has on the service: composed, whatever the disk holds (UploadItemSchema)
      fileName: basename(path).normalize('NFC'),
      identity,
      visibility: input.visibility ?? null,
      metadata: input.metadata ?? {},
      folderId: input.folderId ?? null,
      chunkSize: this.chunkSize,
    });
    this.items.added(item);
    this.pump();
    return { item, outcome: 'new' };
  }

  /**
   * The unfinished upload of the file at `path`: at this path, or at another
   * spelling of its name that is the same file on disk (a file system that
   * ignores the difference). On one that keeps both (Linux), two spellings
   * are two files, each with its own upload.
   */
  private async unfinishedUploadOf(path: string): Promise<UploadItem | undefined> {
    for (const item of this.options.store.findUnfinishedByPath(path)) {
      if (item.path === path || (await sameFileOnDisk(item.path, path))) return item;
    }
    return undefined;
  }

  /**
   * The unfinished upload of a file enqueued again: a failed one goes back
   * in line. Given another version of the file than the item's (a folder's
   * file that settled after a change, or a person uploading it again), an
   * item not running starts over from it, at once: a wait for the file to
   * settle (`changed`) is over. One whose last request may have made a file
   * (`finalSent`) is left to look for that file first.
   */
  private async resumeWith(item: UploadItem, identity: FileIdentity): Promise<UploadItem> {
    const store = this.options.store;
    const other = !sameVersion(identity, item);
    if (other && !this.workers.has(item.id) && !item.finalSent) store.restart(item.id, { identity });
    const state = item.state;
    if (state.kind === 'failed' || (state.kind === 'retrying' && state.changed && other)) {
      return (await this.retry(item.id)) ?? item;
    }
    return store.get(item.id) ?? item;
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
      (id) => !(options.afterChunk && this.finishInFlight(id, { type: 'interrupt' })),
    );
    await this.abortWorkers(now, 'stop');
    this.pump();
  }

  resumeAll(): void {
    this.setPause(null);
    for (const [id, worker] of this.workers) if (worker.after?.type === 'interrupt') this.keepGoing(id);
    this.pump();
  }

  /** `afterChunk`: an upload with a chunk in flight finishes it (committed), then pauses. */
  async pause(id: number, until: number | null = null, options: PauseOptions = {}): Promise<UploadItem | undefined> {
    if (options.afterChunk && this.finishInFlight(id, { type: 'pause', until })) return this.get(id);
    return this.command(id, { type: 'pause', until }, 'pause');
  }

  async resume(id: number): Promise<UploadItem | undefined> {
    // under the queue's pause the item waits for the queue, as a paused one would
    if (this.workers.get(id)?.after?.type === 'pause' && this.keepGoing(id)) return this.get(id);
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
    return this.options.store.clearFinished();
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
    this.beingWritten.delete(id);
    const item = this.options.store.get(id);
    if (!item) return undefined;
    this.items.apply(item, event);
    this.pump();
    return this.options.store.get(id);
  }

  /**
   * Lets the chunks in flight of a running item finish, starting none, then
   * ends it with `after`; false when it has none in flight (nothing to wait for).
   */
  private finishInFlight(id: number, after: NonNullable<Worker['after']>): boolean {
    const worker = this.workers.get(id);
    if (!worker?.upload?.finishInFlight()) return false;
    // the item's own pause outlasts the queue's
    if (worker.after?.type !== 'pause') worker.after = after;
    this.items.applyTo(id, { type: 'pauseAfterChunk' });
    return true;
  }

  /** Takes a pause after this chunk back; false when the upload ended meanwhile. */
  private keepGoing(id: number): boolean {
    const worker = this.workers.get(id);
    if (!worker?.upload?.keepGoing()) return false;
    worker.after = null;
    this.items.applyTo(id, { type: 'resume' });
    return true;
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

  private settleMsFor(item: UploadItem): number {
    return this.options.settleMsFor?.(item) ?? settleWindowFor(item.size, DEFAULT_SETTLE_MS);
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
    const written = [...this.beingWritten].filter(([, { checkAt }]) => checkAt > now).map(([id]) => id);
    if (free > 0) {
      const accounts = this.options.readyAccounts();
      const folders = this.options.pausedFolders?.() ?? [];
      const skip = [...this.workers.keys(), ...written];
      for (const item of store.runnable(now, skip, accounts, free, folders)) {
        const client = this.options.clientFor(item.accountId);
        if (!client) continue;
        this.launch(item.state.kind === 'paused' ? this.items.apply(item, { type: 'resume' }) : item, client);
      }
    }
    const next = Math.min(store.nextWake(now) ?? Infinity, ...written.map((id) => this.beingWritten.get(id)!.checkAt));
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

  /**
   * Whether a process still holds the item's file open for writing (a
   * recorder between two flushes, past the settle window): then it stays
   * queued, saying so, and is looked at again in WRITER_RECHECK_MS.
   */
  private async stillWritten(item: UploadItem, signal: AbortSignal): Promise<boolean> {
    const writer = await (this.options.writers ?? noWriterProbe).writerOf(
      item.path,
      this.beingWritten.get(item.id)?.writer,
    );
    // paused, cancelled or stopped meanwhile: the command moves the state
    if (signal.aborted) return true;
    if (writer === null) {
      this.beingWritten.delete(item.id);
      return false;
    }
    this.beingWritten.set(item.id, { writer, checkAt: this.clock.wall() + WRITER_RECHECK_MS });
    this.items.apply(item, { type: 'wait', reason: 'beingWritten' });
    return true;
  }

  /** Starts a worker on `item`, as the store holds it now. */
  private launch(item: UploadItem, client: MediaApiClient): void {
    const id = item.id;
    const worker: Worker = { controller: new AbortController(), done: Promise.resolve(), upload: null, after: null };
    this.workers.set(id, worker);
    worker.done = this.work(item, client, worker)
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

  private async work(stored: UploadItem, client: MediaApiClient, worker: Worker): Promise<void> {
    const id = stored.id;
    const signal = worker.controller.signal;
    if (isFinal(stored)) return;
    const upload = (worker.upload = new ChunkedUpload(stored, {
      client,
      store: this.options.store,
      limiter: this.options.limiter,
      clock: this.clock,
      fileSizeLimit: this.options.fileSizeLimitFor(stored.accountId),
      chunksPerFile: this.chunksPerFile,
      skipIfOnService: this.options.skipIfOnService?.(stored) ?? false,
      withSlot: (slotSignal, run) => this.slots.run(slotSignal, run),
      onProgress: (progress, committed) => this.items.progress(stored, progress, committed),
    }));
    const interrupt: UploadEvent = { type: 'interrupt' };
    try {
      if (stored.state.kind === 'queued' && (await this.stillWritten(stored, signal))) return;
      this.items.apply(stored, { type: 'start', totalBytes: stored.size, ackedBytes: ackedBytes(stored) });
      const outcome = await upload.send(signal);
      if (outcome.kind !== 'sent') {
        // drained (a pause after this chunk) or restarting: back in line, or paused if a pause waited
        this.items.applyTo(id, worker.after ?? interrupt);
        return;
      }
      if (!outcome.existing && upload.hasMetadata()) {
        this.items.applyTo(id, { type: 'bytesSent' });
        await upload.applyMetadata(outcome.fileId, signal);
      }
      // done with its file id (straight from the last answer when there were no details to send), one event, and
      // what the listeners write of it (the folder's index, the followed file): one commit
      this.options.store.batch(() => {
        const { fileId, existing } = outcome;
        const succeed: UploadEvent = { type: 'succeed', fileId, now: this.clock.wall(), ...(existing && { existing }) };
        const done = this.items.applyTo(id, { type: 'bytesSent' }, succeed);
        this.uploadedEmitter.fire({ item: done, file: outcome.file, replacedStale: outcome.replacedStale ?? false });
      });
    } catch (error) {
      // nothing can be saved: the item stays as last saved, and goes on once the disk has room
      if (this.outOfSpace(error)) return;
      const current = this.options.store.get(id);
      if (!current) return;
      if (signal.aborted) {
        // pause and cancel already moved the state; quit and global pause put the item back in line
        if (signal.reason === 'stop') this.items.apply(current, worker.after ?? interrupt);
        return;
      }
      if (error instanceof ApiError && error.isAuthProblem) {
        this.items.apply(current, worker.after ?? interrupt);
        return;
      }
      const now = this.clock.wall();
      const failed = this.items.apply(
        current,
        error instanceof FileChangedError
          ? { type: 'changed', problem: problemOf(error), now, settleMs: this.settleMsFor(current) }
          : {
              type: 'fail',
              problem: problemOf(error),
              retryable: isRetryableFailure(error),
              now,
              random: this.random(),
            },
      );
      // a pause the person asked for while the chunk failed still holds, over the retry
      if (worker.after?.type === 'pause') this.items.apply(failed, worker.after);
    }
  }
}
