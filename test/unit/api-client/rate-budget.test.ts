import { describe, expect, it } from 'vitest';
import {
  FALLBACK_WINDOW_MS,
  INITIAL_BUDGET,
  WINDOW_MARGIN_MS,
  earliestSend,
  exhaust,
  observe,
  readRateHeaders,
  roll,
  type RateBudget,
  type RateHeaders,
} from '../../../src-main/api-client/rate-budget.js';

const hinted = (remaining: number, resetAfterMs: number, limit = 3): RateHeaders => ({
  limit,
  remaining,
  resetAfterMs,
});
const unhinted = (remaining: number, limit = 60): RateHeaders => ({ limit, remaining, resetAfterMs: null });

describe('readRateHeaders', () => {
  it('reads the limit, what is left and the reset hint in milliseconds', () => {
    expect(
      readRateHeaders({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset-after': '42' }),
    ).toEqual({ limit: 60, remaining: 59, resetAfterMs: 42_000 });
  });

  it('reads a decimal reset hint to the millisecond', () => {
    expect(readRateHeaders({ 'x-ratelimit-reset-after': '1.234' })).toEqual({
      limit: null,
      remaining: null,
      resetAfterMs: 1_234,
    });
    expect(readRateHeaders({ 'x-ratelimit-reset-after': '0.5' }).resetAfterMs).toBe(500);
  });

  it('takes the first of repeated headers and ignores surrounding spaces', () => {
    expect(readRateHeaders({ 'x-ratelimit-limit': ['30', '60'], 'x-ratelimit-remaining': ' 7 ' })).toEqual({
      limit: 30,
      remaining: 7,
      resetAfterMs: null,
    });
  });

  it('ignores missing and unreadable values', () => {
    expect(readRateHeaders({})).toEqual({ limit: null, remaining: null, resetAfterMs: null });
    expect(
      readRateHeaders({
        'x-ratelimit-limit': 'sixty',
        'x-ratelimit-remaining': '-1',
        'x-ratelimit-reset-after': 'soon',
      }),
    ).toEqual({ limit: null, remaining: null, resetAfterMs: null });
    expect(
      readRateHeaders({ 'x-ratelimit-limit': '2.5', 'x-ratelimit-remaining': '', 'x-ratelimit-reset-after': '-3' }),
    ).toEqual({ limit: null, remaining: null, resetAfterMs: null });
  });
});

describe('rate budget with the reset hint', () => {
  it('learns the window from the first answer', () => {
    expect(observe(INITIAL_BUDGET, hinted(2, 2_000), 1_000, 0)).toEqual({
      limit: 3,
      remaining: 2,
      windowEndsAt: 3_000,
      windowSeenAt: 1_000,
      epoch: 0,
    });
  });

  it('sends the next request exactly at windowEnd + WINDOW_MARGIN_MS once the budget is spent', () => {
    let budget = observe(INITIAL_BUDGET, hinted(2, 2_000), 1_000, 0);
    budget = observe(budget, hinted(1, 1_900), 1_100, 0);
    expect(earliestSend(budget, 0, 1_100)).toBe(1_100);
    budget = observe(budget, hinted(0, 1_800), 1_200, 0);
    expect(earliestSend(budget, 0, 1_200)).toBe(3_000 + WINDOW_MARGIN_MS);
    expect(WINDOW_MARGIN_MS).toBeGreaterThan(0);
  });

  it('counts requests in flight against what is left', () => {
    const budget = observe(INITIAL_BUDGET, hinted(2, 2_000), 1_000, 0);
    expect(earliestSend(budget, 1, 1_000)).toBe(1_000);
    expect(earliestSend(budget, 2, 1_000)).toBe(3_000 + WINDOW_MARGIN_MS);
    expect(earliestSend(budget, 5, 1_000)).toBe(3_000 + WINDOW_MARGIN_MS);
  });

  it('keeps the lowest remaining when answers of one window arrive out of order', () => {
    let budget = observe(INITIAL_BUDGET, hinted(2, 2_000), 1_000, 0);
    budget = observe(budget, hinted(0, 1_700), 1_300, 0);
    // sent before the one above, answered after it; its hint ends 100 ms later, still the same window
    budget = observe(budget, hinted(1, 1_800), 1_300, 0);
    expect(budget).toEqual({ limit: 3, remaining: 0, windowEndsAt: 3_000, windowSeenAt: 1_000, epoch: 0 });
  });

  it('takes a hint that ends well after the known window as a new window', () => {
    let budget = observe(INITIAL_BUDGET, hinted(0, 2_000), 1_000, 0);
    budget = observe(budget, hinted(2, 2_000), 3_100, 0);
    expect(budget).toEqual({ limit: 3, remaining: 2, windowEndsAt: 5_100, windowSeenAt: 3_100, epoch: 0 });
  });

  it('is full again when the window is over, and answers sent before do not lower it', () => {
    const spent = observe(INITIAL_BUDGET, hinted(0, 2_000), 1_000, 0);
    expect(roll(spent, 2_999)).toBe(spent);
    const rolled = roll(spent, 3_000);
    expect(rolled).toEqual({ limit: 3, remaining: 3, windowEndsAt: null, windowSeenAt: null, epoch: 1 });
    expect(earliestSend(rolled, 0, 3_000)).toBe(3_000);
    // a late answer to a request that left in epoch 0
    expect(observe(rolled, hinted(0, 0, 5), 3_050, 0)).toEqual({
      limit: 5,
      remaining: 3,
      windowEndsAt: null,
      windowSeenAt: null,
      epoch: 1,
    });
  });

  it('keeps what it knows when an answer has no remaining header', () => {
    const budget = observe(INITIAL_BUDGET, hinted(2, 2_000), 1_000, 0);
    expect(observe(budget, { limit: null, remaining: null, resetAfterMs: 500 }, 1_500, 0)).toEqual(budget);
  });
});

describe('rate budget without the reset hint', () => {
  it(`waits for a ${FALLBACK_WINDOW_MS / 1000} s window from when the window was first seen`, () => {
    let budget = observe(INITIAL_BUDGET, unhinted(2), 5_000, 0);
    budget = observe(budget, unhinted(1), 20_000, 0);
    budget = observe(budget, unhinted(0), 30_000, 0);
    expect(budget).toEqual({ limit: 60, remaining: 0, windowEndsAt: null, windowSeenAt: 5_000, epoch: 0 });
    expect(earliestSend(budget, 0, 30_000)).toBe(65_000 + WINDOW_MARGIN_MS);
    expect(roll(budget, 64_999)).toBe(budget);
    expect(roll(budget, 65_000)).toEqual({
      limit: 60,
      remaining: 60,
      windowEndsAt: null,
      windowSeenAt: null,
      epoch: 1,
    });
  });

  it('waits a whole fallback window when the limit is spent and no window was seen yet', () => {
    const budget: RateBudget = { ...INITIAL_BUDGET, limit: 1, remaining: 1 };
    expect(earliestSend(budget, 1, 7_000)).toBe(7_000 + FALLBACK_WINDOW_MS + WINDOW_MARGIN_MS);
  });

  it('sends at once while nothing is known', () => {
    expect(earliestSend(INITIAL_BUDGET, 100, 42)).toBe(42);
    expect(roll(INITIAL_BUDGET, 1e9)).toBe(INITIAL_BUDGET);
  });
});

describe('exhaust', () => {
  it('spends the budget until the gate reopens, then starts a new window', () => {
    const budget = observe(INITIAL_BUDGET, hinted(2, 2_000), 1_000, 0);
    const exhausted = exhaust(budget, 9_000);
    expect(exhausted).toEqual({ limit: 3, remaining: 0, windowEndsAt: 9_000, windowSeenAt: 1_000, epoch: 1 });
    expect(earliestSend(exhausted, 0, 1_500)).toBe(9_000 + WINDOW_MARGIN_MS);
    // answers to requests that left before the 429 cannot reopen it
    expect(observe(exhausted, hinted(2, 1_000), 1_600, 0)).toEqual(exhausted);
    expect(roll(exhausted, 9_000)).toEqual({
      limit: 3,
      remaining: 3,
      windowEndsAt: null,
      windowSeenAt: null,
      epoch: 2,
    });
  });
});
