import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import type { LanguageSetting } from '../../src-shared/model/settings.js';
import { de } from './de.js';
import { en } from './en.js';

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

function isLanguage(value: string): value is Language {
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

function storedSetting(): LanguageSetting {
  try {
    const value = globalThis.localStorage?.getItem(LANGUAGE_KEY);
    return value === 'en' || value === 'de' ? value : 'system';
  } catch {
    return 'system';
  }
}

/**
 * The one i18next instance, initialised synchronously with the bundled
 * catalogs (no loading over the network), so the model's text helpers can
 * call `i18n.t` at any time, tests included.
 */
export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, de: { translation: de } },
  lng: resolveLanguage(storedSetting()),
  fallbackLng: 'en',
  supportedLngs: LANGUAGES,
  initAsync: false,
  returnNull: false,
  // React escapes what it renders; the catalogs hold plain text
  interpolation: { escapeValue: false },
  // the catalogs are bundled: nothing ever loads, so no component should suspend for one
  react: { useSuspense: false },
});
syncDocumentLanguage();
i18n.on('languageChanged', syncDocumentLanguage);

function syncDocumentLanguage() {
  if (globalThis.document) document.documentElement.lang = currentLanguage();
}

/** The language the UI shows now. */
export function currentLanguage(): Language {
  const language = i18n.language;
  return isLanguage(language) ? language : 'en';
}

/** The locale the UI formats numbers and dates in now. */
export function currentLocale(): string {
  return formatLocale(currentLanguage());
}

/** Applies the language setting at once (every `useTranslation` renders again) and remembers it for the next load. */
export function applyLanguageSetting(setting: LanguageSetting): void {
  try {
    if (setting === 'system') globalThis.localStorage?.removeItem(LANGUAGE_KEY);
    else globalThis.localStorage?.setItem(LANGUAGE_KEY, setting);
  } catch {
    // storage refused (a private window): the setting still applies to this page
  }
  const language = resolveLanguage(setting);
  if (language !== i18n.language) void i18n.changeLanguage(language);
}

/** `t` and the locale to format in, for a component: it renders again when the language changes. */
export function useLocale(): { t: typeof i18n.t; locale: string } {
  const { t } = useTranslation();
  return { t, locale: currentLocale() };
}

/** `t` outside React (the model's text helpers): the language of the moment. */
export const t = ((...args: unknown[]) =>
  (i18n.t as unknown as (...given: unknown[]) => string)(...args)) as unknown as typeof i18n.t;
