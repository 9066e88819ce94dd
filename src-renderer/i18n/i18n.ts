import i18next, { type BackendModule } from 'i18next';
import { useSyncExternalStore } from 'react';
import { initReactI18next } from 'react-i18next';
import { en } from '../../src-shared/i18n/en.js';
import {
  formatLocale as formatLocaleFor,
  isLanguage,
  LANGUAGES,
  resolveLanguage as resolveLanguageFor,
  type Language,
} from '../../src-shared/i18n/language.js';
import type { LanguageSetting } from '../../src-shared/model/settings.js';

export { LANGUAGES, type Language };

/** Where the page keeps the language setting between loads, so the first render is in it before settings arrive. */
export const LANGUAGE_KEY = 'media-sync.language';

/**
 * The browser's languages, best first: in Electron Chromium sets them from
 * `app.getLocale()`. Kept until the browser says they changed: every
 * component that formats a number asks, and `navigator.languages` builds its
 * answer anew at each read.
 */
let preferred: readonly string[] | undefined;
globalThis.addEventListener?.('languagechange', () => (preferred = undefined));
function preferredLanguages(): readonly string[] {
  const navigator = globalThis.navigator as Navigator | undefined;
  if (!navigator) return [];
  return (preferred ??= navigator.languages?.length
    ? navigator.languages
    : navigator.language
      ? [navigator.language]
      : []);
}

/**
 * The language the UI shows: the setting when it names one, else the first
 * of the OS's or browser's languages that has a catalog ("de-AT" → de), else
 * English (the rule of `src-shared/i18n/language.ts`, which the core follows too).
 */
export function resolveLanguage(setting: LanguageSetting, preferred = preferredLanguages()): Language {
  return resolveLanguageFor(setting, preferred);
}

/**
 * The locale that sizes, speeds, dates and countdowns are written in: the
 * person's own regional tag when it is of the UI's language (en-GB writes
 * dates as the British do), else the language itself.
 */
export function formatLocale(language: Language, preferred = preferredLanguages()): string {
  return formatLocaleFor(language, preferred);
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
 * German's catalog, fetched the first time German is shown: the first view
 * of a person who reads English loads no German (55 KB of the page's
 * script). i18next asks its backend for a language it has no bundle of and
 * switches only once the bundle is in, so a change of language never shows
 * a half-translated page. A fetch that fails (the daemon restarting as the
 * page loads) is tried again, i18next's way, for about 11 s (350 ms doubled
 * five times; Chromium fetches a failed `import()` anew), before the page
 * stays in English.
 */
const catalogLoader: BackendModule = {
  type: 'backend',
  init() {},
  read(_language, _namespace, done) {
    import('../../src-shared/i18n/de.js').then(
      ({ de }) => done(null, de),
      (error: Error) => done(error, true),
    );
  },
};

/**
 * The one i18next instance, initialised synchronously with the English
 * catalog (bundled: the model's text helpers can call `t` at any time, tests
 * included); `languageReady` settles once the page's language is in.
 */
export const i18n = i18next.createInstance();
export const languageReady: Promise<unknown> = i18n
  .use(initReactI18next)
  .use(catalogLoader)
  .init({
    resources: { en: { translation: en } },
    // the other languages come from `catalogLoader`, English is here already
    partialBundledLanguages: true,
    lng: resolveLanguage(storedSetting()),
    fallbackLng: 'en',
    supportedLngs: LANGUAGES,
    initAsync: false,
    returnNull: false,
    // the separators stated (they are i18next's defaults): keys are paths, never sentences, so i18next does not
    // test each key for natural language at every `t` (a tenth of a queue row's render)
    keySeparator: '.',
    nsSeparator: ':',
    // React escapes what it renders; the catalogs hold plain text
    interpolation: { escapeValue: false },
    // main.tsx draws the page once `languageReady`: no component suspends for a catalog
    react: { useSuspense: false },
  });
syncDocumentLanguage();
i18n.on('languageChanged', syncDocumentLanguage);

function syncDocumentLanguage() {
  if (globalThis.document) document.documentElement.lang = currentLanguage();
}

/** `t` outside React (the model's text helpers): in the language of the moment. */
export const t = i18n.t;

/** The language the UI shows now. */
export function currentLanguage(): Language {
  const language = i18n.language;
  return isLanguage(language) ? language : 'en';
}

/** The locale the UI formats numbers and dates in now. */
export function currentLocale(): string {
  return formatLocale(currentLanguage());
}

/** Applies the language setting at once (every `useLocale` renders again) and remembers it for the next load. */
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

function onLanguageChange(listener: () => void): () => void {
  i18n.on('languageChanged', listener);
  return () => i18n.off('languageChanged', listener);
}

/**
 * i18next's `t` and the locale to format in, for a component: it renders
 * again when the language changes. Not react-i18next's `useTranslation`,
 * which gives each component that mounts a copy of the i18next instance's
 * properties: a row scrolling into view would pay for that.
 */
export function useLocale(): { t: typeof i18n.t; locale: string } {
  // the third: unit tests draw components with react-dom/server
  const language = useSyncExternalStore(onLanguageChange, currentLanguage, currentLanguage);
  return { t: i18n.t, locale: formatLocale(language) };
}
