import * as z from 'zod';

/**
 * Notifications snoozed by the person, present only while it holds (like
 * the queue's pause): `until` is when the snooze ends (epoch ms), null until
 * they are turned on again. Snoozed, problems that need the person still
 * show, once each; the rest goes only to the Activity panel.
 */
export const NotificationSnoozeSchema = z.object({ until: z.number().nullable() }).nullable();
export type NotificationSnooze = z.infer<typeof NotificationSnoozeSchema>;

/** The snoozes a person picks from (Settings, the tray). */
export const SNOOZE_CHOICES = ['hour', 'tomorrow', 'forever'] as const;
export type SnoozeChoice = (typeof SNOOZE_CHOICES)[number];

/** "Until tomorrow" ends at this hour of the next day, local time: the morning, not midnight. */
const TOMORROW_HOUR = 8;

/** The snooze a choice made at `now` asks for, in the local time of the side that asks. */
export function snoozeFor(choice: SnoozeChoice, now: number): NonNullable<NotificationSnooze> {
  if (choice === 'hour') return { until: now + 3_600_000 };
  if (choice === 'forever') return { until: null };
  const tomorrow = new Date(now);
  tomorrow.setDate(tomorrow.getDate() + 1);
  tomorrow.setHours(TOMORROW_HOUR, 0, 0, 0);
  return { until: tomorrow.getTime() };
}

/** Whether `snooze` holds at `now`; one that has ended is as none. */
export function isSnoozed(snooze: NotificationSnooze, now: number): boolean {
  return snooze !== null && (snooze.until === null || now < snooze.until);
}

/** When a snooze ends, as Settings and the tray say it: the time today, else the day and the time ("Sat 08:00"). */
export function snoozeEndTime(until: number, now: number, locale: string): string {
  const sameDay = new Date(until).toDateString() === new Date(now).toDateString();
  return new Date(until).toLocaleString(locale, {
    ...(sameDay ? {} : { weekday: 'short' }),
    hour: 'numeric',
    minute: '2-digit',
  });
}
