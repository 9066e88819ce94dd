import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { UploadItem, UploadMetadata, UploadProblem, UploadState } from '../../src-shared/model/upload-state.js';
import { englishText, message } from '../../src-shared/i18n/message.js';
import { sameQueueHold, type QueueHold } from '../../src-shared/model/queue-hold.js';
import { z } from 'zod';
import { API_LIMITS, UpdateFileBodySchema } from '../../src-shared/api/index.js';
import { ApiError } from '../api-client/api-error.js';
import type { MediaApiClient, UploadAck } from '../api-client/media-api-client.js';
import type { MediaFile } from '../../src-shared/api/index.js';
import { FileChangedError } from '../api-client/multipart-body.js';
import { systemClock, type Clock } from '../common/clock.js';
import { Emitter } from '../common/disposable.js';
import { formatGibibytes } from '../../src-shared/model/format.js';
import { quickFingerprint, type FileIdentity } from '../common/file-fingerprint.js';
import type { AppStateStore } from '../storage/app-state-store.js';
import type { BandwidthLimiter } from './bandwidth-limiter.js';
import { Semaphore } from './semaphore.js';
import { isFinal, type UploadStore } from './upload-store.js';
import { transition, type UploadEvent } from './upload-transition.js';

export interface UploadQueueOptions {
  store: UploadStore;
  appState: AppStateStore;
  /** the API client of an account, or null when the account is gone */
  clientFor(accountId: string): MediaApiClient | null;
  /** accounts whose token the server refused: their items wait */
  blockedAccounts(): string[];
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
}

export interface EnqueueInput {
  accountId: string;
  path: string;
  /** `visibility` of the upload; null leaves the server's default (private) */
  visibility?: boolean | null;
  metadata?: UploadMetadata;
  folderId?: number | null;
  /** upload again even if this exact file was uploaded before */
  force?: boolean;
}

export interface EnqueueResult {
  item: UploadItem;
  /** `new`: queued now; `resumed`: an unfinished (or failed) upload of the same file; `done`: already uploaded */
  outcome: 'new' | 'resumed' | 'done';
}

export interface QueueStatus {
  /** the person's own pause: null when not paused; a wall-clock time, or Infinity for "until resumed" */
  pausedUntil: number | null;
  /** the app's own hold (schedule, battery), apart from the person's pause; null when none */
  hold: QueueHold | null;
  active: number;
}

/** Progress of a running item, kept in memory: the database holds acknowledged chunks only. */
export interface ItemProgress {
  id: number;
  state: UploadState;
}

type StopReason = 'pause' | 'cancel' | 'stop';

const GLOBAL_PAUSE_KEY = 'uploads.pausedUntil';
/**
 * Bytes-moved announcements of one item at most this often (a UI needs no
 * more than 10 Hz): one per 1 MiB piece, with 3 in flight, was a queue-wide
 * event and a state object every third of a millisecond at full speed.
 */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * Runs the upload queue (DESIGN.md §4): picks queued items in order, uploads
 * them through their account's client, and records every step in the store.
 *
 * Invariants, per item:
 * - one worker at most; its state changes only through `transition`;
 * - a chunk counts as sent only once its acknowledgement is committed;
 * - resuming sends exactly the chunks not acknowledged, with the same dzuuid,
 *   unless the file changed (size, mtime or fingerprint): then a new dzuuid;
 * - the last chunk goes alone, after all others; a request that may finish the
 *   file is never repeated before looking for the file it may have made;
 * - a 401/403 puts the item back in the queue: the account waits, the file
 *   keeps its attempts.
 */
