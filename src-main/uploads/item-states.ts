import type { UploadItem, UploadState } from '../../src-shared/model/upload-state.js';
import type { Clock } from '../common/clock.js';
import { DisposableStore, Emitter, type Disposable } from '../common/disposable.js';
import type { UploadProgress } from './chunked-upload.js';
import type { UploadStore } from './upload-store.js';
import { transition, type UploadEvent } from './upload-transition.js';

/** Progress of a running item, kept in memory: the database holds acknowledged chunks only. */
export interface ItemProgress {
  id: number;
  state: UploadState;
}

/**
 * Bytes-moved announcements of one item at most this often (a UI needs no
 * more than 10 Hz): one per 1 MiB piece, with 3 in flight, was a queue-wide
 * event and a state object every third of a millisecond at full speed.
 */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * The queue's items as a UI sees them: every change goes through
 * `transition`; a change of kind, or of the `pausing` mark, is saved and
 * announced as a changed item; a running item's bytes are kept in memory and
 * announced as progress (saved only with an acknowledged chunk).
 */
export class ItemStates implements Disposable {
  /** the live state of each running item, newer than its row while bytes move */
  private readonly live = new Map<number, UploadState>();
  /** when each running item last announced bytes moved (monotonic ms) */
  private readonly progressAt = new Map<number, number>();
  private readonly disposables = new DisposableStore();
  private readonly itemEmitter = this.disposables.add(new Emitter<UploadItem>());
  private readonly progressEmitter = this.disposables.add(new Emitter<ItemProgress>());
  /** a stored item changed (state, or a new item) */
  readonly onDidChangeItem = this.itemEmitter.event;
  /** bytes moved in a running item (frequent: throttle before showing) */
  readonly onDidProgress = this.progressEmitter.event;

  constructor(
    private readonly store: UploadStore,
    private readonly clock: Clock,
  ) {}

  /** Announces a new item, or one whose account or folder changed. */
  added(item: UploadItem): void {
    this.itemEmitter.fire(item);
  }

  /** The item with its live state, when it runs. */
  withProgress(item: UploadItem): UploadItem {
    const live = this.live.get(item.id);
    return live ? { ...item, state: live } : item;
  }

  /** Applies an event: saved and announced as the class says. */
  apply(item: UploadItem, event: UploadEvent): UploadItem {
    const current = this.live.get(item.id) ?? item.state;
    const next = transition(current, event);
    if (next === current) return item;
    if (next.kind === 'uploading' && current.kind === 'uploading' && next.pausing === current.pausing) {
      this.live.set(item.id, next);
      // what the server acknowledged is saved with the chunk; the bytes in flight only announced
      if (next.ackedBytes !== current.ackedBytes) this.store.saveState(item.id, next);
      this.progressEmitter.fire({ id: item.id, state: next });
      return { ...item, state: next };
    }
    return this.save(item, next);
  }

  /**
   * Applies events to the stored row of `id` (a running item's: it is there),
   * as it is now; more than one are applied one after the other and only
   * where they lead is saved and announced.
   */
  applyTo(id: number, event: UploadEvent, ...then: UploadEvent[]): UploadItem {
    const item = this.store.get(id)!;
    if (then.length === 0) return this.apply(item, event);
    const current = this.live.get(id) ?? item.state;
    const next = then.reduce(transition, transition(current, event));
    return next === current ? item : this.save(item, next);
  }

  /**
   * Saves and announces a state reached otherwise than by an event (a retry
   * time brought forward). `item` is the row as stored: what is announced is
   * it with the new state, not the row read again.
   */
  save(item: UploadItem, state: UploadState): UploadItem {
    if (state.kind === 'uploading') this.live.set(item.id, state);
    else this.live.delete(item.id);
    const updatedAt = this.store.saveState(item.id, state);
    const saved = {
      ...item,
      state,
      updatedAt,
      ...(state.kind === 'done' && { fileId: state.fileId, finalSent: false }),
    };
    this.itemEmitter.fire(saved);
    return saved;
  }

  /**
   * Bytes moved in a running item. An acknowledged chunk is always applied
   * (it is committed); other progress at most every PROGRESS_INTERVAL_MS, and
   * always when the last byte went, so the bar ends full.
   * Progress that comes after the item stopped running (a paused or cancelled
   * upload's last piece) is dropped, as the state machine would drop it.
   */
  progress(item: UploadItem, progress: UploadProgress, committed: boolean): void {
    const event: UploadEvent = { type: 'progress', ...progress };
    if (committed) {
      this.progressAt.set(item.id, this.clock.monotonic());
      this.applyTo(item.id, event);
      return;
    }
    // live progress is kept only while the item is `uploading`: without it the event would be ignored
    if (!this.live.has(item.id)) return;
    const now = this.clock.monotonic();
    const last = now - (this.progressAt.get(item.id) ?? -Infinity);
    if (progress.sentBytes < item.size && last < PROGRESS_INTERVAL_MS) return;
    this.progressAt.set(item.id, now);
    // the live state is the current one, so the stored row need not be read for every piece
    this.apply(item, event);
  }

  /** The item's worker ended: nothing of it is live any more. */
  stopped(id: number): void {
    this.live.delete(id);
    this.progressAt.delete(id);
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
