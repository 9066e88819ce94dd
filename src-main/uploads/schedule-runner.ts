import {
  sameScheduleEffect,
  scheduleStateAt,
  type ScheduleState,
  type UploadSchedule,
} from '../../src-shared/model/upload-schedule.js';
import { systemClock, type Clock } from '../common/clock.js';
import type { Disposable } from '../common/disposable.js';

export interface ScheduleRunnerOptions {
  /** told the schedule's state at start and at every change of effect or of its end */
  apply(state: ScheduleState): void;
  clock?: Clock;
  /** the IANA zone windows are read in, asked at each evaluation (the system's may change: travel) */
  timeZone?: () => string;
  /**
   * The longest single wait (60 s). Timers run on monotonic time, which may
   * stand still while the machine sleeps and never follows a wall clock that
   * was set: waking at least this often notices a jump without any event.
   */
  maxSleepMs?: number;
}

/** The system's time zone, as Intl sees it now. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * Applies an upload schedule at its edges, without a restart: evaluates it
 * (scheduleStateAt, pure), tells `apply` when the effect or its end changed,
 * and keeps one timer, for the next edge or `maxSleepMs`, whichever is
 * sooner. `reevaluate()` at once after a resume or a clock change; a new
 * schedule with `setSchedule`. An empty schedule sets no timer.
 */
export class ScheduleRunner implements Disposable {
  private readonly clock: Clock;
  private readonly timeZone: () => string;
  private readonly maxSleepMs: number;
  private schedule: UploadSchedule = [];
  private last: ScheduleState | null = null;
  private timer: AbortController | null = null;
  private disposed = false;

  constructor(private readonly options: ScheduleRunnerOptions) {
    this.clock = options.clock ?? systemClock;
    this.timeZone = options.timeZone ?? systemTimeZone;
    this.maxSleepMs = options.maxSleepMs ?? 60_000;
  }

  /** The last state applied: `none` before the first evaluation. */
  get state(): ScheduleState {
    return this.last ?? { effect: { kind: 'none' }, until: null };
  }

  setSchedule(schedule: UploadSchedule): void {
    this.schedule = schedule;
    this.reevaluate();
  }

  reevaluate(): void {
    if (this.disposed) return;
    this.timer?.abort();
    this.timer = null;
    const now = this.clock.wall();
    // no schedule, no zone: the first Intl date call loads the zone data, tens of ms of a command's start
    const state = scheduleStateAt(this.schedule, now, this.schedule.length === 0 ? 'UTC' : this.timeZone());
    const last = this.last;
    this.last = state;
    if (!last || !sameScheduleEffect(last.effect, state.effect) || last.until !== state.until) {
      this.options.apply(state);
    }
    if (this.schedule.length === 0) return;
    const wait = state.until === null ? this.maxSleepMs : Math.min(this.maxSleepMs, state.until - now);
    const timer = new AbortController();
    this.timer = timer;
    this.clock.sleep(Math.max(0, wait), timer.signal).then(
      () => {
        if (this.timer === timer) this.reevaluate();
      },
      () => undefined,
    );
  }

  dispose(): void {
    this.disposed = true;
    this.timer?.abort();
    this.timer = null;
  }
}
