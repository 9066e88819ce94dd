import type { UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import {
  dateTimeFormat,
  formatBytes,
  formatDuration,
  formatRate,
  numberFormat,
} from '../../src-shared/model/format.js';
import type { QueueHold } from '../../src-shared/model/queue-hold.js';
import type { QueuePause } from '../../src-shared/model/queue-pause.js';
import { followChangesRow } from '../../src-shared/model/follow-row.js';
import { ackedBytes, chunkLength } from '../../src-shared/model/chunk-bytes.js';
import type { UploadState } from '../../src-shared/model/upload-state.js';
import { currentLocale, t } from '../i18n/i18n.js';
import { describeFollow } from './follow-text.js';
import { errorText } from '../i18n/translate.js';

/**
 * What the view offers on every row of the file itself: shown in its folder
 * by the desktop app, its path copied in a browser; of a file a page sent
 * (dropped, Add files…), whose path is the daemon's temporary copy gone once
 * uploaded, its name (its link, once uploaded, is one of the row's actions).
 */
export function fileAction(item: Pick<UploadItemView, 'fromBrowser'>, shell: { canReveal: boolean }) {
  if (item.fromBrowser) return 'copyName';
  return shell.canReveal ? 'reveal' : 'copyPath';
}

/** What a person can do with one row; the file itself (`fileAction`) is offered on every row by the view. */
export type RowAction =
  | 'pause'
  | 'pauseNow'
  | 'pauseAfterChunk'
  | 'resume'
  | 'cancel'
  | 'retry'
  | 'retryNow'
  | 'copyLink'
  | 'copyWatchLink'
  | 'openWatch';

export interface RowContext {
  /** wall-clock ms */
  now: number;
  /** the whole queue is paused (by the person) */
  queuePaused: boolean;
  /** the item's watched folder is paused (folders:pause): its files wait, the other folders go on */
  folderPaused?: boolean;
  /** the app holds the whole queue: the schedule's pause, or on battery */
  queueHold?: QueueHold | null;
  /** why the item's account cannot upload now (a refused token), if so */
  accountBlocked: string | null;
  /** the item's account is signed out: it waits for it to sign in again (or its folder to move) */
  accountSignedOut?: boolean;
  /** the account's requests wait for a Retry-After or an administrator's switch */
  accountGate: 'rate-limited' | 'api-disabled' | null;
  /** measured speed, bytes per second (running items) */
  speed: number | null;
  /** seconds left, after the warm-up (running items) */
  eta: number | null;
  /** "14:05": how a wall-clock time is shown */
  clock?: (ms: number) => string;
  /** the locale sizes, speeds and times are written in; the UI's by default */
  locale?: string;
}

export interface RowText {
  /** the state in words: "Uploading 45%" */
  state: string;
  /** a second line: sizes, speed and time left, or why it waits */
  detail: string | null;
  /** for failed and retrying items: the reason and the request id for support */
  problem: { message: string; requestId: string | null } | null;
  progress: RowProgress;
  tone: 'neutral' | 'active' | 'ok' | 'warn' | 'error';
  actions: readonly RowAction[];
}

/** A row's bar: bytes the service confirmed (whole chunks, kept by a pause), and those sent, in flight included. */
export interface RowProgress {
  confirmed: number;
  sent: number;
  max: number;
}

/** The same array for the same buttons, so a row's buttons are not drawn again while only its words move. */
const ACTIONS = {
  running: ['pause', 'cancel'],
  // the chunk in flight is mostly sent: finishing it keeps its bytes
  chunkMostlySent: ['pauseAfterChunk', 'pauseNow', 'cancel'],
  // Resume takes "pause after this chunk" back
  pausing: ['pauseNow', 'resume', 'cancel'],
  retrying: ['retryNow', 'pause', 'cancel'],
  paused: ['resume', 'cancel'],
  watch: ['copyWatchLink', 'openWatch'],
  link: ['copyLink'],
  retry: ['retry'],
  none: [],
} as const satisfies Record<string, readonly RowAction[]>;

/** Times of day today are shown alone; on another day with their weekday: "Mon 09:00", "Mo., 09:00". */
const timeOfDay = (locale: string) => dateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
const dayAndTime = (locale: string) => dateTimeFormat(locale, { weekday: 'short', hour: '2-digit', minute: '2-digit' });

function defaultClock(ms: number, locale = currentLocale()): string {
  return timeOfDay(locale).format(ms);
}

const bar = (confirmed: number, max: number, sent = confirmed): RowProgress => ({ confirmed, sent, max });

/**
 * More than half of the chunk in flight is sent, so "Pause after this chunk"
 * keeps more than it waits for. Chunks go in order: the one in flight is the
 * first not confirmed. Not for a file sent in one request: after its one
 * chunk the upload is done, not paused.
 */
function chunkMostlySent(item: UploadItemView, state: Extract<UploadState, { kind: 'uploading' }>): boolean {
  if (item.size <= item.chunkSize) return false;
  const chunk = chunkLength(item, Math.floor(state.ackedBytes / item.chunkSize));
  return state.sentBytes - state.ackedBytes > chunk / 2;
}

function waitReason(context: RowContext, clock: (ms: number) => string, locale: string): string | null {
  if (context.accountSignedOut) return t('queue.waiting.accountSignedOut');
  if (context.accountBlocked) return t('queue.waiting.accountBlocked', { reason: context.accountBlocked });
  if (context.queuePaused) return t('queue.waiting.paused');
  if (context.folderPaused) return t('queue.waiting.folderPaused');
  if (context.queueHold) return holdRowText(context.queueHold, context.now, clock, locale);
  if (context.accountGate === 'rate-limited') return t('queue.waiting.rateLimited');
  if (context.accountGate === 'api-disabled') return t('queue.waiting.apiDisabled');
  return null;
}

/** "45%" ("45 %" in German), rounded down so a row is not "100%" before its last byte. */
function percent(value: number, max: number, locale: string): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(
    max <= 0 ? 1 : Math.floor((value / max) * 100) / 100,
  );
}

