import * as z from 'zod';
import { API_LIMITS } from '../api/limits.js';
import { NotificationSnoozeSchema } from './notification-snooze.js';
import { DEFAULT_UPDATE_URL } from './update-status.js';
import { UploadScheduleSchema } from './upload-schedule.js';

/** The kinds of notification a person can turn off one by one. */
export const NOTIFICATION_KINDS = [
  'uploadsDone',
  'uploadFailed',
  'importCompleted',
  'importFailed',
  'accountProblem',
  /** a followed file's conversion ended: ready to watch, or failed with the reason */
  'readyToWatch',
  /** Media Sync's own disk (its data folder's) is full: uploads wait for room */
  'dataDiskFull',
  /** a watched folder is gone, not connected (its drive unplugged) or cannot be read */
  'folderProblem',
] as const;
export const NotificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof NotificationKindSchema>;

const NotificationSwitchesSchema = z.object(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, z.boolean()])) as Record<NotificationKind, z.ZodBoolean>,
);

/** After how many days a finished (done or cancelled) upload leaves the queue; null: never. */
export const REMOVE_FINISHED_DAYS = [1, 7, 30] as const;
export const RemoveFinishedAfterDaysSchema = z.literal(REMOVE_FINISHED_DAYS).nullable();

/** How often a folder checked by polling may be looked at, in seconds: the Settings' choices. */
export const POLL_INTERVAL_CHOICES = [15, 30, 60, 300, 900] as const;

/** The UI's language: `system` follows the OS (Electron) or the browser; the others override it. */
export const LANGUAGE_SETTINGS = ['system', 'en', 'de'] as const;
export const LanguageSettingSchema = z.enum(LANGUAGE_SETTINGS);
export type LanguageSetting = z.infer<typeof LanguageSettingSchema>;

/**
 * What uploads do while the connection is metered (a phone's hotspot, a
 * mobile plan: docs/uploads.md): wait, go at most at a speed, or go as usual.
 */
export const MeteredUploadsSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pause') }),
  z.object({ kind: z.literal('limit'), bytesPerSecond: z.int().positive() }),
  z.object({ kind: z.literal('normal') }),
]);
export type MeteredUploads = z.infer<typeof MeteredUploadsSchema>;

/** Each setting's rule, without defaults: what a change may contain. */
const FIELDS = {
  /** upload requests in flight across all files */
  concurrency: z.int().min(1).max(6),
  /** bytes per second for all uploads together; null for no limit */
  bandwidthBytesPerSecond: z.int().positive().nullable(),
  chunkSizeBytes: z.int().min(1_000_000).max(API_LIMITS.chunkSizeBytes),
  notifications: NotificationSwitchesSchema,
  launchAtLogin: z.boolean(),
  /** an http(s) proxy for API traffic; null for a direct connection */
  proxyUrl: z.url({ protocol: /^https?$/ }).nullable(),
  /** the folder the desktop app's updates are published in (electron-updater's generic provider) */
  updateUrl: z.url({ protocol: /^https?$/ }),
  /** windows of the week with a speed limit or a pause (model/upload-schedule.ts); empty for none */
  schedule: UploadScheduleSchema,
  /** hold the queue while the computer runs on battery */
  pauseOnBattery: z.boolean(),
  /** what uploads do on a metered connection */
  metered: MeteredUploadsSchema,
  language: LanguageSettingSchema,
  /** finished uploads leave the queue this many days after they ended; null: never (the folders still remember them) */
  removeFinishedAfterDays: RemoveFinishedAfterDaysSchema,
  /** how often a watched folder checked by polling (a network share, FUSE, or by its choice) is looked at */
  pollIntervalSeconds: z.literal(POLL_INTERVAL_CHOICES),
  /** notifications snoozed until when (null: not snoozed); problems that need the person still show */
  notificationsSnoozed: NotificationSnoozeSchema,
};

/**
 * App settings, one schema for both shells (electron-store on the desktop,
 * settings.json headless). Every field has a default, so an empty or older file parses.
 */
export const SettingsSchema = z.object({
  concurrency: FIELDS.concurrency.default(3),
  bandwidthBytesPerSecond: FIELDS.bandwidthBytesPerSecond.default(null),
  chunkSizeBytes: FIELDS.chunkSizeBytes.default(API_LIMITS.chunkSizeBytes),
  notifications: NotificationSwitchesSchema.partial()
    .transform((given) => ({ ...Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, true])), ...given }))
    .pipe(NotificationSwitchesSchema)
    .prefault({}),
  launchAtLogin: FIELDS.launchAtLogin.default(false),
  proxyUrl: FIELDS.proxyUrl.default(null),
  updateUrl: FIELDS.updateUrl.default(DEFAULT_UPDATE_URL),
  schedule: FIELDS.schedule.default([]),
  pauseOnBattery: FIELDS.pauseOnBattery.default(false),
  metered: FIELDS.metered.default({ kind: 'pause' }),
  // a language this version no longer has falls back to the system's rather than losing every setting
  language: FIELDS.language.catch('system').default('system'),
  removeFinishedAfterDays: FIELDS.removeFinishedAfterDays.default(7),
  pollIntervalSeconds: FIELDS.pollIntervalSeconds.default(60),
  notificationsSnoozed: FIELDS.notificationsSnoozed.default(null),
});
export type Settings = z.output<typeof SettingsSchema>;

/** A change to the settings: only the fields given, each checked; notification switches one by one. */
export const SettingsChangeSchema = z
  .object({ ...FIELDS, notifications: NotificationSwitchesSchema.partial() })
  .partial();
export type SettingsChange = z.infer<typeof SettingsChangeSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});

/**
 * Settings as a file holds them, field by field: a field that does not parse
 * (a hand edit, a value an older or newer version wrote) takes its default
 * and is named in `dropped`; every other field is kept. Whatever is not an
 * object of fields is no settings at all: the defaults.
 */
export function readSettings(raw: unknown): { settings: Settings; dropped: string[] } {
  const given = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const fields = SettingsSchema.shape;
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const name of Object.keys(fields) as Array<keyof typeof fields>) {
    if (!Object.hasOwn(given, name)) continue;
    if (name === 'notifications') {
      const switches = readSwitches(given[name]);
      kept[name] = switches.kept;
      dropped.push(...switches.dropped.map((kind) => `notifications.${kind}`));
    } else if (fields[name].safeParse(given[name]).success) kept[name] = given[name];
    else dropped.push(name);
  }
  return { settings: SettingsSchema.parse(kept), dropped };
}

/** The notification switches one by one: a switch that is not a boolean is on, as by default. */
function readSwitches(raw: unknown): { kept: Partial<Record<NotificationKind, boolean>>; dropped: string[] } {
  const given = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const kept: Partial<Record<NotificationKind, boolean>> = {};
  const dropped: string[] = [];
  for (const kind of NOTIFICATION_KINDS) {
    if (!Object.hasOwn(given, kind)) continue;
    if (typeof given[kind] === 'boolean') kept[kind] = given[kind];
    else dropped.push(kind);
  }
  return { kept, dropped };
}
