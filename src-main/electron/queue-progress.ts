import type { QueueStatus } from '../../src-shared/ipc/ipc-contract.js';
import { observe, etaSeconds, type RateMeter } from '../../src-shared/model/transfer-rate.js';
import { ackedBytes, FINAL_UPLOAD_KINDS, type UploadItem } from '../../src-shared/model/upload-state.js';

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
function bytesDone(item: UploadItem): number {
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
export function remainingOf(items: readonly UploadItem[]): Pick<QueueProgress, 'filesLeft' | 'bytesLeft'> {
  let filesLeft = 0;
  let bytesLeft = 0;
  for (const item of items) {
    if (FINAL_UPLOAD_KINDS.has(item.state.kind)) continue;
    filesLeft++;
    bytesLeft += item.size - bytesDone(item);
  }
  return { filesLeft, bytesLeft };
}

/**
 * The queue's progress as one bar: the batch is every upload that was not
 * final at some look since the queue was last idle, and the bar is the bytes
 * done of the batch's bytes (a cancelled upload leaves the batch). The bar is
 * `paused` while the queue is held, `error` once nothing is left to run and
 * some upload of the batch failed (until it is retried or cleared), and
 * removed when the queue is idle. Called at most once a second.
 */
export class QueueProgressTracker {
  private readonly batch = new Set<number>();
  private meter: RateMeter | undefined;

  update(status: QueueStatus, items: readonly UploadItem[], now: number): QueueProgress {
    const byId = new Map(items.map((item) => [item.id, item]));
    for (const item of items) if (!FINAL_UPLOAD_KINDS.has(item.state.kind)) this.batch.add(item.id);
    let total = 0;
    let done = 0;
    let failed = false;
    for (const id of this.batch) {
      const item = byId.get(id);
      // cleared from the queue, or cancelled: no longer part of what this batch will upload
      if (!item || item.state.kind === 'cancelled') {
        this.batch.delete(id);
        continue;
      }
      total += item.size;
      done += bytesDone(item);
      if (item.state.kind === 'failed') failed = true;
    }
    const remaining = remainingOf(items);
    if (remaining.filesLeft === 0 && !failed) {
      this.batch.clear();
      this.meter = undefined;
      return { bar: null, ...remaining, etaSeconds: null };
    }
    const held = status.paused || status.hold !== null;
    this.meter = held ? undefined : observe(this.meter, now, done);
    const fraction = total === 0 ? 0 : Math.min(1, done / total);
    const mode: ProgressMode = remaining.filesLeft === 0 ? 'error' : held ? 'paused' : 'normal';
    const eta = mode === 'normal' ? etaSeconds(this.meter, now, total) : null;
    return { bar: { fraction, mode }, ...remaining, etaSeconds: eta };
  }
}
