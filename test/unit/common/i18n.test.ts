import { describe, expect, it } from 'vitest';
import { CoreLanguage, processLocales } from '../../../src-main/common/i18n.js';

describe('the core’s language', () => {
  it('reads the headless process’s locale as POSIX does: LC_ALL, LC_MESSAGES, LANG, else Intl', () => {
    const intl = () => 'fr-FR';
    expect(processLocales({ LANG: 'de_DE.UTF-8' }, intl)).toEqual(['de-DE']);
    expect(processLocales({ LC_ALL: 'en_GB.UTF-8', LANG: 'de_DE.UTF-8' }, intl)).toEqual(['en-GB']);
    expect(processLocales({ LC_MESSAGES: 'de_AT@euro', LANG: 'en_US' }, intl)).toEqual(['de-AT']);
    // C and POSIX are no language: English
    expect(processLocales({ LC_ALL: 'C.UTF-8', LANG: 'de_DE.UTF-8' }, intl)).toEqual([]);
    expect(processLocales({ LANG: 'POSIX' }, intl)).toEqual([]);
    expect(processLocales({ LANG: '' }, intl)).toEqual(['fr-FR']);
    expect(processLocales({}, intl)).toEqual(['fr-FR']);
  });

  it('is the setting, else the first system locale with a catalog, else English', () => {
    expect(new CoreLanguage(() => ['fr-FR', 'de-CH']).language).toBe('de');
    expect(new CoreLanguage(() => ['fr-FR']).language).toBe('en');
    expect(new CoreLanguage().language).toBe('en');
    const language = new CoreLanguage(() => ['en-GB']);
    language.apply('de');
    expect([language.language, language.locale]).toEqual(['de', 'de']);
    expect(language.t('core.tray.forHours', { count: 1 })).toBe('Für 1 Stunde');
    expect(language.translate({ key: 'core.tray.forHours', values: { count: 8 } })).toBe('Für 8 Stunden');
  });
});
