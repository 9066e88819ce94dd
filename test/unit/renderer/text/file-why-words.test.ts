import { afterAll, describe, expect, it } from 'vitest';
import { i18n } from '../../../../src-renderer/i18n/i18n.js';
import { translate } from '../../../../src-renderer/i18n/translate.js';
import type { FileWhy } from '../../../../src-shared/ipc/ipc-contract.js';
import { englishText } from '../../../../src-shared/i18n/message.js';
import { fileWhyWords } from '../../../../src-shared/model/file-why-words.js';
import type { LeftAlone } from '../../../../src-shared/model/left-alone.js';

/** "Why this file?" names a rule with its limits, in the page's language and its way of writing sizes and dates. */
function leftAlone(path: string, rule: LeftAlone): FileWhy {
  return { path, file: { size: 1, mtimeMs: 0 }, folder: null, verdict: { kind: 'leftAlone', rule }, actions: [] };
}
const MB = 1_000_000;
const NEW_YEAR = Date.parse('2026-01-01T12:00:00Z');

afterAll(() => i18n.changeLanguage('en'));

describe('fileWhyWords: a file rule with its limits', () => {
  it('says the size limits that apply, the extension the folder does not take, and the date', () => {
    const verdict = (why: FileWhy) => englishText(fileWhyWords(why).verdict);
    expect(verdict(leftAlone('/m/a.mp4', { rule: 'size', min: 5 * MB, max: 2_500 * MB }))).toBe(
      'Left alone: the folder takes only files from 5.00 MB to 2.50 GB.',
    );
    expect(verdict(leftAlone('/m/a.mp4', { rule: 'size', min: null, max: 20 * MB }))).toBe(
      'Left alone: the folder takes only files of at most 20.0 MB.',
    );
    expect(verdict(leftAlone('/m/Notes.TXT', { rule: 'type', allowed: ['videos'] }))).toBe(
      'Left alone: the folder does not take .TXT files.',
    );
    expect(verdict(leftAlone('/m/README', { rule: 'type', allowed: ['videos'] }))).toBe(
      'Left alone: the folder takes only files of the types it names, and this one has no extension.',
    );
    expect(verdict(leftAlone('/m/a.mp4', { rule: 'modified', after: NEW_YEAR }))).toBe(
      'Left alone: the folder takes only files modified after Jan 1, 2026.',
    );
  });

  it('writes them the German way on a German page', async () => {
    await i18n.changeLanguage('de');
    const verdict = (why: FileWhy) => translate(fileWhyWords(why, 'de-DE').verdict);
    expect(verdict(leftAlone('/m/a.mp4', { rule: 'size', min: 1_500_000, max: null }))).toBe(
      'Ausgelassen: Der Ordner nimmt nur Dateien ab 1,50 MB.',
    );
    expect(verdict(leftAlone('/m/a.mp4', { rule: 'modified', after: NEW_YEAR }))).toBe(
      'Ausgelassen: Der Ordner nimmt nur Dateien, die nach dem 01.01.2026 geändert wurden.',
    );
  });
});
