import { describe, expect, it } from 'vitest';
import { FixedWindowRateLimiter } from '../../../src-server/http/rate-limiter.js';

describe('FixedWindowRateLimiter', () => {
  it('allows the limit, refuses one more, and reopens when the window ends', () => {
    const clock = { now: () => 1_000_000 };
    const limiter = new FixedWindowRateLimiter(3, 60_000, clock);
    expect([1, 2, 3].map(() => limiter.hit('k').remaining)).toEqual([2, 1, 0]);
    const refused = limiter.hit('k');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 60 });
    clock.now = () => 1_000_000 + 59_001;
    expect(limiter.hit('k')).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    clock.now = () => 1_000_000 + 60_000;
    expect(limiter.hit('k')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('says how long is left of the window to the millisecond, allowed or not', () => {
    const clock = { now: () => 5_000 };
    const limiter = new FixedWindowRateLimiter(1, 2_000, clock);
    expect(limiter.hit('k')).toMatchObject({ allowed: true, resetAfterMs: 2_000 });
    clock.now = () => 5_000 + 766;
    expect(limiter.hit('k')).toMatchObject({ allowed: false, resetAfterMs: 1_234, retryAfterSeconds: 2 });
    clock.now = () => 5_000 + 1_999;
    expect(limiter.hit('k')).toMatchObject({ allowed: false, resetAfterMs: 1, retryAfterSeconds: 1 });
    // The next window starts with this hit, so its full length is left.
    clock.now = () => 5_000 + 2_500;
    expect(limiter.hit('k')).toMatchObject({ allowed: true, resetAfterMs: 2_000 });
  });

  it('counts each key on its own', () => {
    const limiter = new FixedWindowRateLimiter(1, 1000, { now: () => 0 });
    expect(limiter.hit('token:1|10.0.0.1').allowed).toBe(true);
    expect(limiter.hit('token:1|10.0.0.2').allowed).toBe(true);
    expect(limiter.hit('token:1|10.0.0.1').allowed).toBe(false);
  });
});
