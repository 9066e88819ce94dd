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

/** Decimal megabytes, like the spec's "90 MB" chunk and what people read on speed tests. */
const MB = 1_000_000;

export const NOTIFICATION_LABELS: Record<NotificationKind, string> = {
  uploadsDone: 'Uploads finished',
  uploadFailed: 'An upload failed',
  importCompleted: 'An import completed',
  importFailed: 'An import failed',
  accountProblem: 'A problem with an account (token refused)',
  readyToWatch: 'Ready to watch',
};

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
}

export type SettingsFormErrors = Partial<Record<'bandwidthMb' | 'chunkMb' | 'proxyUrl', string>>;

export function settingsForm(settings: Settings): SettingsForm {
  return {
    concurrency: settings.concurrency,
    bandwidthLimited: settings.bandwidthBytesPerSecond !== null,
    bandwidthMb: settings.bandwidthBytesPerSecond === null ? '' : trimNumber(settings.bandwidthBytesPerSecond / MB),
    chunkMb: trimNumber(settings.chunkSizeBytes / MB),
    notifications: { ...settings.notifications },
    launchAtLogin: settings.launchAtLogin,
    proxyUrl: settings.proxyUrl ?? '',
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
      errors.bandwidthMb = 'Enter a speed above 0 MB/s, or choose no limit.';
    } else {
      bandwidth = Math.max(1, Math.round(value * MB));
    }
  }
  const maxChunkMb = API_LIMITS.chunkSizeBytes / MB;
  const chunk = Number(form.chunkMb.trim().replace(',', '.'));
  if (!Number.isFinite(chunk) || chunk < 1 || chunk > maxChunkMb || form.chunkMb.trim() === '') {
    errors.chunkMb = `Enter a chunk size from 1 to ${maxChunkMb} MB.`;
  }
  const proxyText = form.proxyUrl.trim();
  const proxy = proxyText === '' ? null : proxyText;
  if (proxy !== null && !SettingsChangeSchema.shape.proxyUrl.safeParse(proxy).success) {
    errors.proxyUrl = 'Enter a proxy address starting with http:// or https://, e.g. http://proxy.example:3128.';
  }
  if (Object.keys(errors).length > 0) return { change: null, errors };
  const change: SettingsChange = {
    concurrency: form.concurrency,
    bandwidthBytesPerSecond: bandwidth,
    chunkSizeBytes: Math.round(chunk * MB),
    notifications: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, form.notifications[kind]])),
    launchAtLogin: form.launchAtLogin,
    proxyUrl: proxy,
  };
  const parsed = SettingsChangeSchema.safeParse(change);
  return parsed.success ? { change: parsed.data, errors } : { change: null, errors: { proxyUrl: 'Check the values.' } };
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
    return {
      change: null,
      error: 'Enter an update address starting with http:// or https://, e.g. https://updates.example.com/media-sync/.',
    };
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

/** What a folder does, in one line: "Private · with subfolders · files kept · ignores 2 patterns". */
export function folderOptionsSummary(options: FolderOptions): string {
  const parts = [options.visibility === 'public' ? 'Public' : 'Private'];
  if (options.allowOnlineWatch !== null) parts.push(options.allowOnlineWatch ? 'online watch on' : 'online watch off');
  parts.push(options.includeSubfolders ? 'with subfolders' : 'this folder only');
  parts.push(options.uploadExisting ? 'existing files too' : 'new files only');
  if (options.skipExisting) parts.push('skips files already on the service');
  switch (options.afterUpload.kind) {
    case 'keep':
      parts.push('files kept');
      break;
    case 'move':
      parts.push(`files moved to “${options.afterUpload.subfolder}”`);
      break;
    case 'delete':
      parts.push('files deleted after upload');
      break;
  }
  if (options.ignoreGlobs.length > 0) {
    parts.push(`ignores ${options.ignoreGlobs.length} ${options.ignoreGlobs.length === 1 ? 'pattern' : 'patterns'}`);
  }
  return parts.join(' · ');
}

/** The problem with a "move to subfolder" name, or null. */
export function subfolderError(name: string): string | null {
  const parsed = AfterUploadSchema.safeParse({ kind: 'move', subfolder: name.trim() });
  if (parsed.success) return null;
  return name.trim() === '' ? 'Enter the name of the subfolder.' : 'Enter a folder name, not a path (no / or \\).';
}

/**
 * True only when the description says the token is encrypted ("encrypted
 * with the macOS Keychain"); a 0600 file or an obfuscated store is not.
 */
export function tokenStorageEncrypted(description: string): boolean {
  return /^encrypted\b/i.test(description.trim());
}

function trimNumber(value: number): string {
  return String(Number(value.toFixed(3)));
}
