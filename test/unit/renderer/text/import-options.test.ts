import { describe, expect, it } from 'vitest';
import { i18n } from '../../../../src-renderer/i18n/i18n.js';
import { ImportRequestSchema } from '../../../../src-shared/model/visibility.js';
import {
  EMPTY_IMPORT_OPTIONS,
  canCancelJob,
  canRetryJob,
  fileHostOf,
  filePageUrl,
  importBody,
  jobErrorText,
  jobProgressText,
  mergeJobs,
  validateImportOptions,
} from '../../../../src-renderer/text/import-options.js';
import { remoteJob } from '../../../helpers/remote-job-fixture.js';

const job = remoteJob;

describe('import options', () => {
  it('leaves empty fields out and builds a body the API schema accepts, private unless told otherwise (as the CLI)', () => {
    const urls = ['https://cdn.example.com/a.mp4'];
    expect(importBody(urls, EMPTY_IMPORT_OPTIONS)).toEqual({ urls, visibility: 'private', allow_online_watch: true });
    const full = importBody(urls, {
      name: 'Talk',
      description: 'Keynote',
      visibility: 'private',
      allowOnlineWatch: false,
      password: 'pw',
      blockedCountries: ['DE', 'FR'],
      folderId: ' 12 ',
    });
    expect(full).toEqual({
      urls,
      name: 'Talk',
      description: 'Keynote',
      visibility: 'private',
      allow_online_watch: false,
      password: 'pw',
      blocked_countries: ['DE', 'FR'],
      folder_id: 12,
    });
    expect(ImportRequestSchema.safeParse(full).success).toBe(true);
  });

  it('checks each option with the spec limits', () => {
    expect(validateImportOptions(EMPTY_IMPORT_OPTIONS)).toEqual({});
    const errors = validateImportOptions({
      ...EMPTY_IMPORT_OPTIONS,
      name: 'n'.repeat(241),
      description: 'd'.repeat(1001),
      folderId: '0',
      blockedCountries: Array.from({ length: 251 }, () => 'DE'),
    });
    expect(errors).toEqual({
      name: 'Name must be at most 240 characters (241 now).',
      description: 'Description must be at most 1,000 characters (1,001 now).',
      folderId: 'Folder ID must be a whole number above 0.',
      blockedCountries: 'Blocked countries can have at most 250 entries (251 now).',
    });
    expect(validateImportOptions({ ...EMPTY_IMPORT_OPTIONS, name: '  ' }).name).toBe('Name must not be blank.');
    expect(validateImportOptions({ ...EMPTY_IMPORT_OPTIONS, folderId: '1.5' }).folderId).toBeDefined();
  });
});

describe('import jobs', () => {
  it('offers cancel while pending or running and retry when failed or cancelled', () => {
    const offers = (['pending', 'running', 'completed', 'failed', 'cancelled'] as const).map((status) => [
      status,
      canCancelJob(job({ status })),
      canRetryJob(job({ status })),
    ]);
    expect(offers).toEqual([
      ['pending', true, false],
      ['running', true, false],
      ['completed', false, false],
      ['failed', false, true],
      ['cancelled', false, true],
    ]);
  });

  it('says how far a job is', () => {
    expect(jobProgressText(job())).toBe('Waiting to start');
    expect(jobProgressText(job({ status: 'running', bytes_downloaded: 1_500_000 }))).toBe('1.50 MB so far');
    expect(
      jobProgressText(
        job({ status: 'running', bytes_downloaded: 12_000_000, bytes_total: 40_000_000, progress_percent: 30 }),
      ),
    ).toBe('12.0 MB of 40.0 MB (30 %)');
    expect(jobProgressText(job({ status: 'completed', bytes_total: 40_000, progress_percent: 100 }))).toBe(
      '40.0 KB, done',
    );
    expect(jobErrorText(job({ status: 'failed', error: { code: 'X', message: 'The source answered 404.' } }))).toBe(
      'The source answered 404.',
    );
    expect(jobErrorText(job())).toBeNull();
  });

  it('folds newer job states into the list, new ones first', () => {
    const a = job();
    const b = job({ id: '00000000-0000-4000-8000-000000000002' });
    const c = job({ id: '00000000-0000-4000-8000-000000000003' });
    const merged = mergeJobs([a, b], [c, { ...b, status: 'completed' }]);
    expect(merged.map((item) => [item.id.slice(-1), item.status])).toEqual([
      ['3', 'pending'],
      ['1', 'pending'],
      ['2', 'completed'],
    ]);
    expect(mergeJobs([a], [c], false)).toEqual([a]);
  });

  it('derives a file page address from the file host the spec describes', () => {
    const file = { id: 'abc', urls: { page: 'https://files.example.com/abc/file' } };
    expect(fileHostOf(file)).toBe('https://files.example.com');
    expect(filePageUrl('https://files.example.com', 'xyz')).toBe('https://files.example.com/xyz/file');
    expect(fileHostOf({ id: 'abc', urls: { page: 'https://files.example.com/f?id=abc' } })).toBeNull();
  });

  it('says the fields’ errors and the progress in the UI’s language, naming each field as the form does', async () => {
    await i18n.changeLanguage('de');
    try {
      expect(
        validateImportOptions({
          ...EMPTY_IMPORT_OPTIONS,
          name: 'x'.repeat(241),
          description: 'y'.repeat(1001),
          folderId: '0',
        }),
      ).toEqual({
        name: 'Name darf höchstens 240 Zeichen lang sein (jetzt 241).',
        description: 'Beschreibung darf höchstens 1.000 Zeichen lang sein (jetzt 1.001).',
        folderId: 'Die Ordner-ID muss eine ganze Zahl über 0 sein.',
      });
      expect(
        jobProgressText(
          job({ status: 'running', bytes_downloaded: 12_000_000, bytes_total: 40_000_000, progress_percent: 30 }),
        ),
      ).toBe('12,0 MB von 40,0 MB (30 %)');
      expect(jobProgressText(job())).toBe('Wartet auf den Start');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
