import i18next, { type BackendModule } from 'i18next';
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
 * German's catalog, loaded the first time a process speaks German: a CLI
 * command, or a daemon or app that speaks English, loads none (a fifth of
 * the engine's bundle). i18next asks this backend for a language it has no
 * bundle of, and switches only once the bundle is in: the renderer's way
 * (`src-renderer/i18n/i18n.ts`), without its retries, which are for a fetch
 * over the network; a module of the app's own that fails to load once fails
 * again, and the core stays in English.
 */
const catalogLoader: BackendModule = {
  type: 'backend',
  init() {},
  read(_language, _namespace, done) {
    import('../../src-shared/i18n/de.js').then(
      ({ de }) => done(null, de),
      (error: Error) => done(error, false),
    );
  },
};

/**
 * The language the core speaks in what it shows by itself: the tray, OS
 * notifications, the titles it gives notifications. Its own i18next
 * instance over the renderer's catalogs (`src-shared/i18n`): English is in
 * memory, `t` works from the first line; another language speaks once its
 * catalog is loaded (`ready`; createCore waits for it, so a core speaks its
 * language from its first notification).
 *
 * Which language: the `language` setting when it names one, else the first
 * of the system's locales that has a catalog (Electron: `app.getLocale()`;
 * headless: the process's locale, `processLocales`), else English; the same
 * rule as the renderer's (`resolveLanguage`). `apply` follows the setting
 * live: `onDidChange` fires once the new language speaks, and the shells
 * rebuild what they show.
 */
export class CoreLanguage {
  private readonly i18n = i18next.createInstance();
  private readonly emitter = new Emitter<Language>();
  /** the language the system or the last `apply` asked for: spoken once its catalog is in */
  private wanted: Language;
  /** the language spoken when `onDidChange` last fired (null before the first is in) */
  private spoken: Language | null = null;
  /** i18next's promise of the last change: it resolves whether the catalog loaded or not (English then) */
  private loading: Promise<unknown>;
  /** the language changed (the setting did): rebuild the tray */
  readonly onDidChange = this.emitter.event;

  /** `systemLocales`: the OS's or the process's locales, best first; none means English */
  constructor(private readonly systemLocales: () => readonly string[] = () => []) {
    this.wanted = resolveLanguage('system', systemLocales());
    this.i18n.on('languageChanged', () => {
      const previous = this.spoken;
      this.spoken = this.language;
      // the first language in is where the core starts, not a change
      if (previous !== null && previous !== this.spoken) this.emitter.fire(this.spoken);
    });
    this.loading = this.i18n.use(catalogLoader).init({
      resources: { en: { translation: en } },
      // the other languages come from `catalogLoader`, English is here already
      partialBundledLanguages: true,
      lng: this.wanted,
      fallbackLng: 'en',
      supportedLngs: LANGUAGES,
      initAsync: false,
      returnNull: false,
      // plain text for a tray, a notification or a log, never HTML
      interpolation: { escapeValue: false },
    });
  }

  /** Settles once the language asked for speaks: its catalog loaded (or failed to: English then). */
  get ready(): Promise<unknown> {
    return this.loading;
  }

  get language(): Language {
    return this.i18n.language === 'de' ? 'de' : 'en';
  }

  /** The locale numbers, sizes and times are written in (`de-AT` when the system is Austrian German). */
  get locale(): string {
    return formatLocale(this.language, this.systemLocales());
  }

  /**
   * Follows the `language` setting; `onDidChange` fires when the language it
   * gives is another, at once when its catalog is in memory, else once it is
   * loaded (`ready`).
   */
  apply(setting: LanguageSetting): void {
    const language = resolveLanguage(setting, this.systemLocales());
    if (language === this.wanted) return;
    this.wanted = language;
    this.loading = this.i18n.changeLanguage(language);
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
