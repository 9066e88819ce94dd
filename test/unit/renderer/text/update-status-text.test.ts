import { describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../../../src-shared/model/update-status.js';
import { codeSpans } from '../../../../src-renderer/text/code-spans.js';
import {
  describeUpdateStatus,
  updateFormatters,
  updateReadyText,
  type UpdateFormatters,
} from '../../../../src-renderer/text/update-status-text.js';

const FORMAT = updateFormatters('en-GB', 'UTC');
const CHECKED_AT = '2025-03-12T14:05:00.000Z';

describe('the update formatters', () => {
  it('write a date and time, and a whole percentage rounded down, with Intl', () => {
    expect(FORMAT.dateTime(CHECKED_AT)).toBe('12 Mar 2025, 14:05');
    expect(FORMAT.percent(0)).toBe('0%');
    expect(FORMAT.percent(42.4)).toBe('42%');
    expect(FORMAT.percent(99.6)).toBe('99%');
    expect(FORMAT.percent(100)).toBe('100%');
  });

  it('follow the locale they are given', () => {
    const german = updateFormatters('de-DE', 'UTC');
    expect(german.percent(42)).toBe('42\u00a0%');
    expect(german.dateTime(CHECKED_AT)).toBe('12.03.2025, 14:05');
  });
});

describe('the update status in words', () => {
  it('says each state in whole sentences, and what can be done in it', () => {
    const cases: Array<[UpdateStatus, ReturnType<typeof describeUpdateStatus>]> = [
      [
        { state: 'unavailable', reason: 'Media Sync run with `media-sync serve` is updated with its package.' },
        {
          lines: ['Media Sync run with `media-sync serve` is updated with its package.'],
          canCheck: false,
          canInstall: false,
        },
      ],
      [
        { state: 'idle', checkedAt: null },
        { lines: ['Media Sync has not checked for updates yet.'], canCheck: true, canInstall: false },
      ],
      [
        { state: 'idle', checkedAt: CHECKED_AT },
        {
          lines: ['Media Sync is up to date. Last checked 12 Mar 2025, 14:05.'],
          canCheck: true,
          canInstall: false,
        },
      ],
      [{ state: 'checking' }, { lines: ['Checking for updates…'], canCheck: false, canInstall: false }],
      [
        { state: 'downloading', version: '1.4.0', percent: 37.8 },
        { lines: ['Downloading Media Sync 1.4.0: 37% done.'], canCheck: false, canInstall: false },
      ],
      [
        { state: 'ready', version: '1.4.0' },
        {
          lines: [
            'Media Sync 1.4.0 is ready to install.',
            'It is installed when you restart to update, or else the next time you quit Media Sync.',
          ],
          canCheck: false,
          canInstall: true,
        },
      ],
      [
        {
          state: 'failed',
          message: 'Media Sync could not reach its update server. It will try again later.',
          checkedAt: CHECKED_AT,
        },
        {
          lines: [
            'Media Sync could not reach its update server. It will try again later.',
            'Last checked 12 Mar 2025, 14:05.',
          ],
          canCheck: true,
          canInstall: false,
        },
      ],
    ];
    for (const [status, expected] of cases) expect(describeUpdateStatus(status, FORMAT)).toEqual(expected);
  });

  it('puts the values in through the formatters it is given, never formatting them itself', () => {
    const marked: UpdateFormatters = { dateTime: (iso) => `<${iso}>`, percent: (value) => `[${value}]` };
    expect(describeUpdateStatus({ state: 'idle', checkedAt: CHECKED_AT }, marked).lines).toEqual([
      `Media Sync is up to date. Last checked <${CHECKED_AT}>.`,
    ]);
    expect(describeUpdateStatus({ state: 'downloading', version: '2.0.0', percent: 5 }, marked).lines).toEqual([
      'Downloading Media Sync 2.0.0: [5] done.',
    ]);
  });

  it('names the version ready to install in one sentence', () => {
    expect(updateReadyText('2.0.0-beta.1')).toBe('Media Sync 2.0.0-beta.1 is ready to install.');
  });
});

describe('code spans in a sentence from the core', () => {
  it('cuts a sentence at its backticks', () => {
    expect(codeSpans('Media Sync run with `media-sync serve` is updated with its package.')).toEqual([
      { text: 'Media Sync run with ', code: false },
      { text: 'media-sync serve', code: true },
      { text: ' is updated with its package.', code: false },
    ]);
    expect(codeSpans('`a` and `b`')).toEqual([
      { text: 'a', code: true },
      { text: ' and ', code: false },
      { text: 'b', code: true },
    ]);
  });

  it('leaves a sentence without backticks, or with an odd number of them, as it is', () => {
    expect(codeSpans('No update.')).toEqual([{ text: 'No update.', code: false }]);
    expect(codeSpans('An odd ` backtick.')).toEqual([{ text: 'An odd ` backtick.', code: false }]);
  });
});
