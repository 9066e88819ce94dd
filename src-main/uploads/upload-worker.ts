import type { MediaFile } from '../../src-shared/api/index.js';
import { ackedBytes } from '../../src-shared/model/chunk-bytes.js';
import type { UploadItem } from '../../src-shared/model/upload-state.js';
import { ApiError } from '../api-client/api-error.js';
import type { MediaApiClient } from '../api-client/media-api-client.js';
import { FileChangedError } from '../api-client/multipart-body.js';
import type { Clock } from '../common/clock.js';
import type { BandwidthLimiter } from './bandwidth-limiter.js';
import { ChunkedUpload } from './chunked-upload.js';
import type { ItemStates } from './item-states.js';
import type { Semaphore } from './semaphore.js';
import { isRetryableFailure, problemOf } from './upload-errors.js';
import { isFinal, type UploadStore } from './upload-store.js';
import type { UploadEvent } from './upload-transition.js';
import type { WriterWaits } from './writer-waits.js';

/** An item is done. */
export interface UploadedEvent {
  item: UploadItem;
  /** the server's File when its answer carried one (links, no extra request) */
  file: MediaFile | null;
  /** the file changed as the service took it: the copy of that version was deleted once this one was there */
  replacedStale: boolean;
}

/** Why a worker was stopped: the item paused or cancelled (the command moves its state), or put back in line. */
export type StopReason = 'pause' | 'cancel' | 'stop';

/** What every worker of a queue shares. */
export interface WorkerContext {
  store: UploadStore;
  items: ItemStates;
  limiter: BandwidthLimiter;
  clock: Clock;
  random: () => number;
  chunksPerFile: number;
  slots: Semaphore;
  writers: WriterWaits;
  fileSizeLimitFor(accountId: string): number;
  skipIfOnService(item: UploadItem): boolean;
  settleMsFor(item: UploadItem): number;
  /** whether a failed write was for lack of room: then nothing more is saved */
  outOfSpace(error: unknown): boolean;
  uploaded(event: UploadedEvent): void;
}

/**
 * One running item: sends it through its account's client (ChunkedUpload)
 * and turns how that ended into the item's next state (docs/uploads.md).
 * The queue stops it through `controller`, with a StopReason.
 */
export class UploadWorker {
  readonly controller = new AbortController();
  /** settles once the item's last state is saved */
  done: Promise<void> = Promise.resolve();
  upload: ChunkedUpload | null = null;
  /** set by a pause after this chunk: what ends the item once the chunks in flight are committed */
  after: Extract<UploadEvent, { type: 'pause' | 'interrupt' }> | null = null;

  constructor(
    private readonly stored: UploadItem,
    private readonly client: MediaApiClient,
    private readonly context: WorkerContext,
  ) {}

  /**
   * Lets the chunks in flight finish, starting none, then ends the item
   * with `after`; false when none is in flight (nothing to wait for).
   */
  finishInFlight(after: NonNullable<UploadWorker['after']>): boolean {
    if (!this.upload?.finishInFlight()) return false;
    // the item's own pause outlasts the queue's
    if (this.after?.type !== 'pause') this.after = after;
    this.context.items.applyTo(this.stored.id, { type: 'pauseAfterChunk' });
    return true;
  }

  /** Takes a pause after this chunk back; false when the upload ended meanwhile. */
  keepGoing(): boolean {
    if (!this.upload?.keepGoing()) return false;
    this.after = null;
    this.context.items.applyTo(this.stored.id, { type: 'resume' });
    return true;
  }

  async run(): Promise<void> {
    const { stored, context } = this;
    const { store, items, clock } = context;
    const id = stored.id;
    const signal = this.controller.signal;
    if (isFinal(stored)) return;
    const upload = (this.upload = new ChunkedUpload(stored, {
      client: this.client,
      store,
      limiter: context.limiter,
      clock,
      fileSizeLimit: context.fileSizeLimitFor(stored.accountId),
      chunksPerFile: context.chunksPerFile,
      skipIfOnService: context.skipIfOnService(stored),
      withSlot: (slotSignal, run) => context.slots.run(slotSignal, run),
      onProgress: (progress, committed) => items.progress(stored, progress, committed),
    }));
    const interrupt: UploadEvent = { type: 'interrupt' };
    try {
      if (stored.state.kind === 'queued' && (await context.writers.stillWritten(stored, signal))) return;
      items.apply(stored, { type: 'start', totalBytes: stored.size, ackedBytes: ackedBytes(stored) });
      const outcome = await upload.send(signal);
      if (outcome.kind !== 'sent') {
        // drained (a pause after this chunk) or restarting: back in line, or paused if a pause waited
        items.applyTo(id, this.after ?? interrupt);
        return;
      }
      if (!outcome.existing && upload.hasMetadata()) {
        items.applyTo(id, { type: 'bytesSent' });
        await upload.applyMetadata(outcome.fileId, signal);
      }
      // done with its file id (straight from the last answer when there were no details to send), one event, and
      // what the listeners write of it (the folder's index, the followed file): one commit
      store.batch(() => {
        const { fileId, existing } = outcome;
        const succeed: UploadEvent = { type: 'succeed', fileId, now: clock.wall(), ...(existing && { existing }) };
        const done = items.applyTo(id, { type: 'bytesSent' }, succeed);
        context.uploaded({ item: done, file: outcome.file, replacedStale: outcome.replacedStale ?? false });
      });
    } catch (error) {
      // nothing can be saved: the item stays as last saved, and goes on once the disk has room
      if (context.outOfSpace(error)) return;
      const current = store.get(id);
      if (!current) return;
      if (signal.aborted) {
        // pause and cancel already moved the state; quit and global pause put the item back in line
        if (signal.reason === 'stop') items.apply(current, this.after ?? interrupt);
        return;
      }
      if (error instanceof ApiError && error.isAuthProblem) {
        items.apply(current, this.after ?? interrupt);
        return;
      }
      const now = clock.wall();
      const failed = items.apply(
        current,
        error instanceof FileChangedError
          ? { type: 'changed', problem: problemOf(error), now, settleMs: context.settleMsFor(current) }
          : {
              type: 'fail',
              problem: problemOf(error),
              retryable: isRetryableFailure(error),
              now,
              random: context.random(),
            },
      );
      // a pause the person asked for while the chunk failed still holds, over the retry
      if (this.after?.type === 'pause') items.apply(failed, this.after);
    }
  }
}
