import type { LanguageSetting } from '../../src-shared/model/settings.js';

// The language choice without i18next, so the page's first script (early-connect.ts) can use it and stay small.

/** The languages the UI is translated into; English is the fallback. */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Where the page keeps the language setting between loads, so the first render is in it before settings arrive. */
export const LANGUAGE_KEY = 'media-sync.language';

/** The browser's languages, best first: in Electron Chromium sets them from `app.getLocale()`. */
function preferredLanguages(): readonly string[] {
  const navigator = globalThis.navigator as Navigator | undefined;
  if (!navigator) return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language the UI shows: the setting when it names one, else the first
 * of the OS's or browser's languages that has a catalog ("de-AT" → de), else
 * English.
 */
export function resolveLanguage(
  setting: LanguageSetting,
  preferred: readonly string[] = preferredLanguages(),
): Language {
  if (setting !== 'system') return setting;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0] ?? '';
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/**
 * The locale that sizes, speeds, dates and countdowns are written in: the
 * person's own regional tag when it is of the UI's language (en-GB writes
 * dates as the British do), else the language itself.
 */
export function formatLocale(language: Language, preferred: readonly string[] = preferredLanguages()): string {
  return preferred.find((tag) => tag.toLowerCase().split('-')[0] === language) ?? language;
}

export function storedSetting(): LanguageSetting {
  try {
    const value = globalThis.localStorage?.getItem(LANGUAGE_KEY);
    return value === 'en' || value === 'de' ? value : 'system';
  } catch {
    return 'system';
  }
}
