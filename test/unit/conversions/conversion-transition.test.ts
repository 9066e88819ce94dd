import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FOLLOW_POLICY,
  expire,
  pollDelay,
  startFollowing,
  transition,
  type FollowEvent,
} from '../../../src-main/conversions/conversion-transition.js';
import type { FollowState } from '../../../src-shared/model/conversion-follow.js';

const policy = DEFAULT_FOLLOW_POLICY;
const HOUR = 3_600_000;

function status(at: number, status: string, stage: string, extra: { progress?: number; error?: string } = {}) {
  return {
    type: 'status',
    at,
    conversion: { status, stage, progress: extra.progress ?? null, error: extra.error ?? null },
  } satisfies FollowEvent;
}

/** Plays `events` from a file followed at 0 and returns every state, the first one included. */
function play(events: FollowEvent[]): FollowState[] {
  const states = [startFollowing(0, policy)];
  for (const event of events) states.push(transition(states.at(-1)!, event, 0, policy));
  return states;
}

describe('pollDelay', () => {
  it('backs off from 10 s to 2 min, doubling', () => {
    expect([0, 1, 2, 3, 4, 5, 50].map((polls) => pollDelay(polls, policy))).toEqual([
      10_000, 20_000, 40_000, 80_000, 120_000, 120_000, 120_000,
    ]);
  });
});

describe('following a conversion', () => {
  it('polls first 10 s after the upload', () => {
    expect(startFollowing(5_000, policy)).toEqual({
      kind: 'following',
      polls: 0,
      nextPollAt: 15_000,
      conversion: null,
    });
  });

  it('doubles the wait while nothing moves, and starts over at 10 s when the stage moves', () => {
    const states = play([
      status(10_000, 'processing', 'transcoding'),
      status(20_000, 'processing', 'transcoding'),
      status(40_000, 'processing', 'transcoding'),
      status(80_000, 'processing', 'adaptive'),
    ]);
    expect(states.slice(1).map((s) => (s.kind === 'following' ? [s.polls, s.nextPollAt] : s.kind))).toEqual([
      [0, 20_000],
      [1, 40_000],
      [2, 80_000],
      [0, 90_000],
    ]);
    expect(states.at(-1)).toMatchObject({ conversion: { status: 'processing', stage: 'adaptive', progress: null } });
  });

  it('keeps a progress figure when the status gives one, and counts its movement', () => {
    const [, first, second] = play([
      status(10_000, 'processing', 'transcoding', { progress: 40 }),
      status(20_000, 'processing', 'transcoding', { progress: 60 }),
    ]);
    expect(second).toEqual({
      kind: 'following',
      polls: 0,
      nextPollAt: 30_000,
      conversion: { status: 'processing', stage: 'transcoding', progress: 60 },
    });
    expect(first).toMatchObject({ conversion: { progress: 40 } });
  });

  it('ends ready when the conversion completed', () => {
    expect(play([status(10_000, 'completed', 'adaptive')]).at(-1)).toEqual({ kind: 'ready', at: 10_000 });
  });

  it('ends failed with the reason of the service, or a sentence of its own', () => {
    expect(play([status(10_000, 'failed', 'transcoding', { error: 'the file has no video stream' })]).at(-1)).toEqual({
      kind: 'failed',
      reason: 'the file has no video stream',
      at: 10_000,
    });
    expect(play([status(10_000, 'failed', 'probing')]).at(-1)).toMatchObject({
      reason: 'The service could not convert this video.',
    });
  });

  it('keeps following a conversion pending again after a failed attempt (the service retries it)', () => {
    expect(play([status(10_000, 'pending', 'queued', { error: 'boom' })]).at(-1)).toMatchObject({
      kind: 'following',
    });
  });

  it('ends at uploaded when the file has no conversion (not a video)', () => {
    const event: FollowEvent = { type: 'status', at: 10_000, conversion: null };
    expect(play([event]).at(-1)).toEqual({ kind: 'uploaded', at: 10_000 });
  });

  it('ends deleted on a 404, or when the app deleted the file', () => {
    expect(play([{ type: 'notFound', at: 10_000 }]).at(-1)).toEqual({ kind: 'deleted', at: 10_000 });
    expect(play([{ type: 'deleted', at: 3_000 }]).at(-1)).toEqual({ kind: 'deleted', at: 3_000 });
  });

  it('waits longer after a failed poll, keeping what it saw', () => {
    const [, seen, failed] = play([status(10_000, 'processing', 'probing'), { type: 'pollFailed', at: 20_000 }]);
    expect(failed).toEqual({ ...seen, polls: 1, nextPollAt: 40_000 });
  });

  it('never leaves a final state', () => {
    const ready: FollowState = { kind: 'ready', at: 1 };
    for (const event of [status(2, 'failed', 'x'), { type: 'notFound', at: 2 } as const]) {
      expect(transition(ready, event, 0, policy)).toBe(ready);
    }
  });

  it('stops after 24 h without a final answer, at a poll or before one', () => {
    const late = play([status(24 * HOUR, 'processing', 'transcoding')]).at(-1);
    expect(late).toEqual({ kind: 'stopped', at: 24 * HOUR });
    const waiting = startFollowing(0, policy);
    expect(expire(waiting, 24 * HOUR - 1, 0, policy)).toBe(waiting);
    expect(expire(waiting, 25 * HOUR, 0, policy)).toEqual({ kind: 'stopped', at: 25 * HOUR });
  });
});
