import { CoreLanguage } from '../../../src-main/common/i18n.js';
import type { Message } from '../../../src-shared/i18n/message.js';
import { describe, expect, it } from 'vitest';
import {
  FILE_BACKOFF,
  MAX_FILE_ATTEMPTS,
  transition,
  type UploadEvent,
  type UploadEventType,
} from '../../../src-main/uploads/upload-transition.js';
import {
  UPLOAD_STATE_KINDS,
  UploadStateSchema,
  type UploadProblem,
  type UploadState,
  type UploadStateKind,
} from '../../../src-shared/model/upload-state.js';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const PROBLEM: UploadProblem = { message: 'The server answered 502.', code: 'HTTP_ERROR', requestId: 'req-1' };
const OLD_PROBLEM: UploadProblem = { message: 'Connection reset.', code: 'NETWORK_ERROR', requestId: null };
const CHANGED_PROBLEM: UploadProblem = { message: 'The file changed.', code: null, requestId: null };

/** One state of every kind, with attempt 2 where the kind counts attempts. */
const STATES: Record<UploadStateKind, UploadState> = {
  queued: { kind: 'queued' },
  uploading: { kind: 'uploading', attempt: 2, ackedBytes: 100, sentBytes: 150, totalBytes: 1_000 },
  finalizing: { kind: 'finalizing', attempt: 2 },
  retrying: { kind: 'retrying', attempt: 2, retryAt: NOW - 1, lastError: OLD_PROBLEM },
  paused: { kind: 'paused', until: NOW + 3_600_000 },
  done: { kind: 'done', fileId: 'file-old', finishedAt: NOW - 60_000 },
  failed: { kind: 'failed', reason: OLD_PROBLEM },
  cancelled: { kind: 'cancelled' },
};

/**
 * Every event type; `fail` twice, since a retryable and a final failure lead to
 * different states (12 types, 13 rows).
 */
const EVENTS = {
  start: { type: 'start', totalBytes: 1_000, ackedBytes: 300 },
  progress: { type: 'progress', ackedBytes: 100, sentBytes: 400 },
  pauseAfterChunk: { type: 'pauseAfterChunk' },
  bytesSent: { type: 'bytesSent' },
  succeed: { type: 'succeed', fileId: 'file-new', now: NOW },
  failRetryable: { type: 'fail', problem: PROBLEM, retryable: true, now: NOW, random: 0.5 },
  failFinal: { type: 'fail', problem: PROBLEM, retryable: false, now: NOW, random: 0.5 },
  changed: { type: 'changed', problem: CHANGED_PROBLEM, now: NOW, settleMs: 3_000 },
  interrupt: { type: 'interrupt' },
  pause: { type: 'pause', until: NOW + 60_000 },
  resume: { type: 'resume' },
  cancel: { type: 'cancel' },
  retry: { type: 'retry' },
  wait: { type: 'wait', reason: 'beingWritten' },
} as const satisfies Record<string, UploadEvent>;
type EventName = keyof typeof EVENTS;

const IGNORED = 'ignored';
type Expected = UploadState | typeof IGNORED;

// attempt 2 -> 3: delay = floor(0.5 * min(5 min, 2 s * 2^3)) = 8 s
const RETRYING_AFTER_FAIL: UploadState = { kind: 'retrying', attempt: 3, retryAt: NOW + 8_000, lastError: PROBLEM };
const FAILED: UploadState = { kind: 'failed', reason: PROBLEM };
// the file's settle window, and no attempt counted
const WAITING_FOR_CHANGE: UploadState = {
  kind: 'retrying',
  attempt: 2,
  retryAt: NOW + 3_000,
  lastError: CHANGED_PROBLEM,
  changed: true,
};
const PAUSED: UploadState = { kind: 'paused', until: NOW + 60_000 };
const DONE: UploadState = { kind: 'done', fileId: 'file-new', finishedAt: NOW };