export class UploadQueue {
  private readonly clock: Clock;
  private readonly random: () => number;
  private chunkSize: number;
  private readonly chunksPerFile: number;
  private concurrency: number;
  private readonly slots: Semaphore;
  private readonly workers = new Map<number, { controller: AbortController; done: Promise<void> }>();
  private readonly progress = new Map<number, UploadState>();
  /** when each running item last announced bytes moved (monotonic ms) */
  private readonly progressAt = new Map<number, number>();
  private wake: { at: number; cancel: AbortController } | null = null;
  private running = false;
  /** in memory only: whoever sets it (the schedule, the power source) sets it again at start */
  private hold: QueueHold | null = null;
  private readonly itemEmitter = new Emitter<UploadItem>();
  private readonly progressEmitter = new Emitter<ItemProgress>();
  private readonly statusEmitter = new Emitter<QueueStatus>();
  private readonly uploadedEmitter = new Emitter<{ item: UploadItem; file: MediaFile | null }>();
  private readonly idleWaiters: Array<() => void> = [];
  /** a stored item changed (state, or a new item) */
  readonly onDidChangeItem = this.itemEmitter.event;
  /** bytes moved in a running item (frequent: throttle before showing) */
  readonly onDidProgress = this.progressEmitter.event;
  readonly onDidChangeStatus = this.statusEmitter.event;
  /** an item is done; `file` is the server's File when its answer carried one (links, no extra request) */
  readonly onDidUpload = this.uploadedEmitter.event;
  private readonly answeredFiles = new Map<number, MediaFile>();

  constructor(private readonly options: UploadQueueOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.chunkSize = options.chunkSize ?? API_LIMITS.chunkSizeBytes;
    this.chunksPerFile = options.chunksPerFile ?? 3;
    this.concurrency = options.concurrency ?? 3;
    this.slots = new Semaphore(this.concurrency);
  }

  /** Recovers what a crash left running and starts picking items. */
  start(): void {
    if (this.running) return;
    this.running = true;
    for (const item of this.options.store.list({ active: true })) {
      // a worker was running when the app stopped: it goes back in line, keeping its chunks
      if (item.state.kind === 'uploading' || item.state.kind === 'finalizing') this.apply(item, { type: 'interrupt' });
    }
    this.pump();
  }

  /** Stops every worker; their items go back to `queued` with their chunks kept. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.cancel.abort();
    this.wake = null;
    await this.abortWorkers([...this.workers.keys()], 'stop');
  }

  async enqueue(input: EnqueueInput): Promise<EnqueueResult> {
    const path = resolve(input.path);
    const metadata = UpdateFileBodySchema.safeParse(input.metadata ?? {});
    if (!metadata.success) throw new Error(`Invalid file details: ${z.prettifyError(metadata.error)}`);
    const identity = await quickFingerprint(path);
    const store = this.options.store;
    const existing = store.findUnfinishedByPath(path);
    if (existing) {
      const item = existing.state.kind === 'failed' ? ((await this.retry(existing.id)) ?? existing) : existing;
      this.pump();
      return { item, outcome: 'resumed' };
    }
    if (!input.force) {
      const done = store.findDone(path, identity);
      if (done) return { item: done, outcome: 'done' };
    }
    const item = store.insert({
      accountId: input.accountId,
      path,
      fileName: basename(path),
      identity,
      visibility: input.visibility ?? null,
      metadata: input.metadata ?? {},
      folderId: input.folderId ?? null,
      chunkSize: this.chunkSize,
    });
    this.itemEmitter.fire(item);
    this.pump();
    return { item, outcome: 'new' };
  }

  list(): UploadItem[] {
    return this.options.store.list().map((item) => this.withProgress(item));
  }

  /** One page of the queue (queue order) with the running items' progress, and the queue's length. */
  page(offset: number, limit: number): { items: UploadItem[]; total: number } {
    const { items, total } = this.options.store.page(offset, limit);
    return { items: items.map((item) => this.withProgress(item)), total };
  }

  get(id: number): UploadItem | undefined {
    const item = this.options.store.get(id);
    return item && this.withProgress(item);
  }

  status(): QueueStatus {
    return { pausedUntil: this.pausedUntil(), hold: this.hold, active: this.workers.size };
  }

