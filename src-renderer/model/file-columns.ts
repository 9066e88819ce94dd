import { isPublicVisibility, type Conversion, type MediaFile } from '../../src-shared/api/index.js';
import { formatBytes } from '../../src-shared/model/format.js';

export const PER_PAGE_OPTIONS = [25, 50, 100] as const;
export type PerPage = (typeof PER_PAGE_OPTIONS)[number];

export function isPerPage(value: number): value is PerPage {
  return (PER_PAGE_OPTIONS as readonly number[]).includes(value);
}

/** The columns of the files table, in order (the list). */
export const FILE_COLUMNS: ReadonlyArray<{
  id: string;
  label: string;
  numeric: boolean;
  cell(file: MediaFile): string;
}> = [
  { id: 'name', label: 'Name', numeric: false, cell: (file) => file.name || file.filename },
  { id: 'size', label: 'Size', numeric: true, cell: (file) => formatBytes(file.size_bytes) },
  { id: 'visibility', label: 'Visibility', numeric: false, cell: (file) => visibilityLabel(file.visibility) },
  { id: 'password', label: 'Password', numeric: false, cell: (file) => (file.password_protected ? 'Yes' : 'No') },
  { id: 'downloads', label: 'Downloads', numeric: true, cell: (file) => formatCount(file.downloads) },
  { id: 'streamViews', label: 'Stream views', numeric: true, cell: (file) => formatCount(file.stream_views) },
];

/** The spec names only `public`; whatever else the server says means private. */
export function visibilityLabel(visibility: string): string {
  return isPublicVisibility(visibility) ? 'Public' : 'Private';
}

/** Built once: `toLocaleString` with a locale builds a formatter at every call, a cell of every row. */
const count = new Intl.NumberFormat('en-US');

export function formatCount(value: number): string {
  return count.format(value);
}

export interface PageInfo {
  page: number;
  lastPage: number;
  total: number;
}

/** "Page 2 of 5 · 113 files"; a list without meta is one page of what it holds. */
export function pageSummary(info: PageInfo): string {
  const files = `${formatCount(info.total)} ${info.total === 1 ? 'file' : 'files'}`;
  return `Page ${info.page} of ${Math.max(1, info.lastPage)} · ${files}`;
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
  if (!conversion) return 'No streaming conversion for this file.';
  const status = capitalise(conversion.status);
  const stage = conversion.stage && conversion.stage !== conversion.status ? ` (${conversion.stage})` : '';
  const attempts = conversion.attempts > 1 ? `, attempt ${conversion.attempts}` : '';
  return `${status}${stage}${attempts}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