/** The bar's words while bytes are in flight ("40% confirmed, 55% sent"); undefined when all sent are confirmed. */
export function progressText(progress: RowProgress, locale: string = currentLocale()): string | undefined {
  const { confirmed, sent, max } = progress;
  if (sent <= confirmed) return undefined;
  return t('queue.progressConfirmed', { confirmed: percent(confirmed, max, locale), sent: percent(sent, max, locale) });
}

/** One queue row in words, for each state of the upload machine. */
export function describeRow(item: UploadItemView, context: RowContext): RowText {
  const locale = context.locale ?? currentLocale();
  const clock = context.clock ?? ((ms: number) => defaultClock(ms, locale));
  const bytes = (value: number) => formatBytes(value, locale);
  const size = item.size;
  const state = item.state;
  switch (state.kind) {
    case 'queued': {
      const acked = ackedBytes(item);
      return {
        state: t('queue.row.queued'),
        detail:
          waitReason(context, clock, locale) ??
          (state.waiting === 'beingWritten' ? t('fileChecks.beingWritten') : null) ??
          (acked > 0 ? t('queue.row.alreadySent', { sent: bytes(acked), total: bytes(size) }) : null),
        problem: null,
        progress: bar(acked, size),
        tone: 'neutral',
        actions: ACTIONS.running,
      };
    }
    case 'uploading': {
      const total = state.totalBytes || size;
      const { ackedBytes: confirmed, sentBytes: sent } = state;
      // bytes in flight are said apart: a pause keeps only the confirmed ones (a file sent in one request keeps none)
      const parts: string[] = [
        confirmed < sent && item.size > item.chunkSize
          ? t('queue.row.sentConfirmed', { sent: bytes(sent), total: bytes(total), confirmed: bytes(confirmed) })
          : t('queue.row.sentOf', { sent: bytes(sent), total: bytes(total) }),
      ];
      // a pause or hold stops the worker: until it has, the row shows its bytes, not the wait
      const waiting = waitReason({ ...context, queuePaused: false, queueHold: null }, clock, locale);
      if (waiting) {
        // the worker holds the item, but its next request waits for the account's gate
        parts.push(waiting);
      } else {
        if (context.speed !== null) parts.push(formatRate(context.speed, locale));
        parts.push(
          context.eta === null
            ? t('queue.row.estimating')
            : t('queue.row.timeLeft', { time: formatDuration(context.eta, locale) }),
        );
      }
      if (state.attempt > 0) parts.push(t('queue.row.attempt', { attempt: state.attempt + 1 }));
      return {
        state: state.pausing
          ? t('queue.row.pausing')
          : t('queue.row.uploading', { percent: percent(sent, total, locale) }),
        detail: parts.join(' · '),
        problem: null,
        progress: bar(confirmed, total, sent),
        tone: 'active',
        actions: state.pausing
          ? ACTIONS.pausing
          : chunkMostlySent(item, state)
            ? ACTIONS.chunkMostlySent
            : ACTIONS.running,
      };
    }
    case 'finalizing':
      return {
        state: t('queue.row.finishing'),
        detail: t('queue.row.finishingDetail'),
        problem: null,
        progress: bar(size, size),
        tone: 'active',
        actions: ACTIONS.running,
      };
    case 'retrying': {
      const waitS = (state.retryAt - context.now) / 1000;
      if (state.changed) {
        // not a failure: the file is being written to, and its upload starts over once it stays the same
        return {
          state: t('queue.changed.waiting'),
          detail:
            waitS > 0.5
              ? t('queue.changed.startsIn', { time: formatDuration(waitS, locale) })
              : t('queue.changed.startsNow'),
          problem: null,
          progress: bar(0, size),
          tone: 'warn',
          actions: ACTIONS.retrying,
        };
      }
      return {
        state:
          waitS > 0.5 ? t('queue.row.retryingIn', { time: formatDuration(waitS, locale) }) : t('queue.row.retryingNow'),
        detail: t('queue.row.attemptAfterProblem', { attempt: state.attempt + 1 }),
        problem: { message: errorText(state.lastError), requestId: state.lastError.requestId },
        progress: bar(ackedBytes(item), size),
        tone: 'warn',
        actions: ACTIONS.retrying,
      };
    }
    case 'paused':
      return {
        state: t('queue.row.paused'),
        detail:
          state.until === null
            ? t('queue.row.pausedUntilResumed')
            : t('queue.row.pausedUntil', { time: clock(state.until) }),
        problem: null,
        progress: bar(ackedBytes(item), size),
        tone: 'neutral',
        actions: ACTIONS.paused,
      };
    case 'done': {
      // after the upload: the file's conversion, as the core follows it
      const after = item.afterUpload;
      if (!state.existing && followChangesRow(after)) {
        const text = describeFollow(after, locale);
        return {
          state: text.label,
          detail: item.changedSinceUpload
            ? t('queue.changed.since', { time: clock(state.finishedAt) })
            : text.tone === 'warn'
              ? t('queue.row.uploadedAt', { time: clock(state.finishedAt) })
              : text.detail,
          problem: text.tone === 'warn' && text.detail ? { message: text.detail, requestId: null } : null,
          progress: bar(size, size),
          tone: text.tone === 'warn' ? 'warn' : text.tone,
          actions: text.watchable ? ACTIONS.watch : after.state.kind === 'deleted' ? ACTIONS.none : ACTIONS.link,
        };
      }
      return {
        state: state.existing ? t('queue.row.existing') : t('queue.row.done'),
        detail: state.existing
          ? t('queue.row.existingDetail', { time: clock(state.finishedAt) })
          : item.changedSinceUpload
            ? t('queue.changed.since', { time: clock(state.finishedAt) })
            : t('queue.row.uploadedAt', { time: clock(state.finishedAt) }),
        problem: null,
        progress: bar(size, size),
        tone: 'ok',
        actions: ACTIONS.link,
      };
    }
    case 'failed':
      return {
        state: t('queue.row.failed'),
        detail: null,
        problem: { message: errorText(state.reason), requestId: state.reason.requestId },
        progress: bar(ackedBytes(item), size),
        tone: 'error',
        actions: ACTIONS.retry,
      };
    case 'cancelled':
      return {
        state: t('queue.row.cancelled'),
        detail: null,
        problem: null,
        progress: bar(0, size),
        tone: 'neutral',
        actions: ACTIONS.retry,
      };
  }
}