const TABLE: Record<UploadStateKind, Record<EventName, Expected>> = {
  queued: {
    start: { kind: 'uploading', attempt: 0, ackedBytes: 300, sentBytes: 300, totalBytes: 1_000 },
    progress: IGNORED,
    pauseAfterChunk: IGNORED,
    bytesSent: IGNORED,
    succeed: IGNORED,
    failRetryable: IGNORED,
    failFinal: IGNORED,
    changed: IGNORED,
    interrupt: IGNORED,
    pause: PAUSED,
    resume: IGNORED,
    cancel: { kind: 'cancelled' },
    retry: IGNORED,
    wait: { kind: 'queued', waiting: 'beingWritten' },
  },
  uploading: {
    start: IGNORED,
    progress: { kind: 'uploading', attempt: 2, ackedBytes: 100, sentBytes: 400, totalBytes: 1_000 },
    pauseAfterChunk: {
      kind: 'uploading',
      attempt: 2,
      ackedBytes: 100,
      sentBytes: 150,
      totalBytes: 1_000,
      pausing: true,
    },
    bytesSent: { kind: 'finalizing', attempt: 2 },
    succeed: DONE,
    failRetryable: RETRYING_AFTER_FAIL,
    failFinal: FAILED,
    changed: WAITING_FOR_CHANGE,
    interrupt: { kind: 'queued' },
    pause: PAUSED,
    resume: IGNORED,
    cancel: { kind: 'cancelled' },
    retry: IGNORED,
    wait: IGNORED,
  },
  finalizing: {
    start: IGNORED,
    progress: IGNORED,
    pauseAfterChunk: IGNORED,
    bytesSent: IGNORED,
    succeed: DONE,
    failRetryable: RETRYING_AFTER_FAIL,
    failFinal: FAILED,
    changed: WAITING_FOR_CHANGE,
    interrupt: { kind: 'queued' },
    pause: PAUSED,
    resume: IGNORED,
    cancel: { kind: 'cancelled' },
    retry: IGNORED,
    wait: IGNORED,
  },
  retrying: {
    start: { kind: 'uploading', attempt: 2, ackedBytes: 300, sentBytes: 300, totalBytes: 1_000 },
    progress: IGNORED,
    pauseAfterChunk: IGNORED,
    bytesSent: IGNORED,
    succeed: IGNORED,
    failRetryable: IGNORED,
    failFinal: IGNORED,
    changed: IGNORED,
    interrupt: IGNORED,
    pause: PAUSED,
    resume: IGNORED,
    cancel: { kind: 'cancelled' },
    retry: IGNORED,
    wait: IGNORED,
  },
  paused: {
    start: IGNORED,
    progress: IGNORED,
    pauseAfterChunk: IGNORED,
    bytesSent: IGNORED,
    succeed: IGNORED,
    failRetryable: IGNORED,
    failFinal: IGNORED,
    changed: IGNORED,
    interrupt: IGNORED,
    pause: IGNORED,
    resume: { kind: 'queued' },
    cancel: { kind: 'cancelled' },
    retry: IGNORED,
    wait: IGNORED,
  },
  done: {
    start: IGNORED,
    progress: IGNORED,
    pauseAfterChunk: IGNORED,
    bytesSent: IGNORED,
    succeed: IGNORED,
    failRetryable: IGNORED,
    failFinal: IGNORED,
    changed: IGNORED,
    interrupt: IGNORED,
    pause: IGNORED,
    resume: IGNORED,
    cancel: IGNORED,
    retry: IGNORED,
    wait: IGNORED,
  },
  failed: {
    start: IGNORED,
    progress: IGNORED,
    pauseAfterChunk: IGNORED,
    bytesSent: IGNORED,
    succeed: IGNORED,
    failRetryable: IGNORED,
    failFinal: IGNORED,
    changed: IGNORED,
    interrupt: IGNORED,
    pause: IGNORED,
    resume: IGNORED,
    cancel: IGNORED,
    retry: { kind: 'queued' },
    wait: IGNORED,
  },
  cancelled: {
    start: IGNORED,
    progress: IGNORED,
    pauseAfterChunk: IGNORED,
    bytesSent: IGNORED,
    succeed: IGNORED,
    failRetryable: IGNORED,
    failFinal: IGNORED,
    changed: IGNORED,
    interrupt: IGNORED,
    pause: IGNORED,
    resume: IGNORED,
    cancel: IGNORED,
    retry: { kind: 'queued' },
    wait: IGNORED,
  },
};

const CASES = UPLOAD_STATE_KINDS.flatMap((kind) =>
  (Object.keys(EVENTS) as EventName[]).map((eventName) => ({ kind, eventName, expected: TABLE[kind][eventName] })),
);

