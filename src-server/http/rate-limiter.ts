import type { Clock } from '../clock.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the window reopens (at least 1) */
  retryAfterSeconds: number;
  /** milliseconds until the current window ends, unrounded: the `X-RateLimit-Reset-After` hint */
  resetAfterMs: number;
  /** epoch seconds at which the window resets */
  resetAt: number;
}

interface Window {
  startedAt: number;
  count: number;
}

/**
 * Fixed-window limiter per key (token and IP): the window opens at the first
 * request and lasts `windowMs`; the `limit + 1`-th request inside it is refused.
 */
export class FixedWindowRateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  hit(key: string): RateDecision {
    const now = this.clock.now();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.windowMs) {
      if (this.windows.size > 10_000) this.evictExpired(now);
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    const endsAt = window.startedAt + this.windowMs;
    const allowed = window.count < this.limit;
    if (allowed) window.count += 1;
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now) / 1000)),
      resetAfterMs: Math.max(0, endsAt - now),
      resetAt: Math.ceil(endsAt / 1000),
    };
  }

  private evictExpired(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.startedAt >= this.windowMs) this.windows.delete(key);
    }
  }
}