/** What a time is written against: now, how a wall-clock time is shown ("14:05"), the locale (the UI's by default). */
export interface TimeContext {
  now: number;
  clock?: (ms: number) => string;
  locale?: string;
}

/** When a hold ends, in the person's locale and zone: "18:00" today, "Mon 09:00" on another day. */
export function formatEdge(at: number, { now, clock, locale = currentLocale() }: TimeContext): string {
  if (new Date(at).toDateString() === new Date(now).toDateString()) return (clock ?? defaultClock)(at, locale);
  return dayAndTime(locale).format(at);
}

/** The row's reason while the app holds the queue: whole sentences, the time in the person's locale. */
function holdRowText(hold: QueueHold, now: number, clock: (ms: number) => string, locale: string): string {
  if (hold.reason === 'battery') return t('queue.waiting.battery');
  if (hold.reason === 'metered') return t('queue.waiting.metered');
  if (hold.reason === 'dataDiskFull') return t('queue.waiting.dataDiskFull');
  return hold.until === null
    ? t('queue.waiting.schedule')
    : t('queue.waiting.scheduleUntil', { time: formatEdge(hold.until, { now, clock, locale }) });
}

/**
 * "Paused until 18:00 (schedule)", "Paused while on battery", "Media Sync's
 * disk is full: 30 files wait", or null: the toolbar's words for the app's
 * own hold, shown beside the person's pause.
 */
