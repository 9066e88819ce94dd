import type { UploadItem } from '../../src-shared/model/upload-state.js';
import type { Clock } from '../common/clock.js';
import { Emitter, type Disposable } from '../common/disposable.js';
import type { UploadStore } from './upload-store.js';

export interface FinishedPruningOptions {
  store: UploadStore;
  clock: Clock;
  /**
   * Told of each batch before it goes, so what must outlive the items is
   * kept first (a watched folder's index holds its done files).
   */
  beforeRemove?(items: readonly UploadItem[]): void;
}

const HOUR_MS = 60 * 60_000;
/** Items removed in one transaction; the event loop runs between two. */
const BATCH = 500;

/**
 * Removes done and cancelled uploads from the queue once they finished
 * longer ago than the setting says (Settings: "Remove finished uploads from
 * the queue after": never, 1, 7 or 30 days). A pass runs at `start`, when
 * the setting changes, and every hour; it takes the oldest first from the
 * finish-time index, BATCH at a time. Failed items stay, as Clear finished
 * leaves them. Nothing else goes with them: the folders' index (what was
 * sent), the declined files and the followed conversions (the Activity
 * panel) are kept apart, and the file ids of removed items stay known
 * (UploadStore.remove).
 */
export class FinishedPruning implements Disposable {
  private keepMs: number | null = null;
  private timer: AbortController | null = null;
  private running: Promise<void> | null = null;
  private started = false;
  private disposed = false;
  private readonly removedEmitter = new Emitter<number>();
  /** a pass removed this many items (more than none) */
  readonly onDidRemove = this.removedEmitter.event;

  constructor(private readonly options: FinishedPruningOptions) {}

  /** How long a finished item stays; null: for ever. A shorter time than before applies at once. */
  setKeep(ms: number | null): void {
    const shorter = ms !== null && (this.keepMs === null || ms < this.keepMs);
    this.keepMs = ms;
    if (this.started && shorter) void this.pass();
  }

  /** A pass now, then one every hour. */
  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    const timer = (this.timer = new AbortController());
    const loop = async () => {
      while (!timer.signal.aborted) {
        await this.pass();
        await this.options.clock.sleep(HOUR_MS, timer.signal);
      }
    };
    loop().catch(() => undefined);
  }

  /** Runs a pass (or waits for the one under way); resolves when it ended. */
  pass(): Promise<void> {
    this.running ??= this.removeOld().finally(() => (this.running = null));
    return this.running;
  }

  dispose(): void {
    this.disposed = true;
    this.timer?.abort();
    this.removedEmitter.dispose();
  }

  private async removeOld(): Promise<void> {
    let removed = 0;
    while (!this.disposed && this.keepMs !== null) {
      const items = this.options.store.finishedBefore(this.options.clock.wall() - this.keepMs, BATCH);
      if (items.length === 0) break;
      this.options.beforeRemove?.(items);
      removed += this.options.store.remove(items.map((item) => item.id));
      if (items.length < BATCH) break;
      // the queue's events and requests go on between two batches
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (removed > 0) this.removedEmitter.fire(removed);
  }
}
