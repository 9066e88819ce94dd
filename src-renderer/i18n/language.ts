import type { LanguageSetting } from '../../src-shared/model/settings.js';
import {
  formatLocale as formatLocaleFor,
  isLanguage,
  LANGUAGES,
  resolveLanguage as resolveLanguageFor,
  type Language,
} from '../../src-shared/i18n/language.js';

// The language choice without i18next, so the page's first script (early-connect.ts) can use it and stay small.

export { isLanguage, LANGUAGES, type Language };

/** Where the page keeps the language setting between loads, so the first render is in it before settings arrive. */
export const LANGUAGE_KEY = 'media-sync.language';

/** The browser's languages, best first: in Electron Chromium sets them from `app.getLocale()`. */
function preferredLanguages(): readonly string[] {
  const navigator = globalThis.navigator as Navigator | undefined;
  if (!navigator) return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/**
 * The language the UI shows: the setting when it names one, else the first
 * of the OS's or browser's languages that has a catalog ("de-AT" → de), else
 * English (the rule of `src-shared/i18n/language.ts`, which the core follows too).
 */
export function resolveLanguage(
  setting: LanguageSetting,
  preferred: readonly string[] = preferredLanguages(),
): Language {
  return resolveLanguageFor(setting, preferred);
}

/**
 * The locale that sizes, speeds, dates and countdowns are written in: the
 * person's own regional tag when it is of the UI's language (en-GB writes
 * dates as the British do), else the language itself.
 */
export function formatLocale(language: Language, preferred: readonly string[] = preferredLanguages()): string {
  return formatLocaleFor(language, preferred);
}

export function storedSetting(): LanguageSetting {
  try {
    const value = globalThis.localStorage?.getItem(LANGUAGE_KEY);
    return value === 'en' || value === 'de' ? value : 'system';
  } catch {
    return 'system';
  }
}