export function queueHoldText(hold: QueueHold | null, when: TimeContext): string | null {
  if (hold === null) return null;
  if (hold.reason === 'battery') return t('queue.hold.battery');
  if (hold.reason === 'metered') return t('queue.hold.metered');
  if (hold.reason === 'dataDiskFull') return t('queue.hold.dataDiskFull', { count: hold.waiting });
  return hold.until === null
    ? t('queue.hold.schedule')
    : t('queue.hold.scheduleUntil', { time: formatEdge(hold.until, when) });
}

/** "Paused until 14:05", "Paused until you resume", or null when running: the toolbar's words. */
export function queuePausedText(pause: QueuePause | null, clock: (ms: number) => string = defaultClock): string | null {
  if (!pause) return null;
  return pause.until === null
    ? t('queue.hold.allUntilResumed')
    : t('queue.hold.allUntil', { time: clock(pause.until) });
}

/** "Waiting 37 s (rate limited)" while a gate is closed; "37 of 60 requests left" otherwise. */
export function rateLimitText(
  view: { limit: number | null; remaining: number | null; gateReason: 'rate-limited' | 'api-disabled' | null },
  gateLeftMs: number,
  locale: string = currentLocale(),
): string {
  if (gateLeftMs > 0) {
    const time = formatDuration(gateLeftMs / 1000, locale);
    return view.gateReason === 'api-disabled'
      ? t('queue.rateLimit.apiDisabled', { time })
      : t('queue.rateLimit.rateLimited', { time });
  }
  if (view.limit === null || view.remaining === null) return t('rateLimit.none');
  const count = numberFormat(locale);
  return t('queue.rateLimit.left', { remaining: count.format(view.remaining), limit: count.format(view.limit) });
}
