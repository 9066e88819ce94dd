import * as z from 'zod';

/**
 * Upload schedules (issue 13 §2), like rclone's bandwidth timetable: windows
 * of local wall-clock time on chosen weekdays, each with a speed limit or a
 * pause. Pure and plain TypeScript: the core evaluates it with the system's
 * time zone, tests with any zone. No Temporal (Node 20): local times come
 * from Intl.DateTimeFormat.
 *
 * Rules, documented in docs/uploads.md:
 * - A window runs from `from` to `to` on each of its `days`. `to` at or before
 *   `from` crosses midnight: it ends on the next day (`22:00`–`06:00`), and
 *   `from` equal to `to` is a whole day (24 hours of clock time).
 * - A window starts the first time the clock reaches its start and ends the
 *   first time it reaches its end. In the spring-forward gap (a start or end
 *   of 02:30 on a day the clock jumps from 02:00 to 03:00) that is the jump,
 *   03:00; in the repeated autumn hour the first pass counts, so a window
 *   that ends at 02:30 ends at 02:30 summer time and does not start again at
 *   the second 02:30.
 * - Overlapping windows: a pause wins over any limit, and of several limits
 *   the lowest wins. The order of the windows never matters.
 * - Outside every window the schedule has no effect (`none`): the Bandwidth
 *   setting applies. Inside a window with a limit, the window's limit
 *   replaces the Bandwidth setting.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const WeekdaySchema = z.enum(WEEKDAYS);
export type Weekday = z.infer<typeof WeekdaySchema>;

/** "HH:MM", 24-hour clock. */
export const TimeOfDaySchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:MM');

export const ScheduleActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('limit'), bytesPerSecond: z.int().positive() }),
  z.object({ kind: z.literal('pause') }),
]);
export type ScheduleAction = z.infer<typeof ScheduleActionSchema>;

export const ScheduleWindowSchema = z.object({
  days: z
    .array(WeekdaySchema)
    .min(1)
    .max(7)
    .refine((days) => new Set(days).size === days.length, 'each weekday once'),
  from: TimeOfDaySchema,
  to: TimeOfDaySchema,
  action: ScheduleActionSchema,
});
export type ScheduleWindow = z.infer<typeof ScheduleWindowSchema>;

/** At most this many windows: enough for any week, and each evaluation stays cheap. */
export const SCHEDULE_MAX_WINDOWS = 50;
export const UploadScheduleSchema = z.array(ScheduleWindowSchema).max(SCHEDULE_MAX_WINDOWS);
export type UploadSchedule = z.infer<typeof UploadScheduleSchema>;

/** What the schedule asks of the queue right now. */
export type ScheduleEffect = { kind: 'none' } | { kind: 'limit'; bytesPerSecond: number } | { kind: 'paused' };

export interface ScheduleState {
  effect: ScheduleEffect;
  /** the next instant (epoch ms) the effect changes; null when it never does */
  until: number | null;
}

const DAY_MS = 86_400_000;
/** Edges are looked for this far ahead: past a week of clock time the pattern repeats. */
const HORIZON_MS = 8 * DAY_MS;

export function sameScheduleEffect(a: ScheduleEffect, b: ScheduleEffect): boolean {
  if (a.kind !== b.kind) return false;
  return a.kind !== 'limit' || a.bytesPerSecond === (b as { bytesPerSecond: number }).bytesPerSecond;
}

/**
 * The schedule's effect at `now` (epoch ms) in `timeZone` (an IANA name),
 * and when it next changes. An empty schedule: `none`, forever.
 */
