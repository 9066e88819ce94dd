import i18next from 'i18next';
import { de } from '../../src-shared/i18n/de.js';
import { en } from '../../src-shared/i18n/en.js';
import { formatLocale, LANGUAGES, resolveLanguage, type Language } from '../../src-shared/i18n/language.js';
import {
  translatedValues,
  type Message,
  type MessageKey,
  type MessageValues,
  type Translate,
} from '../../src-shared/i18n/message.js';
import type { LanguageSetting } from '../../src-shared/model/settings.js';
import { Emitter } from './disposable.js';

/**
 * The language the core speaks in what it shows by itself: the tray, OS
 * notifications, the titles it gives notifications. Its own i18next
 * instance over the renderer's catalogs (`src-shared/i18n`), initialised
 * synchronously: nothing loads, `t` works from the first line.
 *
 * Which language: the `language` setting when it names one, else the first
 * of the system's locales that has a catalog (Electron: `app.getLocale()`;
 * headless: the process's locale, `processLocales`), else English; the same
 * rule as the renderer's (`resolveLanguage`). `apply` follows the setting
 * live: `onDidChange` fires, and the shells rebuild what they show.
 */
export class CoreLanguage {
  private readonly i18n = i18next.createInstance();
  private readonly emitter = new Emitter<Language>();
  /** the language changed (the setting did): rebuild the tray */
  readonly onDidChange = this.emitter.event;

  /** `systemLocales`: the OS's or the process's locales, best first; none means English */
  constructor(private readonly systemLocales: () => readonly string[] = () => []) {
    void this.i18n.init({
      resources: { en: { translation: en }, de: { translation: de } },
      lng: resolveLanguage('system', systemLocales()),
      fallbackLng: 'en',
      supportedLngs: LANGUAGES,
      initAsync: false,
      returnNull: false,
      // plain text for a tray, a notification or a log, never HTML
      interpolation: { escapeValue: false },
    });
  }

  get language(): Language {
    return this.i18n.language === 'de' ? 'de' : 'en';
  }

  /** The locale numbers, sizes and times are written in (`de-AT` when the system is Austrian German). */
  get locale(): string {
    return formatLocale(this.language, this.systemLocales());
  }

  /** Follows the `language` setting; fires `onDidChange` when the language it gives is another. */
  apply(setting: LanguageSetting): void {
    const language = resolveLanguage(setting, this.systemLocales());
    if (language === this.language) return;
    // the catalogs are in memory: the change is done when this returns
    void this.i18n.changeLanguage(language);
    this.emitter.fire(language);
  }

  /** `t(key, values)` in the core's language. */
  readonly t = (key: MessageKey, values?: MessageValues): string =>
    (this.i18n.t as unknown as (key: string, options?: object) => string)(key, values);

  /** A shared model's message in the core's language. */
  readonly translate: Translate = (message: Message) => this.t(message.key, translatedValues(message, this.translate));

  dispose(): void {
    this.emitter.dispose();
  }
}

/**
 * The headless process's locale, as a BCP 47 tag: LC_ALL, else LC_MESSAGES,
 * else LANG (POSIX order; `de_DE.UTF-8` → `de-DE`; `C` and `POSIX` mean none,
 * so English), else what Intl reports for the process.
 */
export function processLocales(
  env: NodeJS.ProcessEnv = process.env,
  intlLocale: () => string = () => Intl.DateTimeFormat().resolvedOptions().locale,
): string[] {
  const posix = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value?.trim());
  if (posix !== undefined) {
    const tag = posix.trim().split(/[.@]/)[0]!.replace(/_/g, '-');
    return tag === 'C' || tag === 'POSIX' || !tag ? [] : [tag];
  }
  const intl = intlLocale();
  return intl ? [intl] : [];
}
