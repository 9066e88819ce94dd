import type { QueueStatus, UploadProgress } from '../../src-shared/ipc/ipc-contract.js';
import { etaSeconds, observe, type RateMeter } from '../../src-shared/model/transfer-rate.js';
import { ackedBytes } from '../../src-shared/model/chunk-bytes.js';
import { FINAL_UPLOAD_KINDS } from '../../src-shared/model/upload-state.js';

/** How the taskbar's bar shows: running, held (a pause, the schedule, the battery, a metered connection), or failed. */
export type ProgressMode = 'normal' | 'paused' | 'error';

/** What the OS shows of the queue: the taskbar button, the Dock, the tray's tooltip. */
export interface QueueProgress {
  /** the bar: bytes done of the current batch; null when the queue is idle, and the bar is removed */
  bar: { fraction: number; mode: ProgressMode } | null;
  /** uploads not final yet (the Dock's badge) */
  filesLeft: number;
  bytesLeft: number;
  /** at the batch's speed of the last seconds; null while measuring or held */
  etaSeconds: number | null;
}

/** Bytes of an item already with the service or on their way: all of a finished one, what moved of the rest. */
function bytesDone(item: UploadProgress): number {
  switch (item.state.kind) {
    case 'done':
    case 'finalizing':
      return item.size;
    case 'uploading':
      return Math.min(item.size, item.state.sentBytes);
    default:
      return ackedBytes(item);
  }
}

/** Files and bytes of the uploads that are not final yet. */
export function remainingOf(items: readonly UploadProgress[]): Pick<QueueProgress, 'filesLeft' | 'bytesLeft'> {
  let filesLeft = 0;
  let bytesLeft = 0;
  for (const item of items) {
    if (FINAL_UPLOAD_KINDS.has(item.state.kind)) continue;
    filesLeft++;
    bytesLeft += item.size - bytesDone(item);
  }
  return { filesLeft, bytesLeft };
}

interface BatchEntry {
  size: number;
  done: number;
  /** final: `done` (never looked up again) or `failed` (looked up at each update, as a retry or a clear ends it) */
  settled: 'done' | 'failed' | null;
}

/**
 * The queue's progress as one bar. The batch is every upload that was not
 * final at some look since the queue was last idle; the bar is the bytes done
 * of the batch's bytes (a cancelled or cleared upload leaves the batch). The
 * bar is `paused` while the queue is held, `error` once nothing is left to
 * run and some upload of the batch failed (until it is retried or cleared),
 * full for one look once the batch is done, and removed after. Each update
 * reads the unfinished uploads and looks up only those that left them since,
 * never the queue's history.
 */
export class QueueProgressTracker {
  private readonly batch = new Map<number, BatchEntry>();
  private meter: RateMeter | undefined;

  /**
   * `active`: the uploads not final, with their progress; `lookUp`: an
   * upload by id, for those that left `active`; `now`: monotonic ms.
   */
  update(
    status: Pick<QueueStatus, 'pause' | 'hold'>,
    active: readonly UploadProgress[],
    lookUp: (id: number) => UploadProgress | undefined,
    now: number,
  ): QueueProgress {
    const activeIds = new Set<number>();
    for (const item of active) {
      activeIds.add(item.id);
      this.batch.set(item.id, { size: item.size, done: bytesDone(item), settled: null });
    }
    let total = 0;
    let done = 0;
    let failed = false;
    for (const [id, entry] of this.batch) {
      if (!activeIds.has(id) && entry.settled !== 'done' && !this.settle(id, entry, lookUp)) continue;
      total += entry.size;
      done += entry.done;
      if (entry.settled === 'failed') failed = true;
    }
    const { filesLeft, bytesLeft } = remainingOf(active);
    if (filesLeft === 0 && !failed) {
      // the batch's last look shows it full; the next one removes the bar
      const bar = this.batch.size > 0 ? { fraction: 1, mode: 'normal' as const } : null;
      this.batch.clear();
      this.meter = undefined;
      return { bar, filesLeft, bytesLeft, etaSeconds: null };
    }
    const held = status.pause !== null || status.hold !== null;
    this.meter = held ? undefined : observe(this.meter, now, done);
    const fraction = total === 0 ? 0 : Math.min(1, done / total);
    const mode: ProgressMode = filesLeft === 0 ? 'error' : held ? 'paused' : 'normal';
    const eta = mode === 'normal' ? etaSeconds(this.meter, now, total) : null;
    return { bar: { fraction, mode }, filesLeft, bytesLeft, etaSeconds: eta };
  }

  /** The uploads `update` may look up (uploads:overview's `ended`): those of the batch not done. */
  unsettled(): number[] {
    return [...this.batch].flatMap(([id, entry]) => (entry.settled === 'done' ? [] : [id]));
  }

  /** An upload that left the unfinished ones: done or failed stays in the batch; cancelled or cleared leaves it. */
  private settle(id: number, entry: BatchEntry, lookUp: (id: number) => UploadProgress | undefined): boolean {
    const item = lookUp(id);
    if (item?.state.kind === 'done' || item?.state.kind === 'failed') {
      entry.settled = item.state.kind;
      entry.done = bytesDone(item);
      return true;
    }
    this.batch.delete(id);
    return false;
  }
}
