import type { MeteredUploads, Settings, SettingsChange } from '../../src-shared/model/settings.js';
import {
  SCHEDULE_MAX_WINDOWS,
  UploadScheduleSchema,
  WEEKDAYS,
  type ScheduleWindow,
  type Weekday,
} from '../../src-shared/model/upload-schedule.js';
import { dateTimeFormat } from '../../src-shared/model/format.js';
import { currentLocale, t } from '../i18n/i18n.js';
import { decimalText } from './settings-form.js';

/** Decimal megabytes per second, as the Bandwidth setting is typed. */
const MB = 1_000_000;

/** One window as the form holds it: text where a person types. */
export interface ScheduleWindowDraft {
  /** stable across edits, for React's keys and the fields' ids */
  key: number;
  days: Weekday[];
  /** "HH:MM", as an <input type="time"> gives it */
  from: string;
  to: string;
  paused: boolean;
  /** MB/s, when not paused */
  limitMb: string;
}

export interface ScheduleForm {
  windows: ScheduleWindowDraft[];
  pauseOnBattery: boolean;
  /** "On a metered connection": the choice, and the MB/s typed for a limit */
  metered: { kind: MeteredUploads['kind']; limitMb: string };
}

export type ScheduleWindowErrors = Partial<Record<'days' | 'from' | 'to' | 'limitMb', string>>;

export { SCHEDULE_MAX_WINDOWS };

let nextKey = 1;

export function scheduleForm(settings: Pick<Settings, 'schedule' | 'pauseOnBattery' | 'metered'>): ScheduleForm {
  const { metered } = settings;
  return {
    windows: settings.schedule.map(draftFromWindow),
    pauseOnBattery: settings.pauseOnBattery,
    metered: { kind: metered.kind, limitMb: metered.kind === 'limit' ? decimalText(metered.bytesPerSecond / MB) : '2' },
  };
}

function draftFromWindow(window: ScheduleWindow): ScheduleWindowDraft {
  return {
    key: nextKey++,
    days: [...window.days],
    from: window.from,
    to: window.to,
    paused: window.action.kind === 'pause',
    limitMb: window.action.kind === 'limit' ? decimalText(window.action.bytesPerSecond / MB) : '',
  };
}

/** What "Add a window" adds: working hours on weekdays, at 2 MB/s, the example people start from. */
export function newWindowDraft(): ScheduleWindowDraft {
  return {
    key: nextKey++,
    days: ['mon', 'tue', 'wed', 'thu', 'fri'],
    from: '09:00',
    to: '18:00',
    paused: false,
    limitMb: '2',
  };
}

/** The days in the week's order, whatever order they were ticked in. */
export function toggleDay(days: readonly Weekday[], day: Weekday, on: boolean): Weekday[] {
  return WEEKDAYS.filter((candidate) => (candidate === day ? on : days.includes(candidate)));
}

/** Typed MB/s as bytes per second; null when it is not a speed above 0. */
function speedOf(text: string): number | null {
  const value = Number(text.trim().replace(',', '.'));
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) return null;
  return Math.max(1, Math.round(value * MB));
}

/**
 * The change to send (the whole schedule, the battery switch and the metered
 * choice), or what is wrong with each window (and the metered speed), by the
 * rules the core applies (UploadScheduleSchema) but said for a person.
 */
export function scheduleChange(form: ScheduleForm): {
  change: Pick<SettingsChange, 'schedule' | 'pauseOnBattery' | 'metered'> | null;
  errors: Map<number, ScheduleWindowErrors>;
  meteredError?: string;
} {
  const errors = new Map<number, ScheduleWindowErrors>();
  const windows: ScheduleWindow[] = [];
  for (const draft of form.windows) {
    const found: ScheduleWindowErrors = {};
    if (draft.days.length === 0) found.days = t('settings.schedule.daysError');
    if (!isTime(draft.from)) found.from = t('settings.schedule.fromError');
    if (!isTime(draft.to)) found.to = t('settings.schedule.toError');
    const bytesPerSecond = draft.paused ? 0 : speedOf(draft.limitMb);
    if (bytesPerSecond === null) found.limitMb = t('settings.schedule.speedError');
    if (Object.keys(found).length > 0 || bytesPerSecond === null) {
      errors.set(draft.key, found);
      continue;
    }
    windows.push({
      days: draft.days,
      from: draft.from,
      to: draft.to,
      action: draft.paused ? { kind: 'pause' } : { kind: 'limit', bytesPerSecond },
    });
  }
  const metered = meteredChange(form.metered);
  const meteredError = metered ? undefined : t('settings.schedule.meteredSpeedError');
  if (errors.size > 0 || !metered) return { change: null, errors, meteredError };
  const schedule = UploadScheduleSchema.safeParse(windows);
  if (!schedule.success) return { change: null, errors };
  return { change: { schedule: schedule.data, pauseOnBattery: form.pauseOnBattery, metered }, errors };
}

/** The metered choice to send; null when a limit has no speed above 0. */
function meteredChange(draft: ScheduleForm['metered']): MeteredUploads | null {
  if (draft.kind !== 'limit') return { kind: draft.kind };
  const bytesPerSecond = speedOf(draft.limitMb);
  return bytesPerSecond === null ? null : { kind: 'limit', bytesPerSecond };
}

function isTime(text: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(text);
}

/** Weekday names in the person's locale ("Monday", "Mon"), from Intl: 2026-01-05 was a Monday. */
export function weekdayNames(locale: string): Record<Weekday, { long: string; short: string }> {
  const long = dateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  const short = dateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  return Object.fromEntries(
    WEEKDAYS.map((day, index) => {
      const date = Date.UTC(2026, 0, 5 + index);
      return [day, { long: long.format(date), short: short.format(date) }];
    }),
  ) as Record<Weekday, { long: string; short: string }>;
}

/** A time of day ("HH:MM") as the person's locale writes it, with Intl: "18:00", "06:00 PM". */
export function timeOfDayFormat(locale: string): (time: string) => string {
  const format = dateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return (time) => {
    const [hours, minutes] = time.split(':').map(Number);
    return format.format(Date.UTC(2026, 0, 5, hours, minutes));
  };
}

/**
 * A window's times in words, in the UI's language: "From 09:00 to 18:00",
 * or "From 22:00 to 06:00 the next day" when it crosses midnight, 24 hours
 * when start and end meet; the times as the locale writes them (the UI's
 * unless `format` says otherwise).
 */
export function windowTimesText(
  from: string,
  to: string,
  format: (time: string) => string = timeOfDayFormat(currentLocale()),
): string {
  if (!/^\d\d:\d\d$/.test(from) || !/^\d\d:\d\d$/.test(to)) return t('settings.schedule.bothTimes');
  if (from === to) {
    return from === '00:00'
      ? t('settings.schedule.allDay')
      : t('settings.schedule.fullDayFrom', { from: format(from) });
  }
  return t(to < from ? 'settings.schedule.overnight' : 'settings.schedule.range', {
    from: format(from),
    to: format(to),
  });
}