describe('transition', () => {
  it('has a row for every state kind and every event type', () => {
    const eventTypes: UploadEventType[] = [
      'start',
      'progress',
      'pauseAfterChunk',
      'bytesSent',
      'succeed',
      'fail',
      'changed',
      'interrupt',
      'pause',
      'resume',
      'cancel',
      'retry',
      'wait',
    ];
    expect(new Set(Object.values(EVENTS).map((event) => event.type))).toEqual(new Set(eventTypes));
    expect(Object.keys(TABLE).sort()).toEqual([...UPLOAD_STATE_KINDS].sort());
    expect(CASES).toHaveLength(8 * 14);
  });

  it.each(CASES)('$kind + $eventName', ({ kind, eventName, expected }) => {
    const state = STATES[kind];
    const next = transition(state, EVENTS[eventName]);
    if (expected === IGNORED) {
      expect(next).toBe(state);
    } else {
      expect(next).not.toBe(state);
      expect(next).toEqual(expected);
    }
  });

  it('waits once for a writer: waiting again changes nothing, and a start takes the item on', () => {
    const waiting = transition({ kind: 'queued' }, EVENTS.wait);
    expect(transition(waiting, EVENTS.wait)).toBe(waiting);
    expect(transition(waiting, EVENTS.start)).toEqual({
      kind: 'uploading',
      attempt: 0,
      ackedBytes: 300,
      sentBytes: 300,
      totalBytes: 1_000,
    });
  });

  it('counts attempts across fail/start cycles and gives up after MAX_FILE_ATTEMPTS', () => {
    const seen: UploadState[] = [];
    let state: UploadState = { kind: 'queued' };
    for (let i = 0; i < MAX_FILE_ATTEMPTS; i++) {
      state = transition(state, { type: 'start', totalBytes: 1_000, ackedBytes: 0 });
      seen.push(state);
      state = transition(state, { type: 'fail', problem: PROBLEM, retryable: true, now: NOW, random: 0 });
      seen.push(state);
    }
    const retrying = (attempt: number): UploadState => ({
      kind: 'retrying',
      attempt,
      retryAt: NOW,
      lastError: PROBLEM,
    });
    const uploading = (attempt: number): UploadState => ({
      kind: 'uploading',
      attempt,
      ackedBytes: 0,
      sentBytes: 0,
      totalBytes: 1_000,
    });
    expect(MAX_FILE_ATTEMPTS).toBe(6);
    expect(seen).toEqual([
      uploading(0),
      retrying(1),
      uploading(1),
      retrying(2),
      uploading(2),
      retrying(3),
      uploading(3),
      retrying(4),
      uploading(4),
      retrying(5),
      uploading(5),
      {
        kind: 'failed',
        reason: {
          message: 'Gave up after 6 attempts: The server answered 502.',
          code: 'HTTP_ERROR',
          requestId: 'req-1',
          // the app's own sentence, quoting the server's words as they were sent
          text: {
            key: 'core.errors.gaveUp',
            values: { count: 6, reason: 'The server answered 502.' },
          },
        },
      },
    ]);
  });

  it('counts a failure while finalizing like one while uploading', () => {
    let state: UploadState = {
      kind: 'uploading',
      attempt: MAX_FILE_ATTEMPTS - 2,
      ackedBytes: 0,
      sentBytes: 1_000,
      totalBytes: 1_000,
    };
    state = transition(state, { type: 'bytesSent' });
    state = transition(state, { type: 'fail', problem: PROBLEM, retryable: true, now: NOW, random: 0 });
    expect(state).toEqual({ kind: 'retrying', attempt: MAX_FILE_ATTEMPTS - 1, retryAt: NOW, lastError: PROBLEM });
    state = transition(state, { type: 'start', totalBytes: 1_000, ackedBytes: 0 });
    state = transition(state, { type: 'bytesSent' });
    state = transition(state, { type: 'fail', problem: PROBLEM, retryable: true, now: NOW, random: 0 });
    expect(state).toEqual({
      kind: 'failed',
      reason: {
        ...PROBLEM,
        message: `Gave up after ${MAX_FILE_ATTEMPTS} attempts: The server answered 502.`,
        text: { key: 'core.errors.gaveUp', values: { count: MAX_FILE_ATTEMPTS, reason: 'The server answered 502.' } },
      },
    });
  });

  it('quotes the last problem as a message when it is the app’s own, so all of it is said in one language', async () => {
    const own = { ...PROBLEM, message: 'Could not reach the server (ECONNREFUSED).' };
    const text = { key: 'core.errors.unreachable', values: { detail: 'ECONNREFUSED' } } as const;
    const state: UploadState = {
      kind: 'uploading',
      attempt: MAX_FILE_ATTEMPTS - 1,
      ackedBytes: 0,
      sentBytes: 0,
      totalBytes: 1,
    };
    const failed = transition(state, { type: 'fail', problem: { ...own, text }, retryable: true, now: NOW, random: 0 });
    expect(failed).toMatchObject({
      kind: 'failed',
      reason: {
        message: `Gave up after ${MAX_FILE_ATTEMPTS} attempts: Could not reach the server (ECONNREFUSED).`,
        text: { key: 'core.errors.gaveUp', values: { count: MAX_FILE_ATTEMPTS, reason: text } },
      },
    });
    const german = new CoreLanguage(() => ['de-DE']);
    await german.ready;
    expect(german.translate((failed as { reason: { text: Message } }).reason.text)).toBe(
      `Nach ${MAX_FILE_ATTEMPTS} Versuchen aufgegeben: Der Server ist nicht erreichbar (ECONNREFUSED).`,
    );
  });

  it('starts the attempt count over when a chunk is acknowledged, not on mere progress', () => {
    const total = 270_000_000;
    const uploading: UploadState = { kind: 'uploading', attempt: 4, ackedBytes: 0, sentBytes: 0, totalBytes: total };
    const moved = transition(uploading, { type: 'progress', ackedBytes: 0, sentBytes: 45_000_000 });
    expect(moved).toEqual({ kind: 'uploading', attempt: 4, ackedBytes: 0, sentBytes: 45_000_000, totalBytes: total });
    const acked = transition(moved, { type: 'progress', ackedBytes: 90_000_000, sentBytes: 100_000_000 });
    expect(acked).toEqual({
      kind: 'uploading',
      attempt: 0,
      ackedBytes: 90_000_000,
      sentBytes: 100_000_000,
      totalBytes: total,
    });
    const failed = transition(acked, { type: 'fail', problem: PROBLEM, retryable: true, now: NOW, random: 0 });
    expect(failed).toEqual({ kind: 'retrying', attempt: 1, retryAt: NOW, lastError: PROBLEM });
  });

  it('keeps what was acknowledged apart from what is in flight, and a pause after this chunk until it is applied', () => {
    const total = 4 * 1_000_000;
    let state = transition({ kind: 'queued' }, { type: 'start', totalBytes: total, ackedBytes: 1_000_000 });
    state = transition(state, { type: 'progress', ackedBytes: 1_000_000, sentBytes: 1_600_000 });
    const pausing = transition(state, { type: 'pauseAfterChunk' });
    expect(pausing).toEqual({
      kind: 'uploading',
      attempt: 0,
      ackedBytes: 1_000_000,
      sentBytes: 1_600_000,
      totalBytes: total,
      pausing: true,
    });
    // asked twice: nothing changes
    expect(transition(pausing, { type: 'pauseAfterChunk' })).toBe(pausing);
    // the chunk in flight is committed: the mark stays until the runner ends the upload
    const committed = transition(pausing, { type: 'progress', ackedBytes: 2_000_000, sentBytes: 2_000_000 });
    expect(committed).toMatchObject({ ackedBytes: 2_000_000, sentBytes: 2_000_000, pausing: true });
    expect(transition(committed, { type: 'pause', until: null })).toEqual({ kind: 'paused', until: null });
    expect(transition(committed, { type: 'interrupt' })).toEqual({ kind: 'queued' });
    // resume takes the mark back; a "pause now" while it waits pauses at once
    expect(transition(pausing, { type: 'resume' })).toEqual(state);
    expect(transition(pausing, { type: 'pause', until: NOW })).toEqual({ kind: 'paused', until: NOW });
  });

  it('reads an uploading state saved before acknowledged bytes were kept as none acknowledged', () => {
    const saved = { kind: 'uploading', attempt: 1, sentBytes: 5_000, totalBytes: 9_000 };
    expect(UploadStateSchema.parse(saved)).toEqual({ ...saved, ackedBytes: 0 });
  });

  it('fails at once on a non-retryable failure, keeping the message and request id as they are', () => {
    const problem: UploadProblem = {
      message: 'The file type is not allowed.',
      code: 'VALIDATION_ERROR',
      requestId: 'req-422',
    };
    const state: UploadState = { kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes: 0, totalBytes: 10 };
    expect(transition(state, { type: 'fail', problem, retryable: false, now: NOW, random: 0.5 })).toEqual({
      kind: 'failed',
      reason: { message: 'The file type is not allowed.', code: 'VALIDATION_ERROR', requestId: 'req-422' },
    });
  });

  it.each([
    // attempt after the failure, random, expected delay = floor(random * min(cap, base * 2^attempt))
    { attempt: 1, random: 0, delay: 0 },
    { attempt: 1, random: 0.5, delay: 2_000 },
    { attempt: 1, random: 0.999_999, delay: 3_999 },
    { attempt: 3, random: 0.25, delay: 4_000 },
    { attempt: 5, random: 0.999_999, delay: 63_999 },
  ])('retries at now + $delay ms for attempt $attempt and random $random', ({ attempt, random, delay }) => {
    const state: UploadState = { kind: 'uploading', attempt: attempt - 1, ackedBytes: 0, sentBytes: 0, totalBytes: 10 };
    const next = transition(state, { type: 'fail', problem: PROBLEM, retryable: true, now: NOW, random });
    expect(next).toEqual({ kind: 'retrying', attempt, retryAt: NOW + delay, lastError: PROBLEM });
    expect(delay).toBeLessThan(Math.min(FILE_BACKOFF.capMs, FILE_BACKOFF.baseMs * 2 ** attempt));
  });
});
