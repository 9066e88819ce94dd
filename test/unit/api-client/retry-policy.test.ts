import { describe, expect, it } from 'vitest';
import {
  REQUEST_BACKOFF,
  backoffDelay,
  isRetryableStatus,
  parseRetryAfter,
} from '../../../src-main/api-client/retry-policy.js';

describe('backoffDelay', () => {
  it('draws the delay uniformly below base * 2^attempt (full jitter)', () => {
    const policy = { baseMs: 100, capMs: 1_000_000 };
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 0, policy))).toEqual([0, 0, 0, 0]);
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 0.5, policy))).toEqual([50, 100, 200, 400]);
    // random is below 1, so the delay stays below the ceiling
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 0.999_999, policy))).toEqual([99, 199, 399, 799]);
  });

  it('never waits longer than the cap, however many attempts failed', () => {
    const policy = { baseMs: 100, capMs: 1_000 };
    expect([3, 4, 10, 60].map((attempt) => backoffDelay(attempt, 0.999_999, policy))).toEqual([799, 999, 999, 999]);
    expect(backoffDelay(4, 0.5, policy)).toBe(500);
  });

  it('treats a negative attempt as the first one', () => {
    expect(backoffDelay(-3, 0.5, { baseMs: 100, capMs: 1_000 })).toBe(50);
  });

  it('uses the request policy (500 ms base, 30 s cap) by default', () => {
    expect(REQUEST_BACKOFF).toEqual({ baseMs: 500, capMs: 30_000 });
    expect([0, 2, 6, 20].map((attempt) => backoffDelay(attempt, 0.5))).toEqual([250, 1_000, 15_000, 15_000]);
  });
});

describe('isRetryableStatus', () => {
  it.each([500, 502, 503, 504, 599, 408, 409, 423])('retries %i', (status) => {
    expect(isRetryableStatus(status)).toBe(true);
  });

  it.each([200, 400, 401, 403, 404, 410, 413, 422, 429])('does not retry %i', (status) => {
    expect(isRetryableStatus(status)).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2025, 5, 1, 12, 0, 0);

  it.each([
    { value: '5', ms: 5_000 },
    { value: '0', ms: 0 },
    { value: ' 120 ', ms: 120_000 },
    { value: '3600', ms: 3_600_000 },
  ])('reads delta seconds "$value" as $ms ms', ({ value, ms }) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it('reads decimal seconds as meant, and takes neither "-1" nor a bare number with junk for a date', () => {
    expect(parseRetryAfter('1.5', now)).toBe(1_500);
    expect(parseRetryAfter('-1', now)).toBe(60_000);
    expect(parseRetryAfter('12abc', now)).toBe(60_000);
  });

  it('reads an HTTP date relative to the given now', () => {
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter(new Date(now + 90_000).toUTCString(), now)).toBe(90_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:30 GMT', now + 10_000)).toBe(20_000);
  });

  it('waits 0 ms for a date already past', () => {
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:59:00 GMT', now)).toBe(0);
  });

  it.each([undefined, '', 'soon', '5s', 'in a minute', '1e3'])('falls back to 60 s for %j', (value) => {
    expect(parseRetryAfter(value, now)).toBe(60_000);
  });

  it('uses the given fallback when there is one', () => {
    expect(parseRetryAfter(undefined, now, 15_000)).toBe(15_000);
    expect(parseRetryAfter('garbage', now, 15_000)).toBe(15_000);
  });
});
