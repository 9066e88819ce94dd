import { API_LIMITS } from '../../src-shared/api/limits.js';
import { AfterUploadSchema, type FolderOptions } from '../../src-shared/model/folder-options.js';
import {
  NOTIFICATION_KINDS,
  SettingsChangeSchema,
  type NotificationKind,
  type Settings,
  type SettingsChange,
} from '../../src-shared/model/settings.js';
import { DEFAULT_UPDATE_URL } from '../../src-shared/model/update-status.js';
import { numberFormat } from '../../src-shared/model/format.js';
import { currentLocale, t } from '../i18n/i18n.js';
import { formatCount } from './file-columns.js';
import { settleSummaryText } from './file-checks-text.js';

/** Decimal megabytes, like the spec's "90 MB" chunk and what people read on speed tests. */
const MB = 1_000_000;

/** The switch of a notification kind under "Notify me when", in the UI's language. */
export function notificationLabel(kind: NotificationKind): string {
  return t(`settings.notifications.${kind}`);
}

/** The app settings as the form holds them: text where a person types. */
export interface SettingsForm {
  concurrency: number;
  bandwidthLimited: boolean;
  /** MB/s */
  bandwidthMb: string;
  /** MB */
  chunkMb: string;
  notifications: Record<NotificationKind, boolean>;
  launchAtLogin: boolean;
  proxyUrl: string;
  /** null: never */
  removeFinishedAfterDays: Settings['removeFinishedAfterDays'];
  pollIntervalSeconds: Settings['pollIntervalSeconds'];
}

export type SettingsFormErrors = Partial<Record<'bandwidthMb' | 'chunkMb' | 'proxyUrl', string>>;

export function settingsForm(settings: Settings, locale = currentLocale()): SettingsForm {
  return {
    concurrency: settings.concurrency,
    bandwidthLimited: settings.bandwidthBytesPerSecond !== null,
    bandwidthMb:
      settings.bandwidthBytesPerSecond === null ? '' : decimalText(settings.bandwidthBytesPerSecond / MB, locale),
    chunkMb: decimalText(settings.chunkSizeBytes / MB, locale),
    notifications: { ...settings.notifications },
    launchAtLogin: settings.launchAtLogin,
    proxyUrl: settings.proxyUrl ?? '',
    removeFinishedAfterDays: settings.removeFinishedAfterDays,
    pollIntervalSeconds: settings.pollIntervalSeconds,
  };
}

/**
 * The change to send, or what is wrong with each field, checked with the
 * same rules the core applies (SettingsChangeSchema) but said for a person.
 */
export function settingsChange(form: SettingsForm): { change: SettingsChange | null; errors: SettingsFormErrors } {
  const errors: SettingsFormErrors = {};
  let bandwidth: number | null = null;
  if (form.bandwidthLimited) {
    const value = Number(form.bandwidthMb.trim().replace(',', '.'));
    if (form.bandwidthMb.trim() === '' || !Number.isFinite(value) || value <= 0) {
      errors.bandwidthMb = t('settings.app.bandwidthError');
    } else {
      bandwidth = Math.max(1, Math.round(value * MB));
    }
  }
  const maxChunkMb = API_LIMITS.chunkSizeBytes / MB;
  const chunk = Number(form.chunkMb.trim().replace(',', '.'));
  if (!Number.isFinite(chunk) || chunk < 1 || chunk > maxChunkMb || form.chunkMb.trim() === '') {
    errors.chunkMb = t('settings.app.chunkError', { max: formatCount(maxChunkMb) });
  }
  const proxyText = form.proxyUrl.trim();
  const proxy = proxyText === '' ? null : proxyText;
  if (proxy !== null && !SettingsChangeSchema.shape.proxyUrl.safeParse(proxy).success) {
    errors.proxyUrl = t('settings.app.proxyError');
  }
  if (Object.keys(errors).length > 0) return { change: null, errors };
  const change: SettingsChange = {
    concurrency: form.concurrency,
    bandwidthBytesPerSecond: bandwidth,
    chunkSizeBytes: Math.round(chunk * MB),
    notifications: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, form.notifications[kind]])),
    launchAtLogin: form.launchAtLogin,
    proxyUrl: proxy,
    removeFinishedAfterDays: form.removeFinishedAfterDays,
    pollIntervalSeconds: form.pollIntervalSeconds,
  };
  const parsed = SettingsChangeSchema.safeParse(change);
  return parsed.success
    ? { change: parsed.data, errors }
    : { change: null, errors: { proxyUrl: t('settings.app.checkValues') } };
}

