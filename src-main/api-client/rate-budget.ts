/**
 * What the client knows of one account's request budget, learned from the
 * rate headers of every answer. Pure functions over an immutable value; the
 * RequestScheduler owns the current one. Times are monotonic milliseconds.
 *
 * The API promises only `X-RateLimit-Limit` and `-Remaining`. When a server
 * also sends `X-RateLimit-Reset-After` (seconds until the window ends, as
 * Discord does and the reference server does), the client waits exactly that
 * long once the budget is spent; without it, it waits for a window of
 * `fallbackWindowMs` (the spec's "per minute") from when it first saw the window.
 */
export interface RateBudget {
  limit: number | null;
  remaining: number | null;
  /** when the current window ends, if the server told us */
  windowEndsAt: number | null;
  /** when we first saw the current window (used only without the hint) */
  windowSeenAt: number | null;
  /** bumped at every window change; answers to requests sent in an older epoch do not lower `remaining` */
  epoch: number;
}

export interface RateHeaders {
  limit: number | null;
  remaining: number | null;
  resetAfterMs: number | null;
}

export const INITIAL_BUDGET: RateBudget = {
  limit: null,
  remaining: null,
  windowEndsAt: null,
  windowSeenAt: null,
  epoch: 0,
};

export const FALLBACK_WINDOW_MS = 60_000;
/**
 * Sent this long after the hinted window end, so the request lands in the new
 * window. The hint is counted from when its answer arrived, so the end it
 * gives is already late by the answer's trip; the margin only covers the
 * hint's rounding (to the millisecond) and a timer that fires a millisecond
 * early. With a server that opens a window at its first request, each window
 * starts this much later than the last ended: 20 ms, as it was, is 1 % of a
 * 2 s window.
 */
export const WINDOW_MARGIN_MS = 5;
/** Two hints further apart than this describe different windows. */
const SAME_WINDOW_TOLERANCE_MS = 250;

type HeaderBag = Record<string, string | string[] | undefined>;

export function readRateHeaders(headers: HeaderBag): RateHeaders {
  return {
    limit: nonNegative(header(headers, 'x-ratelimit-limit')),
    remaining: nonNegative(header(headers, 'x-ratelimit-remaining')),
    resetAfterMs: secondsToMs(header(headers, 'x-ratelimit-reset-after')),
  };
}

/** Folds one answer's headers into the budget. `sentEpoch` is the epoch when the request left. */
export function observe(budget: RateBudget, seen: RateHeaders, now: number, sentEpoch: number): RateBudget {
  const limit = seen.limit ?? budget.limit;
  if (seen.remaining === null) return { ...budget, limit };
  if (sentEpoch < budget.epoch) return { ...budget, limit };
  if (seen.resetAfterMs !== null) {
    const endsAt = now + seen.resetAfterMs;
    const newWindow = budget.windowEndsAt === null || endsAt > budget.windowEndsAt + SAME_WINDOW_TOLERANCE_MS;
    if (newWindow) return { ...budget, limit, remaining: seen.remaining, windowEndsAt: endsAt, windowSeenAt: now };
    return { ...budget, limit, remaining: Math.min(budget.remaining ?? seen.remaining, seen.remaining) };
  }
  if (budget.remaining === null || seen.remaining > budget.remaining) {
    return { ...budget, limit, remaining: seen.remaining, windowSeenAt: budget.windowSeenAt ?? now };
  }
  return { ...budget, limit, remaining: seen.remaining };
}

/** The budget once the current window is over: full again, and older answers no longer count. */
export function roll(budget: RateBudget, now: number): RateBudget {
  const endsAt = windowEnd(budget);
  if (endsAt === null || now < endsAt) return budget;
  return {
    limit: budget.limit,
    remaining: budget.limit,
    windowEndsAt: null,
    windowSeenAt: null,
    epoch: budget.epoch + 1,
  };
}

/**
 * The earliest monotonic time another request may leave, with `inFlight`
 * requests not yet answered and `reserve` requests of the window kept back
 * (background polling leaves the last ones to the person and the uploads).
 */
export function earliestSend(budget: RateBudget, inFlight: number, now: number, reserve = 0): number {
  if (budget.remaining === null) return now;
  if (budget.remaining - inFlight > reserve) return now;
  return (windowEnd(budget) ?? now + FALLBACK_WINDOW_MS) + WINDOW_MARGIN_MS;
}

/** The share of a window's budget background requests never use (issue 13: the last 10%). */
export const BACKGROUND_RESERVE_SHARE = 0.1;

/**
 * How many requests of the window background requests leave alone: 10% of
 * the limit, rounded up, but never the whole window (a limit of 1 would
 * starve polling for good); 0 while the limit is unknown.
 */
export function backgroundReserve(budget: RateBudget): number {
  if (budget.limit === null) return 0;
  return Math.max(0, Math.min(Math.ceil(budget.limit * BACKGROUND_RESERVE_SHARE), budget.limit - 1));
}

/** After a 429: nothing is known to be left until the gate opens; then a new window. */
export function exhaust(budget: RateBudget, reopensAt: number): RateBudget {
  return { ...budget, remaining: 0, windowEndsAt: reopensAt, epoch: budget.epoch + 1 };
}

function windowEnd(budget: RateBudget): number | null {
  if (budget.windowEndsAt !== null) return budget.windowEndsAt;
  if (budget.windowSeenAt !== null) return budget.windowSeenAt + FALLBACK_WINDOW_MS;
  return null;
}

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function nonNegative(value: string | undefined): number | null {
  if (value === undefined || !/^\d+$/.test(value.trim())) return null;
  return Number(value);
}

function secondsToMs(value: string | undefined): number | null {
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value.trim())) return null;
  return Math.round(Number(value) * 1000);
}
