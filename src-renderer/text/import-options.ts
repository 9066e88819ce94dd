import { API_LIMITS, describeErrorValue, type RemoteJob } from '../../src-shared/api/index.js';
import { formatBytes, numberFormat } from '../../src-shared/model/format.js';
import { ImportRequestSchema, type ImportRequest, type Visibility } from '../../src-shared/model/visibility.js';
import { currentLocale, t } from '../i18n/i18n.js';
import { fieldError } from './field-rules.js';
import { serviceWord } from './service-words.js';

/** The options of POST /remote-uploads as the form holds them (every spec field). */
export interface ImportOptionsDraft {
  name: string;
  description: string;
  visibility: Visibility;
  allowOnlineWatch: boolean;
  password: string;
  blockedCountries: string[];
  /** digits as typed; empty for none */
  folderId: string;
}

export type ImportOptionsErrors = Partial<
  Record<'name' | 'description' | 'password' | 'blockedCountries' | 'folderId', string>
>;

export const EMPTY_IMPORT_OPTIONS: ImportOptionsDraft = {
  name: '',
  description: '',
  visibility: 'private',
  allowOnlineWatch: true,
  password: '',
  blockedCountries: [],
  folderId: '',
};

export const REMOTE_NAME_MAX = API_LIMITS.remoteNameMaxChars;
export const BLOCKED_COUNTRIES_MAX = API_LIMITS.blockedCountriesMax;

const fields = ImportRequestSchema.shape;

/**
 * Each option checked with POST /remote-uploads' own rules; an empty text
 * field means "not given". The sentences name each field as the form labels
 * it, in the UI's language.
 */
export function validateImportOptions(draft: ImportOptionsDraft): ImportOptionsErrors {
  const errors: ImportOptionsErrors = {};
  if (draft.name !== '') {
    const name = fieldError(fields.name, draft.name, t('imports.name'));
    if (name) errors.name = name;
  }
  const description = fieldError(fields.description, draft.description, t('imports.description'));
  if (description) errors.description = description;
  if (draft.password !== '') {
    const password = fieldError(fields.password, draft.password, t('imports.password'));
    if (password) errors.password = password;
  }
  const countries = fieldError(fields.blocked_countries, draft.blockedCountries, t('imports.blocked'));
  if (countries) errors.blockedCountries = countries;
  const folder = draft.folderId.trim();
  if (folder !== '') {
    if (!/^\d{1,15}$/.test(folder) || Number(folder) < 1) errors.folderId = t('imports.folderIdError');
  }
  return errors;
}

/** The request body for some links with these options; empty text fields are left out. */
export function importBody(urls: string[], draft: ImportOptionsDraft): ImportRequest {
  const body: ImportRequest = {
    urls,
    visibility: draft.visibility,
    allow_online_watch: draft.allowOnlineWatch,
  };
  if (draft.name !== '') body.name = draft.name;
  if (draft.description !== '') body.description = draft.description;
  if (draft.password !== '') body.password = draft.password;
  if (draft.blockedCountries.length > 0) body.blocked_countries = draft.blockedCountries;
  if (draft.folderId.trim() !== '') body.folder_id = Number(draft.folderId.trim());
  return body;
}

// ---- the job list ------------------------------------------------------------------

/** Cancel applies to a pending job, and asks a running one to stop (spec: cancel). */
export function canCancelJob(job: RemoteJob): boolean {
  return job.status === 'pending' || job.status === 'running';
}

/** Retry applies to a failed or cancelled job (spec: retry). */
export function canRetryJob(job: RemoteJob): boolean {
  return job.status === 'failed' || job.status === 'cancelled';
}

/** "12.0 MB of 40.0 MB (30 %)", "12.0 MB so far", or "Waiting to start", in the UI's language and locale. */
export function jobProgressText(job: RemoteJob, locale = currentLocale()): string {
  const size = (bytes: number) => formatBytes(bytes, locale);
  if (job.status === 'completed') {
    return job.bytes_total ? t('imports.doneSize', { size: size(job.bytes_total) }) : t('imports.done');
  }
  if (job.bytes_total) {
    const sizes = { done: size(job.bytes_downloaded), total: size(job.bytes_total) };
    if (job.progress_percent === null) return t('imports.progress', sizes);
    const percent = numberFormat(locale, { maximumFractionDigits: 0 }).format(job.progress_percent);
    return t('imports.progressPercent', { ...sizes, percent });
  }
  if (job.bytes_downloaded > 0) return t('imports.soFar', { size: size(job.bytes_downloaded) });
  return job.status === 'pending' ? t('imports.waiting') : '';
}

/** "Waiting", "Downloading", "Failed": a job's status, in the UI's language. */
export function jobStatusText(job: RemoteJob): string {
  return t(`imports.status.${job.status}`);
}

/**
 * "From cdn.example.com · stage downloading · attempt 2": where the job comes
 * from and its stage in the UI's language, left out when it only repeats the
 * status ("Failed", stage `failed`).
 */
export function jobMetaText(job: RemoteJob): string {
  const { host, attempts: attempt } = job;
  if (job.stage === job.status) {
    return attempt > 1 ? t('imports.metaHostAttempt', { host, attempt }) : t('imports.metaHost', { host });
  }
  const stage = serviceWord('jobStage', job.stage);
  return attempt > 1 ? t('imports.metaAttempt', { host, stage, attempt }) : t('imports.meta', { host, stage });
}

export function jobErrorText(job: RemoteJob): string | null {
  return describeErrorValue(job.error);
}

/**
 * Folds a newer list of jobs into the shown one: known jobs are replaced by
 * their newer state, jobs not shown yet (created elsewhere) come first unless
 * `addNew` is false (a later page), and
 * jobs the newer list does not carry (older pages) stay as they were.
 */
export function mergeJobs(shown: readonly RemoteJob[], newer: readonly RemoteJob[], addNew = true): RemoteJob[] {
  const byId = new Map(newer.map((job) => [job.id, job]));
  const known = new Set(shown.map((job) => job.id));
  const added = addNew ? newer.filter((job) => !known.has(job.id)) : [];
  return [...added, ...shown.map((job) => byId.get(job.id) ?? job)];
}

/**
 * The file host of an account, from one file: the spec gives each page
 * address the form `<file_host>/<file_id>/file`, so one file's address tells
 * the others'. Null when this file's address does not have that form.
 */
export function fileHostOf(file: { id: string; urls: { page: string } }): string | null {
  const suffix = `/${file.id}/file`;
  return file.urls.page.endsWith(suffix) ? file.urls.page.slice(0, -suffix.length) : null;
}

export function filePageUrl(fileHost: string, fileId: string): string {
  return `${fileHost}/${encodeURIComponent(fileId)}/file`;
}