  /**
   * Holds the whole queue for the app's own reason (the schedule, the
   * battery), or (null) lets it go. Apart from the person's pause: a hold
   * never changes `pausedUntil`, and pauseAll/resumeAll never change the
   * hold, so the queue runs only when neither holds it. Running uploads stop
   * as for a pause (back in line, their chunks kept).
   */
  async setHold(hold: QueueHold | null): Promise<void> {
    if (sameQueueHold(this.hold, hold)) return;
    const started = this.hold === null;
    this.hold = hold;
    this.statusEmitter.fire(this.status());
    if (hold !== null && started) await this.abortWorkers([...this.workers.keys()], 'stop');
    this.pump();
  }

  /** Pauses the whole queue, until a wall-clock time or (null) until resumed. */
  async pauseAll(until: number | null): Promise<void> {
    this.options.appState.set(GLOBAL_PAUSE_KEY, until === null ? 'forever' : String(until));
    this.statusEmitter.fire(this.status());
    await this.abortWorkers([...this.workers.keys()], 'stop');
    this.pump();
  }

  resumeAll(): void {
    this.options.appState.delete(GLOBAL_PAUSE_KEY);
    this.statusEmitter.fire(this.status());
    this.pump();
  }

  async pause(id: number, until: number | null = null): Promise<UploadItem | undefined> {
    return this.command(id, { type: 'pause', until }, 'pause');
  }

  async resume(id: number): Promise<UploadItem | undefined> {
    return this.command(id, { type: 'resume' });
  }

  async cancel(id: number): Promise<UploadItem | undefined> {
    return this.command(id, { type: 'cancel' }, 'cancel');
  }