export function scheduleStateAt(schedule: UploadSchedule, now: number, timeZone: string): ScheduleState {
  if (schedule.length === 0) return { effect: { kind: 'none' }, until: null };
  const zone = new ZoneClock(timeZone);
  const today = zone.localDate(now);
  const occurrences: Array<{ start: number; end: number; action: ScheduleAction }> = [];
  // from yesterday (a window crossing midnight may still run) to past the horizon
  for (let offset = -1; offset <= 9; offset++) {
    const day = today + offset * DAY_MS;
    const weekday = WEEKDAYS[(new Date(day).getUTCDay() + 6) % 7]!;
    for (const window of schedule) {
      if (!window.days.includes(weekday)) continue;
      const from = minutesOf(window.from);
      const to = minutesOf(window.to);
      const endDay = to <= from ? day + DAY_MS : day;
      const start = zone.firstInstantAtOrAfter(day + from * 60_000);
      const end = zone.firstInstantAtOrAfter(endDay + to * 60_000);
      // a window wholly inside a spring-forward gap never happens
      if (end > start) occurrences.push({ start, end, action: window.action });
    }
  }
  const effectAt = (instant: number) =>
    combine(occurrences.filter((o) => o.start <= instant && instant < o.end).map((o) => o.action));
  const effect = effectAt(now);
  const edges = [...new Set(occurrences.flatMap((o) => [o.start, o.end]))]
    .filter((edge) => edge > now && edge <= now + HORIZON_MS)
    .sort((a, b) => a - b);
  for (const edge of edges) {
    if (!sameScheduleEffect(effectAt(edge), effect)) return { effect, until: edge };
  }
  return { effect, until: null };
}

/** Overlapping windows: a pause wins, else the lowest limit. */
function combine(actions: ScheduleAction[]): ScheduleEffect {
  if (actions.length === 0) return { kind: 'none' };
  if (actions.some((action) => action.kind === 'pause')) return { kind: 'paused' };
  const limits = actions.map((action) => (action.kind === 'limit' ? action.bytesPerSecond : Infinity));
  return { kind: 'limit', bytesPerSecond: Math.min(...limits) };
}

function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours! * 60 + minutes!;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Wall-clock readings of one time zone. A reading is kept as the epoch ms the
 * same date and time would have in UTC ("local ms"), so dates add as numbers.
 */
class ZoneClock {
  private readonly format: Intl.DateTimeFormat;
  /** one evaluation asks for the same starts and ends many times (every window, every day) */
  private readonly firsts = new Map<number, number>();
  private readonly dayOffsets = new Map<number, [number, number]>();

  constructor(timeZone: string) {
    let format = formatters.get(timeZone);
    if (!format) {
      // one formatter per zone for the process: building one costs far more than using it
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
      formatters.set(timeZone, format);
    }
    this.format = format;
  }

  /** The local reading of `instant`, to the second. */
  reading(instant: number): number {
    const parts: Record<string, number> = {};
    for (const part of this.format.formatToParts(instant)) {
      if (part.type !== 'literal') parts[part.type] = Number(part.value);
    }
    return Date.UTC(parts['year']!, parts['month']! - 1, parts['day'], parts['hour'], parts['minute'], parts['second']);
  }

  /** Local reading minus the instant: +3,600,000 in Berlin in winter. */
  offset(instant: number): number {
    const whole = Math.floor(instant / 1000) * 1000;
    return this.reading(whole) - whole;
  }

  /** Local midnight of the day `instant` falls on, as local ms. */
  localDate(instant: number): number {
    const reading = this.reading(instant);
    return reading - (((reading % DAY_MS) + DAY_MS) % DAY_MS);
  }

  /**
   * The first instant whose local reading is at or after `local`: the instant
   * the clock shows it, the first of two in a repeated hour, or the jump
   * itself when `local` falls in a skipped one. Assumes at most one change of
   * offset within a day of `local`'s day, as every zone has.
   */
  firstInstantAtOrAfter(local: number): number {
    let first = this.firsts.get(local);
    if (first === undefined) {
      first = this.findFirst(local);
      this.firsts.set(local, first);
    }
    return first;
  }

  private findFirst(local: number): number {
    const day = local - (((local % DAY_MS) + DAY_MS) % DAY_MS);
    let offsets = this.dayOffsets.get(day);
    if (!offsets) {
      // the offsets a day before and a day after: equal on every day but the few around a change of clocks
      offsets = [this.offset(day - DAY_MS), this.offset(day + 2 * DAY_MS)];
      this.dayOffsets.set(day, offsets);
    }
    const [before, after] = offsets;
    if (before === after) return local - before;
    const shown = [local - before, local - after].filter((instant) => this.reading(instant) === local);
    if (shown.length > 0) return Math.min(...shown);
    // skipped: the clock jumped over `local`; find the jump, to the second
    let low = Math.min(local - before, local - after);
    let high = Math.max(local - before, local - after);
    // invariant: reading(low) < local <= reading(high)
    while (high - low > 1000) {
      const middle = low + Math.floor((high - low) / 2000) * 1000;
      if (this.reading(middle) < local) low = middle;
      else high = middle;
    }
    return high;
  }
}
