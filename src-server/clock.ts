/** Wall-clock time, injectable so tests can move a day forward without waiting one. */
export interface Clock {
  /** milliseconds since the epoch */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** `YYYY-MM-DD HH:MM:SS` in UTC, the spec's `updated_at` format. */
export function toSqlDateTime(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ');
}