  /** A failed or cancelled item goes back in line with fresh attempts; an item waiting to retry goes now. */
  async retry(id: number): Promise<UploadItem | undefined> {
    const item = this.options.store.get(id);
    if (item?.state.kind === 'retrying') {
      this.save(item, { ...item.state, retryAt: this.clock.wall() });
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
    if (this.pausedUntil() !== null || this.hold !== null) return false;
    return this.options.store.count(['queued', 'retrying', 'uploading', 'finalizing']) > 0;
  }

  /** Every item waiting out a backoff goes now (the network is probably back); attempts are not reset. */
  retryNow(): void {
    const now = this.clock.wall();
    for (const item of this.options.store.list({ active: true })) {
      if (item.state.kind === 'retrying' && item.state.retryAt > now) this.save(item, { ...item.state, retryAt: now });
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
    const item = this.options.store.get(id);
    if (!item) return undefined;
    this.apply(item, event);
    this.pump();
    return this.options.store.get(id);
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

  private pausedUntil(): number | null {
    const value = this.options.appState.get(GLOBAL_PAUSE_KEY);
    if (value === undefined) return null;
    if (value === 'forever') return Infinity;
    const until = Number(value);
    if (until <= this.clock.wall()) {
      this.options.appState.delete(GLOBAL_PAUSE_KEY);
      this.statusEmitter.fire({ pausedUntil: null, hold: this.hold, active: this.workers.size });
      return null;
    }
    return until;
  }

  /** Starts workers for runnable items, and sets a timer for the next item that becomes runnable. */
  private pump(): void {
    if (!this.running) return this.settleIdle();
    const pausedUntil = this.pausedUntil();
    if (pausedUntil !== null) {
      if (Number.isFinite(pausedUntil)) this.wakeAt(pausedUntil);
      return this.settleIdle();
    }
    // the holder lets the queue go itself (setHold(null)): no timer here
    if (this.hold !== null) return this.settleIdle();
    const store = this.options.store;
    const now = this.clock.wall();
    const free = this.concurrency - this.workers.size;
    if (free > 0) {
      const blocked = this.options.blockedAccounts();
      for (const item of store.runnable(now, [...this.workers.keys()], blocked, free)) {
        const client = this.options.clientFor(item.accountId);
        if (!client) continue;
        if (item.state.kind === 'paused') this.apply(item, { type: 'resume' });
        this.launch(item.id, client);
      }
    }
    const next = store.nextWake(now);
    if (next !== null) this.wakeAt(next);
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

  private launch(id: number, client: MediaApiClient): void {
    const controller = new AbortController();
    const done = this.work(id, client, controller.signal).finally(() => {
      this.workers.delete(id);
      this.answeredFiles.delete(id);
      this.progress.delete(id);
      this.progressAt.delete(id);
      this.pump();
    });
    this.workers.set(id, { controller, done });
  }

  private async work(id: number, client: MediaApiClient, signal: AbortSignal): Promise<void> {
    let item = this.options.store.get(id);
    if (!item || isFinal(item)) return;
    try {
      item = this.apply(item, { type: 'start', totalBytes: item.size, sentBytes: ackedBytes(item) });
      if (await this.foundOnService(item, client)) return;
      const fileId = item.fileId ?? (await this.upload(item, client, signal));
      if (fileId === null) return;
      item = this.apply(this.options.store.get(id)!, { type: 'bytesSent' });
      await this.applyMetadata(item, fileId, client, signal);
      const done = this.apply(this.options.store.get(id)!, { type: 'succeed', fileId, now: this.clock.wall() });
      this.uploadedEmitter.fire({ item: done, file: this.answeredFiles.get(id) ?? null });
    } catch (error) {
      this.answeredFiles.delete(id);
      const current = this.options.store.get(id);
      if (!current) return;
      if (signal.aborted) {
        // pause and cancel already moved the state; quit and global pause put the item back in line
        if (signal.reason === 'stop') this.apply(current, { type: 'interrupt' });
        return;
      }
      if (error instanceof ApiError && error.isAuthProblem) {
        this.apply(current, { type: 'interrupt' });
        return;
      }
      this.apply(current, {
        type: 'fail',
        problem: problemOf(error),
        retryable: isRetryableFailure(error),
        now: this.clock.wall(),
        random: this.random(),
      });
    }
  }

  /**
   * For an item whose folder skips what is on the service already, before
   * its first byte: one search by name; a file of that name and size ends the
   * item as done, `existing`, without sending anything. Files this app
   * uploaded count too: they are on the service.
   */
  private async foundOnService(item: UploadItem, client: MediaApiClient): Promise<boolean> {
    const untouched = item.fileId === null && item.dzuuid === null && item.ackedChunks.length === 0 && !item.finalSent;
    if (!untouched || !this.options.skipIfOnService?.(item)) return false;
    const found = await client.findUploadedFile(item.fileName, item.size, () => false);
    if (!found) return false;
    this.options.store.setFileId(item.id, found.id);
    this.apply(this.options.store.get(item.id)!, { type: 'bytesSent' });
    this.apply(this.options.store.get(item.id)!, {
      type: 'succeed',
      fileId: found.id,
      now: this.clock.wall(),
      existing: true,
    });
    return true;
  }

  /** Sends the file; returns its id, or null when it restarted with a new dzuuid and was put back in line. */
  private async upload(item: UploadItem, client: MediaApiClient, signal: AbortSignal): Promise<string | null> {
    const store = this.options.store;
    const identity = await readIdentity(item.path);
    if (identity.size !== item.size || identity.mtimeMs !== item.mtimeMs || identity.fingerprint !== item.fingerprint) {
      // the file on disk is not the one whose chunks the server holds: a new dzuuid, from the first byte
      store.restart(item.id, { identity });
      item = store.get(item.id)!;
      this.apply(item, { type: 'progress', sentBytes: 0, chunkAcked: false });
    }
    const limit = this.options.fileSizeLimitFor(item.accountId);
    if (item.size > limit) throw new TooLargeError(item.size, limit);

    if (item.finalSent) {
      // the last request may have made the file without our hearing back: look before sending again
      const found = await client.findUploadedFile(item.fileName, item.size, (id) =>
        this.options.store.isKnownFileId(id),
      );
      if (found) return this.recordFileId(item, found.id);
      store.setFinalSent(item.id, false);
    }

    if (item.size <= item.chunkSize) {
      const ack = await this.sendFinal(item, client, signal, undefined);
      return this.finishFrom(ack, item, client);
    }

    let dzuuid = item.dzuuid;
    if (!dzuuid) {
      dzuuid = randomUUID();
      store.setDzuuid(item.id, dzuuid);
    }
    const totalChunks = Math.ceil(item.size / item.chunkSize);
    const acked = new Set(item.ackedChunks);
    const inFlight = new Map<number, number>();
    const report = (chunkAcked: boolean) => {
      let sent = 0;
      for (const index of acked) sent += chunkLength(item, index);
      for (const bytes of inFlight.values()) sent += bytes;
      this.reportProgress(item, sent, chunkAcked);
    };
    const pending = [...Array(totalChunks - 1).keys()].filter((index) => !acked.has(index));
    const chunkFor = (index: number) => ({
      dzuuid,
      index,
      totalChunks,
      chunkSize: item.chunkSize,
      totalSize: item.size,
      offset: index * item.chunkSize,
    });

    await runPool(pending, this.chunksPerFile, signal, async (index) => {
      await this.withSlot(signal, async () => {
        await assertUnchanged(item);
        await client.upload({
          range: rangeOf(item, index),
          visibility: item.visibility ?? undefined,
          chunk: chunkFor(index),
          idempotent: true,
          signal,
          limiter: this.options.limiter,
          onProgress: (bytes) => {
            inFlight.set(index, bytes);
            report(false);
          },
        });
      });
      inFlight.delete(index);
      store.ackChunk(item.id, index);
      acked.add(index);
      report(true);
    });

    const last = totalChunks - 1;
    const ack = await this.sendFinal(item, client, signal, chunkFor(last), (bytes) => {
      inFlight.set(last, bytes);
      report(false);
    });
    if (ack.fileId === null && ack.receivedChunks !== null && ack.receivedChunks < totalChunks) {
      return this.restartOnce(item, 'the server no longer had all chunks of the file');
    }
    return this.finishFrom(ack, item, client);
  }

  private async sendFinal(
    item: UploadItem,
    client: MediaApiClient,
    signal: AbortSignal,
    chunk: Parameters<MediaApiClient['upload']>[0]['chunk'],
    onProgress?: (bytes: number) => void,
  ): Promise<UploadAck> {
    return this.withSlot(signal, async () => {
      await assertUnchanged(item);
      this.options.store.setFinalSent(item.id, true);
      return client.upload({
        range: rangeOf(item, chunk?.index ?? 0, chunk === undefined),
        visibility: item.visibility ?? undefined,
        chunk,
        idempotent: false,
        signal,
        limiter: this.options.limiter,
        onProgress: onProgress ?? ((bytes) => this.reportProgress(item, bytes, false)),
      });
    });
  }

  /**
   * The file id from the answer, or from a search when the answer carried
   * none; then the size the service stored, checked against the file's.
   */
  private async finishFrom(ack: UploadAck, item: UploadItem, client: MediaApiClient): Promise<string | null> {
    if (ack.file) this.answeredFiles.set(item.id, ack.file);
    if (ack.fileId) {
      // an answer without the file's size costs one GET to verify it
      const stored = ack.file?.size_bytes ?? (await client.getFile(ack.fileId, 'upload')).size_bytes;
      if (stored !== item.size) return this.storedWrongSize(item, client, ack.fileId, stored, ack.requestId);
      return this.recordFileId(item, ack.fileId);
    }
    // a search matches the size already
    const found = await client.findUploadedFile(item.fileName, item.size, (id) => this.options.store.isKnownFileId(id));
    if (found) return this.recordFileId(item, found.id);
    return this.restartOnce(item, 'the server accepted every byte but made no file');
  }

  /**
   * The service made a file of another size than the one sent: that copy is
   * of no use, so it is deleted (it is ours, made a moment ago), and the
   * upload starts again from the first byte, once; a second time it fails,
   * saying what was stored.
   */
  private async storedWrongSize(
    item: UploadItem,
    client: MediaApiClient,
    fileId: string,
    stored: number,
    requestId: string | null,
  ): Promise<null> {
    this.options.store.setFinalSent(item.id, false);
    await client.deleteFile(fileId, 'upload');
    const bytes = (count: number) => count.toLocaleString('en');
    const message = `The service stored ${bytes(stored)} bytes; the file has ${bytes(item.size)}. The incomplete copy was deleted.`;
    return this.restartOnce(item, message, new UploadRejectedError(message, requestId));
  }

  private recordFileId(item: UploadItem, fileId: string): string {
    this.options.store.setFinalSent(item.id, false);
    this.options.store.setFileId(item.id, fileId);
    return fileId;
  }

  /**
   * A last chunk that made no usable file: start over with a new dzuuid, once;
   * a second time is a failure (`failure`, by default one that says `why`).
   */
  private restartOnce(
    item: UploadItem,
    why: string,
    failure = new UploadRejectedError(`Upload failed twice: ${why}. Try again later or contact the service.`),
  ): null {
    const current = this.options.store.get(item.id)!;
    if (current.restarts >= 1) throw failure;
    this.options.store.restart(item.id, { countRestart: true });
    this.apply(this.options.store.get(item.id)!, { type: 'interrupt' });
    return null;
  }

  private async applyMetadata(item: UploadItem, fileId: string, client: MediaApiClient, signal: AbortSignal) {
    const patch = Object.fromEntries(Object.entries(item.metadata).filter(([, value]) => value !== undefined));
    if (Object.keys(patch).length === 0) return;
    if (signal.aborted) throw signal.reason;
    await client.updateFile(fileId, patch, 'upload');
    if (patch['password'] !== undefined) this.options.store.forgetPassword(item.id);
  }

  private async withSlot<T>(signal: AbortSignal, run: () => Promise<T>): Promise<T> {
    const release = await this.slots.acquire(signal);
    try {
      return await run();
    } finally {
      release();
    }
  }

  /**
   * Bytes moved in a running item. An acknowledged chunk is always applied
   * (it is committed); other progress at most every PROGRESS_INTERVAL_MS, and
   * always when the last byte went, so the bar ends full.
   * Progress that comes after the item stopped running (a paused or cancelled
   * upload's last piece) is dropped, as the state machine would drop it.
   */
  private reportProgress(item: UploadItem, sentBytes: number, chunkAcked: boolean): void {
    const event = progressEvent(sentBytes, chunkAcked);
    if (chunkAcked) {
      this.progressAt.set(item.id, this.clock.monotonic());
      this.apply(this.options.store.get(item.id)!, event);
      return;
    }
    // live progress is kept only while the item is `uploading`: without it the event would be ignored
    if (!this.progress.has(item.id)) return;
    const now = this.clock.monotonic();
    if (sentBytes < item.size && now - (this.progressAt.get(item.id) ?? -Infinity) < PROGRESS_INTERVAL_MS) return;
    this.progressAt.set(item.id, now);
    // the live state is the current one, so the stored row need not be read for every piece
    this.apply(item, event);
  }

  /** Applies an event; persists and announces a change of kind, announces progress in memory only. */
  private apply(item: UploadItem, event: UploadEvent): UploadItem {
    const current = this.progress.get(item.id) ?? item.state;
    const next = transition(current, event);
    if (next === current) return item;
    if (next.kind === 'uploading' && current.kind === 'uploading') {
      this.progress.set(item.id, next);
      if (event.type === 'progress' && event.chunkAcked) this.options.store.saveState(item.id, next);
      this.progressEmitter.fire({ id: item.id, state: next });
      return { ...item, state: next };
    }
    return this.save(item, next);
  }

  private save(item: UploadItem, state: UploadState): UploadItem {
    if (state.kind === 'uploading') this.progress.set(item.id, state);
    else this.progress.delete(item.id);
    this.options.store.saveState(item.id, state);
    const saved = this.options.store.get(item.id) ?? { ...item, state };
    this.itemEmitter.fire(saved);
    return saved;
  }

  private withProgress(item: UploadItem): UploadItem {
    const live = this.progress.get(item.id);
    return live ? { ...item, state: live } : item;
  }
}

function progressEvent(sentBytes: number, chunkAcked: boolean): UploadEvent {
  return { type: 'progress', sentBytes, chunkAcked };
}

function ackedBytes(item: UploadItem): number {
  return item.ackedChunks.reduce((sum, index) => sum + chunkLength(item, index), 0);
}

function chunkLength(item: UploadItem, index: number): number {
  return Math.min(item.chunkSize, item.size - index * item.chunkSize);
}

function rangeOf(item: UploadItem, index: number, whole = false) {
  const start = whole ? 0 : index * item.chunkSize;
  const end = whole ? item.size : start + chunkLength(item, index);
  return { path: item.path, start, end, fileName: item.fileName };
}

async function readIdentity(path: string): Promise<FileIdentity> {
  try {
    return await quickFingerprint(path);
  } catch (error) {
    throw new FileUnreadableError(path, error);
  }
}

/** Cheap check before each chunk: size and mtime as when the upload (re)started. */
async function assertUnchanged(item: UploadItem): Promise<void> {
  const now = await stat(item.path).catch((error: unknown) => {
    throw new FileUnreadableError(item.path, error);
  });
  if (now.size !== item.size || now.mtimeMs !== item.mtimeMs) throw new FileChangedError(item.path);
}

/** Runs `task` over `items` with at most `limit` at once; the first failure stops the rest and is thrown. */
async function runPool<T>(
  items: T[],
  limit: number,
  signal: AbortSignal,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  let failure: unknown;
  const lane = async () => {
    while (queue.length > 0 && failure === undefined && !signal.aborted) {
      const next = queue.shift()!;
      try {
        await task(next);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure !== undefined) throw failure;
  if (signal.aborted) throw signal.reason;
}

/** The file is over the account's plan limit: nothing was sent. */
export class TooLargeError extends Error {
  constructor(size: number, limit: number) {
    super(
      `This file is ${formatGibibytes(size)}; the account's plan accepts files up to ${formatGibibytes(limit)}. Nothing was sent.`,
    );
    this.name = 'TooLargeError';
  }
}

export class FileUnreadableError extends Error {
  constructor(path: string, cause: unknown) {
    const code = (cause as { code?: string }).code;
    const why =
      code === 'ENOENT'
        ? 'it no longer exists'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : String((cause as Error).message ?? cause);
    super(`Cannot read ${path}: ${why}.`, { cause });
    this.name = 'FileUnreadableError';
  }
}

export class UploadRejectedError extends Error {
  constructor(
    message: string,
    /** the request whose answer showed the problem, when one did */
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = 'UploadRejectedError';
  }
}

function isRetryableFailure(error: unknown): boolean {
  if (error instanceof ApiError) return error.retryable;
  return error instanceof FileChangedError;
}

function problemOf(error: unknown): UploadProblem {
  if (error instanceof ApiError) {
    const { message, code, requestId, text } = error;
    return { message, code, requestId, ...(text ? { text } : {}) };
  }
  if (error instanceof UploadRejectedError) return { message: error.message, code: null, requestId: error.requestId };
  if (error instanceof FileChangedError) {
    const text = message('core.errors.fileChanged');
    return { message: englishText(text), code: null, requestId: null, text };
  }
  return { message: error instanceof Error ? error.message : String(error), code: null, requestId: null };
}
