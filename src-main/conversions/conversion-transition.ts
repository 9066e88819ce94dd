import { englishText, message } from '../../src-shared/i18n/message.js';
import type { ConversionSeen, FollowState } from '../../src-shared/model/conversion-follow.js';
import { assertNever } from '../common/assert-never.js';

/** How a file is followed: the polling backoff and when to give up. */
export interface FollowPolicy {
  /** the first wait, and the wait after the conversion moved (10 s) */
  minDelayMs: number;
  /** the longest wait between two polls (2 min) */
  maxDelayMs: number;
  /** a file not final after this long is no longer followed (24 h) */
  maxAgeMs: number;
}

export const DEFAULT_FOLLOW_POLICY: FollowPolicy = {
  minDelayMs: 10_000,
  maxDelayMs: 2 * 60_000,
  maxAgeMs: 24 * 60 * 60_000,
};

/** What happened to a followed file. `at` is wall-clock milliseconds. */
export type FollowEvent =
  /** a status answer: `conversion` null when the file has no conversion job */
  | { type: 'status'; at: number; conversion: (ConversionSeen & { error: string | null }) | null }
  /** the file is gone (404) */
  | { type: 'notFound'; at: number }
  /** the poll failed for another reason (network, 5xx, a refused token): try later */
  | { type: 'pollFailed'; at: number }
  /** the file was deleted from this app: no request needed */
  | { type: 'deleted'; at: number };

/** The wait after `polls` polls that saw no movement: 10 s, 20 s, 40 s … at most 2 min. */
export function pollDelay(polls: number, policy: FollowPolicy): number {
  return Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** Math.min(polls, 30));
}

/** A file starts followed with its first poll one minimum wait after the upload. */
export function startFollowing(at: number, policy: FollowPolicy): FollowState {
  return { kind: 'following', polls: 0, nextPollAt: at + policy.minDelayMs, conversion: null };
}

export function isFinalFollow(state: FollowState): boolean {
  return state.kind !== 'following';
}

/** Conversion statuses after which nothing changes (the reference server's `failed` is after its last attempt). */
const DONE = 'completed';
const FAILED = 'failed';

/**
 * The follow state after `event`, for a file followed since `startedAt`.
 * Pure: the runner (ConversionFollower) sends the requests and stores the result.
 * - a final state never changes;
 * - `pending`/`processing` (or any other status) keep following: the wait
 *   starts over at the minimum when status or stage moved, else doubles up to the maximum;
 * - past `maxAgeMs` since the start, a file still not final is `stopped`.
 */
export function transition(
  state: FollowState,
  event: FollowEvent,
  startedAt: number,
  policy: FollowPolicy,
): FollowState {
  if (state.kind !== 'following') return state;
  const at = event.at;
  switch (event.type) {
    case 'notFound':
    case 'deleted':
      return { kind: 'deleted', at };
    case 'pollFailed':
      return next(state, state.conversion, false, at, startedAt, policy);
    case 'status': {
      const seen = event.conversion;
      if (seen === null) return { kind: 'uploaded', at };
      if (seen.status === DONE) return { kind: 'ready', at };
      if (seen.status === FAILED) {
        if (seen.error !== null) return { kind: 'failed', reason: seen.error, at };
        const text = message('core.errors.conversionFailed');
        return { kind: 'failed', reason: englishText(text), text, at };
      }
      const conversion = { status: seen.status, stage: seen.stage, progress: seen.progress };
      const moved =
        state.conversion === null ||
        state.conversion.status !== seen.status ||
        state.conversion.stage !== seen.stage ||
        state.conversion.progress !== seen.progress;
      return next(state, conversion, moved, at, startedAt, policy);
    }
    default:
      return assertNever(event);
  }
}

/** Whether a following file is past its time at `now`: it is then `stopped` without another request. */
export function expire(state: FollowState, now: number, startedAt: number, policy: FollowPolicy): FollowState {
  if (state.kind === 'following' && now - startedAt >= policy.maxAgeMs) return { kind: 'stopped', at: now };
  return state;
}

function next(
  state: Extract<FollowState, { kind: 'following' }>,
  conversion: ConversionSeen | null,
  moved: boolean,
  at: number,
  startedAt: number,
  policy: FollowPolicy,
): FollowState {
  const polls = moved ? 0 : state.polls + 1;
  const following: FollowState = { kind: 'following', polls, nextPollAt: at + pollDelay(polls, policy), conversion };
  return expire(following, at, startedAt, policy);
}
