import { describe, expect, it } from 'vitest';
import type { Conversion, MediaFile } from '../../../../src-shared/api/index.js';
import {
  FILE_COLUMNS,
  describeConversion,
  isConversionFinal,
  isPerPage,
  pageSummary,
  visibilityLabel,
} from '../../../../src-renderer/text/file-columns.js';
import { formatRelativeTime } from '../../../../src-renderer/text/relative-time.js';

const conversion = (status: string, stage: string, attempts = 1): Conversion => ({
  status,
  stage,
  attempts,
  duration_seconds: 3,
  error: null,
  updated_at: '2024-05-01 10:00:00',
});

describe('the files table', () => {
  it('shows the issue’s columns for a file', () => {
    const file = {
      id: 'a',
      name: '',
      filename: 'clip.mp4',
      size_bytes: 12_345_678,
      visibility: 'private',
      password_protected: true,
      downloads: 1234,
      stream_views: 0,
    } as MediaFile;
    expect(FILE_COLUMNS.map((column) => [column.label, column.cell(file)])).toEqual([
      ['Name', 'clip.mp4'],
      ['Size', '12.3 MB'],
      ['Visibility', 'Private'],
      ['Password', 'Yes'],
      ['Downloads', '1,234'],
      ['Stream views', '0'],
    ]);
    expect(visibilityLabel('public')).toBe('Public');
  });

  it('summarises the page and takes only the API’s page sizes', () => {
    expect(pageSummary({ page: 2, lastPage: 5, total: 113 })).toBe('Page 2 of 5 · 113 files');
    expect(pageSummary({ page: 1, lastPage: 0, total: 1 })).toBe('Page 1 of 1 · 1 file');
    expect([25, 50, 100, 10].map(isPerPage)).toEqual([true, true, true, false]);
  });

  it('follows a conversion until it is final', () => {
    expect(isConversionFinal(undefined)).toBe(true);
    expect(isConversionFinal(conversion('pending', 'queued'))).toBe(false);
    expect(isConversionFinal(conversion('processing', 'transcoding'))).toBe(false);
    expect(isConversionFinal(conversion('completed', 'adaptive'))).toBe(true);
    expect(isConversionFinal(conversion('failed', 'probing', 3))).toBe(true);
    expect(describeConversion(conversion('processing', 'transcoding', 2))).toBe('Processing (transcoding), attempt 2');
    expect(describeConversion(undefined)).toBe('No streaming conversion for this file.');
  });
});

describe('relative time', () => {
  it('says how long ago, then the date', () => {
    const now = Date.UTC(2024, 4, 10, 12, 0, 0);
    expect(formatRelativeTime(now - 10_000, now)).toBe('just now');
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(formatRelativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(formatRelativeTime(Date.UTC(2024, 3, 2, 12), now)).toBe('2 Apr 2024');
  });
});