/** The update address as its field shows it: empty while it is the default, which the field shows as its placeholder. */
export function updateUrlText(settings: Pick<Settings, 'updateUrl'>): string {
  return settings.updateUrl === DEFAULT_UPDATE_URL ? '' : settings.updateUrl;
}

/**
 * The change the update address field asks for (empty: back to the default),
 * or what is wrong with it, by the rule the core applies.
 */
export function updateUrlChange(text: string): {
  change: Pick<SettingsChange, 'updateUrl'> | null;
  error: string | null;
} {
  const updateUrl = text.trim() === '' ? DEFAULT_UPDATE_URL : text.trim();
  if (!SettingsChangeSchema.shape.updateUrl.safeParse(updateUrl).success) {
    return { change: null, error: t('settings.updateUrlError') };
  }
  return { change: { updateUrl }, error: null };
}

/** Ignore patterns typed one per line. */
export function globsFromText(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/**
 * What a folder does, in one line: "Private · with subfolders · files kept ·
 * ignores 2 patterns". Each part is a phrase of its own in the catalogs
 * (`settings.summary`), so the dots only separate them.
 */
/** What a folder's card says of its "Notify me" when it is not the default (a summary per batch). */
const NOTIFY_SUMMARY = {
  everyFile: 'settings.summary.notifyEveryFile',
  problems: 'settings.summary.notifyProblems',
  never: 'settings.summary.notifyNever',
} as const;

export function folderOptionsSummary(options: FolderOptions): string {
  const parts: string[] = [
    options.visibility === 'public' ? t('settings.summary.public') : t('settings.summary.private'),
  ];
  if (options.allowOnlineWatch !== null) {
    parts.push(options.allowOnlineWatch ? t('settings.summary.watchOn') : t('settings.summary.watchOff'));
  }
  parts.push(options.includeSubfolders ? t('settings.summary.subfolders') : t('settings.summary.folderOnly'));
  parts.push(options.uploadExisting ? t('settings.summary.existingToo') : t('settings.summary.newOnly'));
  if (options.skipExisting) parts.push(t('settings.summary.skipExisting'));
  switch (options.afterUpload.kind) {
    case 'keep':
      parts.push(t('settings.summary.kept'));
      break;
    case 'move':
      parts.push(t('settings.summary.moved', { subfolder: options.afterUpload.subfolder }));
      break;
    case 'delete':
      parts.push(t('settings.summary.deleted'));
      break;
  }
  if (options.ignoreGlobs.length > 0) {
    parts.push(t('settings.summary.ignores', { count: options.ignoreGlobs.length }));
  }
  if (options.settleSeconds !== null) parts.push(settleSummaryText(options.settleSeconds));
  if (options.checkByPolling) parts.push(t('fileChecks.summaryPolling'));
  const { fileTypes, minSize, maxSize, modifiedAfter } = options;
  if (fileTypes !== null || minSize !== null || maxSize !== null || modifiedAfter !== null) {
    parts.push(t('settings.summary.fileRules'));
  }
  if (options.notify !== 'batch') parts.push(t(NOTIFY_SUMMARY[options.notify]));
  return parts.join(' · ');
}

/** The problem with a "move to subfolder" name, or null. */
export function subfolderError(name: string): string | null {
  const parsed = AfterUploadSchema.safeParse({ kind: 'move', subfolder: name.trim() });
  if (parsed.success) return null;
  return name.trim() === '' ? t('settings.subfolderEmpty') : t('settings.subfolderPath');
}

/**
 * True only when the description says the token is encrypted ("encrypted
 * with the macOS Keychain"); a 0600 file or an obfuscated store is not.
 */
export function tokenStorageEncrypted(description: string): boolean {
  return /^encrypted\b/i.test(description.trim());
}

/**
 * A number for a field a person edits: at most 3 decimals, no grouping, the
 * decimal mark of `locale` ("2.5", German "2,5"); the fields read either mark.
 */
export function decimalText(value: number, locale = currentLocale()): string {
  return numberFormat(locale, { maximumFractionDigits: 3, useGrouping: false }).format(value);
}
