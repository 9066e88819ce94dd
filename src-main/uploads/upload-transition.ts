import { englishText, message, translatedValues } from '../../src-shared/i18n/message.js';
import { ACTIVE_KINDS, type UploadProblem, type UploadState } from '../../src-shared/model/upload-state.js';
import { backoffDelay, type BackoffPolicy } from '../api-client/retry-policy.js';
import { assertNever } from '../common/assert-never.js';

/** Attempts of one file before it is `failed`; the count starts over whenever a chunk is acknowledged. */
export const MAX_FILE_ATTEMPTS = 6;
/** Per-file backoff: longer than a request's, since the request already retried a few times. */
export const FILE_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 5 * 60_000 };

export type UploadEvent =
  /** `ackedBytes`: what the server acknowledged before (resuming) */
  | { type: 'start'; totalBytes: number; ackedBytes: number }
  /** an acknowledged chunk (more `ackedBytes`) starts the attempt count over */
  | { type: 'progress'; ackedBytes: number; sentBytes: number }
  /** its turn came, but it may not start yet: a process still writes its file */
  | { type: 'wait'; reason: 'beingWritten' }
  /** the person's "pause after this chunk" (or the queue's) */
  | { type: 'pauseAfterChunk' }
  | { type: 'bytesSent' }
  | { type: 'succeed'; fileId: string; now: number; existing?: true }
  /** `random` in [0, 1) draws the backoff jitter, so the transition stays pure */
  | { type: 'fail'; problem: UploadProblem; retryable: boolean; now: number; random: number }
  /** the file changed under the upload: it starts over once it stayed the same for `settleMs` (no attempt counted) */
  | { type: 'changed'; problem: UploadProblem; now: number; settleMs: number }
  /** stopped for a reason that is not the file's fault: quit, global pause, the account's token refused */
  | { type: 'interrupt' }
  | { type: 'pause'; until: number | null }
  | { type: 'resume' }
  | { type: 'cancel' }
  | { type: 'retry' };

export type UploadEventType = UploadEvent['type'];

/**
 * The upload state machine (drawn at UploadStateSchema). Pure: the same state
 * and event always give the same state; an event that does not apply returns
 * the state unchanged (the very same object), which the runner treats as "ignored".
 */
export function transition(state: UploadState, event: UploadEvent): UploadState {
  switch (event.type) {
    case 'start':
      if (state.kind === 'queued' || state.kind === 'retrying') {
        const attempt = state.kind === 'retrying' ? state.attempt : 0;
        const { ackedBytes, totalBytes } = event;
        return { kind: 'uploading', attempt, ackedBytes, sentBytes: ackedBytes, totalBytes };
      }
      return state;
    case 'wait':
      return state.kind === 'queued' && state.waiting !== event.reason
        ? { kind: 'queued', waiting: event.reason }
        : state;
    case 'progress': {
      if (state.kind !== 'uploading') return state;
      const { ackedBytes, sentBytes } = event;
      return { ...state, ackedBytes, sentBytes, attempt: ackedBytes > state.ackedBytes ? 0 : state.attempt };
    }
    case 'pauseAfterChunk':
      return state.kind === 'uploading' && !state.pausing ? { ...state, pausing: true } : state;
    case 'bytesSent':
      return state.kind === 'uploading' ? { kind: 'finalizing', attempt: state.attempt } : state;
    case 'succeed':
      return state.kind === 'uploading' || state.kind === 'finalizing'
        ? { kind: 'done', fileId: event.fileId, finishedAt: event.now, ...(event.existing && { existing: true }) }
        : state;
    case 'fail': {
      if (state.kind !== 'uploading' && state.kind !== 'finalizing') return state;
      const attempt = state.attempt + 1;
      if (!event.retryable || attempt >= MAX_FILE_ATTEMPTS) {
        const reason = event.retryable ? gaveUp(event.problem, attempt) : event.problem;
        return { kind: 'failed', reason };
      }
      const retryAt = event.now + backoffDelay(attempt, event.random, FILE_BACKOFF);
      return { kind: 'retrying', attempt, retryAt, lastError: event.problem };
    }
    case 'changed':
      if (state.kind !== 'uploading' && state.kind !== 'finalizing') return state;
      return {
        kind: 'retrying',
        attempt: state.attempt,
        retryAt: event.now + event.settleMs,
        lastError: event.problem,
        changed: true,
      };
    case 'interrupt':
      return state.kind === 'uploading' || state.kind === 'finalizing' ? { kind: 'queued' } : state;
    case 'pause':
      return isActive(state) ? { kind: 'paused', until: event.until } : state;
    case 'resume': {
      if (state.kind === 'paused') return { kind: 'queued' };
      if (state.kind !== 'uploading' || !state.pausing) return state;
      const { pausing: _, ...going } = state;
      return going;
    }
    case 'cancel':
      return isActive(state) || state.kind === 'paused' ? { kind: 'cancelled' } : state;
    case 'retry':
      return state.kind === 'failed' || state.kind === 'cancelled' ? { kind: 'queued' } : state;
    default:
      return assertNever(event);
  }
}

function isActive(state: UploadState): boolean {
  return ACTIVE_KINDS.includes(state.kind);
}

/** The last try's problem, said as the reason the upload stopped: the app's own sentence, quoting it. */
function gaveUp(problem: UploadProblem, attempts: number): UploadProblem {
  const { text: said, ...rest } = problem;
  // quoted one level deep: a message inside the quoted one (never made today) would be said in English
  const values = said && translatedValues(said, englishText);
  const reason = said ? { key: said.key, ...(values ? { values } : {}) } : problem.message;
  const text = message('core.errors.gaveUp', { count: attempts, reason });
  return { ...rest, message: englishText(text), text };
}
