import i18next from 'i18next';
import { useSyncExternalStore } from 'react';
import { initReactI18next } from 'react-i18next';
import type { LanguageSetting } from '../../src-shared/model/settings.js';
import { de } from '../../src-shared/i18n/de.js';
import { en } from '../../src-shared/i18n/en.js';
import {
  formatLocale,
  isLanguage,
  LANGUAGE_KEY,
  LANGUAGES,
  resolveLanguage,
  storedSetting,
  type Language,
} from './language.js';

export { formatLocale, LANGUAGE_KEY, LANGUAGES, resolveLanguage, type Language };

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

/**
 * `t` and the locale to format in, for a component: it renders again when
 * the language changes. Not react-i18next's `useTranslation`, which gives
 * each component that mounts a copy of the i18next instance's properties
 * (v17): with it, a fifth more of the main thread's work went into scrolling
 * the Queue, which mounts a screenful of rows each frame (traces of
 * `npm run bench -- queue-render`, 240 frames: 3.8-4.0 s of CPU, 3.1-3.3 s
 * without). One subscription to the language and one `t` per language do the same.
 */
export function useLocale(): { t: typeof i18n.t; locale: string } {
  const language = useSyncExternalStore(onLanguageChange, currentLanguage, currentLanguage);
  return { t: fixedT(language), locale: formatLocale(language) };
}

function onLanguageChange(listener: () => void): () => void {
  i18n.on('languageChanged', listener);
  return () => i18n.off('languageChanged', listener);
}

// a `t` of its own per language, so that memoized components see a new one when the language changes; each
// calls the instance's `t` (the language of the moment, which is this one while they render) rather than
// i18next's getFixedT, which copies all of i18next's options for every string
const fixedTs = new Map<Language, typeof i18n.t>();
function fixedT(language: Language): typeof i18n.t {
  let found = fixedTs.get(language);
  if (!found) fixedTs.set(language, (found = instanceT()));
  return found;
}

/** `t` outside React (the model's text helpers): the language of the moment. */
export const t = instanceT();

function instanceT(): typeof i18n.t {
  return ((...args: unknown[]) => {
    const [key, values] = args;
    if (typeof key !== 'string') return translateNow(args);
    if (args.length === 1) return label(key);
    return (args.length === 2 && isValues(values) && fill(key, values)) || translateNow(args);
  }) as unknown as typeof i18n.t;
}

function isValues(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function translateNow(args: unknown[]): string {
  return (i18n.t as unknown as (...given: unknown[]) => string)(...args);
}

/**
 * A string without values (a button's text, an item's state) is the same
 * every time in a language, and the catalogs are bundled, never reloaded: it
 * is asked of i18next once. i18next takes ~15 µs a string, and the Queue's
 * rows ask for about eight each as they scroll into view: this halved the
 * time spent in i18next while scrolling (traced, 240 frames: main-thread CPU
 * 3.6-3.8 s before, 2.7-3.4 s after).
 */
const labels = new Map<string, string>();
function label(key: string): string {
  const id = `${i18n.language}\u0000${key}`;
  let text = labels.get(id);
  if (text === undefined) labels.set(id, (text = translateNow([key])));
  return text;
}

/**
 * A message whose values only fill plain `{{name}}` gaps (no count, no
 * format, no nesting) is split at its gaps once per language and filled by
 * joining: i18next takes ~18 µs to interpolate one in code that runs seldom
 * (the Queue's rows each second: their bytes, speed and time left), this
 * ~1 µs. Any other message or call (a plural, options, a value that is not a
 * string or a number) is i18next's. `parts` alternate text and gap names:
 * text, name, text, …
 */
const templates = new Map<string, { parts: readonly string[]; names: number } | null>();
function fill(key: string, values: Record<string, unknown>): string | undefined {
  const id = `${i18n.language}\u0000${key}`;
  let template = templates.get(id);
  if (template === undefined) templates.set(id, (template = splitTemplate(rawMessage(key))));
  if (!template || Object.keys(values).length !== template.names) return undefined;
  const { parts } = template;
  let text = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const value = values[parts[i]!];
    // i18next's own ways with anything else (a missing or null value is left empty, an object formatted)
    if (typeof value !== 'string' && typeof value !== 'number') return undefined;
    text += String(value) + parts[i + 1]!;
  }
  return text;
}

/** The catalog's message for `key` in the language of the moment, else in the fallback (as i18next looks it up). */
function rawMessage(key: string): unknown {
  for (const language of [i18n.language, 'en']) {
    const message: unknown = i18n.getResource(language, 'translation', key);
    if (message !== undefined) return message;
  }
  return undefined;
}

function splitTemplate(message: unknown): { parts: string[]; names: number } | null {
  if (typeof message !== 'string' || message.includes('$t(')) return null;
  const parts = message.split(/\{\{(.*?)\}\}/);
  const names = parts.filter((_, i) => i % 2 === 1);
  if (names.length === 0 || !names.every((name) => /^[A-Za-z_]\w*$/.test(name))) return null;
  return { parts, names: new Set(names).size };
}
