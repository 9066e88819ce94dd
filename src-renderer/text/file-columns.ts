import type { Conversion, MediaFile } from '../../src-shared/api/index.js';
import { visibilityOf } from '../../src-shared/model/visibility.js';
import { formatBytes, numberFormat } from '../../src-shared/model/format.js';
import { currentLocale, t } from '../i18n/i18n.js';
import { serviceWord } from './service-words.js';

export const PER_PAGE_OPTIONS = [25, 50, 100] as const;
export type PerPage = (typeof PER_PAGE_OPTIONS)[number];

export function isPerPage(value: number): value is PerPage {
  return (PER_PAGE_OPTIONS as readonly number[]).includes(value);
}

export interface FileColumn {
  id: 'name' | 'size' | 'visibility' | 'password' | 'downloads' | 'streamViews';
  /** the header, in the UI's language of the moment */
  readonly label: string;
  numeric: boolean;
  cell(file: MediaFile, locale?: string): string;
}

/** `kind` 'number': a count or a size, set right-aligned in tabular figures */
function column(
  id: FileColumn['id'],
  cell: (file: MediaFile, locale: string) => string,
  kind: 'text' | 'number' = 'text',
): FileColumn {
  return {
    id,
    get label() {
      return t(`files.columns.${id}`);
    },
    numeric: kind === 'number',
    cell: (file, locale = currentLocale()) => cell(file, locale),
  };
}

/** The columns of the files table, in order (the list). */
export const FILE_COLUMNS: readonly FileColumn[] = [
  column('name', (file) => file.name || file.filename),
  column('size', (file, locale) => formatBytes(file.size_bytes, locale), 'number'),
  column('visibility', (file) => visibilityLabel(file.visibility)),
  column('password', (file) => (file.password_protected ? t('common.yes') : t('common.no'))),
  column('downloads', (file, locale) => formatCount(file.downloads, locale), 'number'),
  column('streamViews', (file, locale) => formatCount(file.stream_views, locale), 'number'),
];

/** The spec names only `public`; whatever else the server says means private. */
export function visibilityLabel(visibility: string): string {
  return t(`visibility.${visibilityOf(visibility)}`);
}

/** A count written for `locale` ("1,234"; "1.234" in German), with a cached formatter: a cell of every row. */
export function formatCount(value: number, locale = currentLocale()): string {
  return numberFormat(locale).format(value);
}

export interface PageInfo {
  page: number;
  lastPage: number;
  total: number;
}

/** "Page 2 of 5 · 113 files"; a list without meta is one page of what it holds. */
export function pageSummary(info: PageInfo, locale = currentLocale()): string {
  return t('pagination.summary', {
    page: formatCount(info.page, locale),
    lastPage: formatCount(Math.max(1, info.lastPage), locale),
    count: info.total,
    total: formatCount(info.total, locale),
  });
}

/**
 * Conversion statuses that will not change by themselves. The spec shows
 * only `completed`; the reference server also ends in `failed`. Anything
 * else (pending, processing, …) is still moving and worth following.
 */
const FINAL_CONVERSION_STATUSES = new Set(['completed', 'failed', 'cancelled', 'canceled', 'error']);

export function isConversionFinal(conversion: Conversion | undefined): boolean {
  return conversion === undefined || FINAL_CONVERSION_STATUSES.has(conversion.status.toLowerCase());
}

/** "Processing (transcoding), attempt 1": one line for the status panel. */
export function describeConversion(conversion: Conversion | undefined): string {
  if (!conversion) return t('conversion.none');
  const status = serviceWord('conversionStatus', conversion.status);
  const withStage = conversion.stage && conversion.stage !== conversion.status;
  const stage = withStage ? serviceWord('conversionStage', conversion.stage) : '';
  if (conversion.attempts > 1) {
    return withStage
      ? t('conversion.withStageAttempt', { status, stage, attempt: conversion.attempts })
      : t('conversion.attempt', { status, attempt: conversion.attempts });
  }
  return withStage ? t('conversion.withStage', { status, stage }) : status;
}
