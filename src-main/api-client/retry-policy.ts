/**
 * Exponential backoff with full jitter (AWS architecture blog, "Exponential
 * Backoff And Jitter"): the delay is uniform in [0, min(cap, base * 2^attempt)).
 * Full jitter spreads retries of many clients that failed together, which is
 * what happens when a server restarts. Pure: `random` is a number in [0, 1).
 */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

export const REQUEST_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 30_000 };

export function backoffDelay(attempt: number, random: number, policy: BackoffPolicy = REQUEST_BACKOFF): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt));
  return Math.floor(random * ceiling);
}

/**
 * Statuses worth another try (tus-js-client's rule): 5xx, 408, 409 and 423.
 * 429 is handled apart, by waiting for `Retry-After`. Other 4xx are final:
 * the same request would get the same answer.
 */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 409 || status === 423;
}

/**
 * `Retry-After` in milliseconds from now: delta-seconds or an HTTP date
 * (RFC 9110 §10.2.3). Missing or unreadable: `fallbackMs` (60 s, the API's window).
 */
export function parseRetryAfter(value: string | undefined, nowWallMs: number, fallbackMs = 60_000): number {
  if (value === undefined) return fallbackMs;
  const trimmed = value.trim();
  // seconds; a decimal is not HTTP but is read the way it was obviously meant
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // an HTTP date names a weekday or month; V8's Date.parse would also take "-1" as a year
  if (!/[a-z]{3}/i.test(trimmed)) return fallbackMs;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return fallbackMs;
  return Math.max(0, date - nowWallMs);
}
