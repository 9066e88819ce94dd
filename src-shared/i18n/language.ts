import type { LanguageSetting } from '../model/settings.js';

// The language choice, the same rule in the renderer (the browser's languages) and the core (the OS's or the process's locale).

/** The languages Media Sync is translated into; English is the fallback. */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language to speak: the setting when it names one, else the first of
 * the preferred locales (best first) that has a catalog ("de-AT" → de,
 * "de_DE.UTF-8" → de), else English.
 */
export function resolveLanguage(setting: LanguageSetting, preferred: readonly string[]): Language {
  if (setting !== 'system') return setting;
  for (const tag of preferred) {
    const base = baseLanguage(tag);
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/**
 * The locale that sizes, speeds, dates and countdowns are written in: the
 * person's own regional tag when it is of the language (en-GB writes dates
 * as the British do), else the language itself.
 */
export function formatLocale(language: Language, preferred: readonly string[]): string {
  return preferred.find((tag) => baseLanguage(tag) === language) ?? language;
}

function baseLanguage(tag: string): string {
  return tag.toLowerCase().split(/[-_.@]/)[0] ?? '';
}
