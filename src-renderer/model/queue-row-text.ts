import type { UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import { formatBytes } from '../../src-shared/model/format.js';
import type { QueueHold } from '../../src-shared/model/queue-hold.js';
import { followChangesRow } from '../../src-shared/model/conversion-follow.js';
import { describeFollow } from './follow-text.js';
import { formatDuration, formatRate } from './transfer-rate.js';

/** What a person can do with one row; reveal / copy path is offered on every row by the view. */
export type RowAction =
  'pause' | 'resume' | 'cancel' | 'retry' | 'retryNow' | 'copyLink' | 'copyWatchLink' | 'openWatch';

export interface RowContext {
  /** wall-clock ms */
  now: number;
  /** the whole queue is paused (by the person) */
  queuePaused: boolean;
  /** the app holds the whole queue: the schedule's pause, or on battery */
  queueHold?: QueueHold | null;
  /** why the item's account cannot upload now (a refused token), if so */
  accountBlocked: string | null;
  /** the account's requests wait for a Retry-After or an administrator's switch */
  accountGate: 'rate-limited' | 'api-disabled' | null;
  /** measured speed, bytes per second (running items) */
  speed: number | null;
  /** seconds left, after the warm-up (running items) */
  eta: number | null;
  /** "14:05": how a wall-clock time is shown */
  clock?: (ms: number) => string;
}

export interface RowText {
  /** the state in words: "Uploading 45%" */
  state: string;
  /** a second line: sizes, speed and time left, or why it waits */
  detail: string | null;
  /** for failed and retrying items: the reason and the request id for support */
  problem: { message: string; requestId: string | null } | null;
  progress: { value: number; max: number };
  tone: 'neutral' | 'active' | 'ok' | 'warn' | 'error';
  actions: RowAction[];
}

/** True when two rows read the same: a row whose text did not change need not be rendered again. */
export function sameRowText(a: RowText, b: RowText): boolean {
  return (
    a.state === b.state &&
    a.detail === b.detail &&
    a.tone === b.tone &&
    a.progress.value === b.progress.value &&
    a.progress.max === b.progress.max &&
    a.problem?.message === b.problem?.message &&
    a.problem?.requestId === b.problem?.requestId &&
    a.actions.length === b.actions.length &&
    a.actions.every((action, i) => action === b.actions[i])
  );
}

/** One formatter for every row: `toLocaleTimeString` with options builds a new one at each call (the first render's costliest call after React's own). */
const timeOfDay = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });

function defaultClock(ms: number): string {
  return timeOfDay.format(ms);
}

/** Bytes the server already holds of an item that is not running (acknowledged chunks). */
function ackedBytes(item: UploadItemView): number {
  return Math.min(item.size, item.ackedChunks.length * item.chunkSize);
}

function waitReason(context: RowContext): string | null {
  if (context.accountBlocked) return `Waiting: ${context.accountBlocked}`;
  if (context.queuePaused) return 'Waiting: all uploads are paused';
  if (context.queueHold) return holdRowText(context.queueHold, context.now, context.clock);
  if (context.accountGate === 'rate-limited') return 'Waiting: the server asked to slow down';
  if (context.accountGate === 'api-disabled') return 'Waiting: the service has paused its API';
  return null;
}

function percent(value: number, max: number): number {
  return max <= 0 ? 100 : Math.floor((value / max) * 100);
}

