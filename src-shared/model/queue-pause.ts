/**
 * The person's own pause of the whole queue, present only while it holds:
 * `until` is when it ends (epoch ms), null until resumed. The app's own
 * holds are apart (queue-hold.ts).
 */
export interface QueuePause {
  until: number | null;
}

/** The pauses a person picks from (the page, the tray, `queue pause --for`), in hours; or until resumed. */
export const PAUSE_HOURS = [2, 8, 24] as const;
export type PauseHours = (typeof PAUSE_HOURS)[number];

/** When a pause of `hours` from `now` ends, as the page, the tray and the CLI ask for it; null: until resumed. */
export function pauseUntil(hours: number | null, now: number): number | null {
  return hours === null ? null : now + hours * 3_600_000;
}