/** One queue row in words, for each state of the upload machine. */
export function describeRow(item: UploadItemView, context: RowContext): RowText {
  const clock = context.clock ?? defaultClock;
  const size = item.size;
  const state = item.state;
  switch (state.kind) {
    case 'queued': {
      const acked = ackedBytes(item);
      return {
        state: 'Queued',
        detail:
          waitReason(context) ?? (acked > 0 ? `${formatBytes(acked)} of ${formatBytes(size)} already sent` : null),
        problem: null,
        progress: { value: acked, max: size },
        tone: 'neutral',
        actions: ['pause', 'cancel'],
      };
    }
    case 'uploading': {
      const total = state.totalBytes || size;
      const parts = [`${formatBytes(state.sentBytes)} of ${formatBytes(total)}`];
      // a pause or hold stops the worker: until it has, the row shows its bytes, not the wait
      const waiting = waitReason({ ...context, queuePaused: false, queueHold: null });
      if (waiting) {
        // the worker holds the item, but its next request waits for the account's gate
        parts.push(waiting);
      } else {
        if (context.speed !== null) parts.push(formatRate(context.speed));
        parts.push(context.eta === null ? 'estimating time left' : `${formatDuration(context.eta)} left`);
      }
      if (state.attempt > 0) parts.push(`attempt ${state.attempt + 1}`);
      return {
        state: `Uploading ${percent(state.sentBytes, total)}%`,
        detail: parts.join(' · '),
        problem: null,
        progress: { value: state.sentBytes, max: total },
        tone: 'active',
        actions: ['pause', 'cancel'],
      };
    }
    case 'finalizing':
      return {
        state: 'Finishing',
        detail: 'All bytes sent; the server is putting the file together',
        problem: null,
        progress: { value: size, max: size },
        tone: 'active',
        actions: ['pause', 'cancel'],
      };
    case 'retrying': {
      const waitS = (state.retryAt - context.now) / 1000;
      return {
        state: waitS > 0.5 ? `Retrying in ${formatDuration(waitS)}` : 'Retrying now',
        detail: `Attempt ${state.attempt + 1} after a problem`,
        problem: { message: state.lastError.message, requestId: state.lastError.requestId },
        progress: { value: ackedBytes(item), max: size },
        tone: 'warn',
        actions: ['retryNow', 'pause', 'cancel'],
      };
    }
    case 'paused':
      return {
        state: 'Paused',
        detail:
          state.until === null ? 'Paused by you until you resume it' : `Paused by you until ${clock(state.until)}`,
        problem: null,
        progress: { value: ackedBytes(item), max: size },
        tone: 'neutral',
        actions: ['resume', 'cancel'],
      };
    case 'done': {
      // after the upload: the file's conversion, as the core follows it
      const after = item.afterUpload;
      if (!state.existing && followChangesRow(after)) {
        const text = describeFollow(after);
        return {
          state: text.label,
          detail: text.tone === 'warn' ? `Uploaded at ${clock(state.finishedAt)}` : text.detail,
          problem: text.tone === 'warn' && text.detail ? { message: text.detail, requestId: null } : null,
          progress: { value: size, max: size },
          tone: text.tone === 'warn' ? 'warn' : text.tone,
          actions: text.watchable ? ['copyWatchLink', 'openWatch'] : after.state.kind === 'deleted' ? [] : ['copyLink'],
        };
      }
      return {
        state: state.existing ? 'Already on the service' : 'Done',
        detail: state.existing
          ? `Not uploaded: a file with this name and size is on the service (checked at ${clock(state.finishedAt)})`
          : `Uploaded at ${clock(state.finishedAt)}`,
        problem: null,
        progress: { value: size, max: size },
        tone: 'ok',
        actions: ['copyLink'],
      };
    }
    case 'failed':
      return {
        state: 'Failed',
        detail: null,
        problem: { message: state.reason.message, requestId: state.reason.requestId },
        progress: { value: ackedBytes(item), max: size },
        tone: 'error',
        actions: ['retry'],
      };
    case 'cancelled':
      return {
        state: 'Cancelled',
        detail: null,
        problem: null,
        progress: { value: 0, max: size },
        tone: 'neutral',
        actions: ['retry'],
      };
  }
}

/** Times of day today are shown alone; on another day with their weekday ("Mon 09:00"). */
const dayAndTime = new Intl.DateTimeFormat([], { weekday: 'short', hour: '2-digit', minute: '2-digit' });

/** When a hold ends, in the person's locale and zone: "18:00" today, "Mon 09:00" on another day. */
export function formatEdge(at: number, now: number, clock?: (ms: number) => string): string {
  if (new Date(at).toDateString() === new Date(now).toDateString()) return (clock ?? defaultClock)(at);
  return dayAndTime.format(at);
}

/** The row's reason while the app holds the queue: whole sentences, the time in the person's locale. */
function holdRowText(hold: QueueHold, now: number, clock?: (ms: number) => string): string {
  if (hold.reason === 'battery') return 'Waiting: uploads are paused while on battery';
  return hold.until === null
    ? 'Waiting: the upload schedule pauses uploads'
    : `Waiting until ${formatEdge(hold.until, now, clock)}: the upload schedule pauses uploads`;
}

/**
 * "Paused until 18:00 (schedule)", "Paused while on battery", or null: the
 * toolbar's words for the app's own hold, shown beside the person's pause.
 */
export function queueHoldText(hold: QueueHold | null, now: number, clock?: (ms: number) => string): string | null {
  if (hold === null) return null;
  if (hold.reason === 'battery') return 'Paused while on battery';
  return hold.until === null
    ? 'Paused by the schedule'
    : `Paused until ${formatEdge(hold.until, now, clock)} (schedule)`;
}

/** "Paused until 14:05", "Paused until you resume", or null when running: the toolbar's words. */
export function queuePausedText(
  status: { paused: boolean; pausedUntil: number | null },
  clock: (ms: number) => string = defaultClock,
): string | null {
  if (!status.paused) return null;
  return status.pausedUntil === null
    ? 'All uploads paused until you resume'
    : `All uploads paused until ${clock(status.pausedUntil)}`;
}

/** "Waiting 37 s (rate limited)" while a gate is closed; "37 of 60 requests left" otherwise. */
export function rateLimitText(
  view: { limit: number | null; remaining: number | null; gateReason: 'rate-limited' | 'api-disabled' | null },
  gateLeftMs: number,
): string {
  if (gateLeftMs > 0) {
    const wait = formatDuration(gateLeftMs / 1000);
    return view.gateReason === 'api-disabled' ? `Waiting ${wait} (API paused)` : `Waiting ${wait} (rate limited)`;
  }
  if (view.limit === null || view.remaining === null) return 'No requests yet';
  return `${view.remaining} of ${view.limit} requests left`;
}
