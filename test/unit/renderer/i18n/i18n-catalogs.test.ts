import { describe, expect, it } from 'vitest';
import { de } from '../../../../src-shared/i18n/de.js';
import { en } from '../../../../src-shared/i18n/en.js';
import { formatLocale, i18n, resolveLanguage } from '../../../../src-renderer/i18n/i18n.js';

type Tree = { readonly [key: string]: string | Tree };

/** Every message of a catalog by its full key ("files.title"), plural forms as their own keys. */
function messages(tree: Tree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') found.set(path, value);
    else for (const [inner, text] of messages(value, path)) found.set(inner, text);
  }
  return found;
}

/** The {{variables}} and <tags> of a message: a translation must keep them all, and add none. */
function placeholders(text: string): string[] {
  const variables = [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((match) => `{{${match[1]}}}`);
  const tags = [...text.matchAll(/<\/?(\w+)>/g)].map((match) => match[0]);
  return [...new Set([...variables, ...tags])].sort();
}

const CATALOGS = { en: messages(en), de: messages(de) };

describe('the message catalogs', () => {
  it('have the same keys in every language', () => {
    for (const [language, catalog] of Object.entries(CATALOGS)) {
      for (const [other, otherCatalog] of Object.entries(CATALOGS)) {
        const missing = [...otherCatalog.keys()].filter((key) => !catalog.has(key));
        expect(missing, `keys of ${other} missing in ${language}`).toEqual([]);
      }
    }
  });

  it('keep the same variables, tags and plural forms in every language', () => {
    for (const [key, english] of CATALOGS.en) {
      expect(placeholders(CATALOGS.de.get(key) ?? ''), key).toEqual(placeholders(english));
    }
    // the plural forms each language needs (Intl.PluralRules), present for every plural message
    for (const [language, catalog] of Object.entries(CATALOGS)) {
      const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      const plurals = new Set([...catalog.keys()].filter((key) => /_(zero|one|two|few|many|other)$/.test(key)));
      for (const key of plurals) {
        const base = key.replace(/_(zero|one|two|few|many|other)$/, '');
        for (const form of forms) expect(catalog.has(`${base}_${form}`), `${language}: ${base}_${form}`).toBe(true);
      }
    }
  });

  it('leave no message empty and no English in German by mistake', () => {
    for (const [language, catalog] of Object.entries(CATALOGS)) {
      for (const [key, text] of catalog) expect(text.trim(), `${language}: ${key}`).not.toBe('');
    }
    const same = [...CATALOGS.en].filter(
      ([key, text]) => CATALOGS.de.get(key) === text && /[a-z]{4,}/i.test(text.replace(/\{\{[^}]*\}\}/g, '')),
    );
    // words German takes as they are: names, and terms the German UIs of such apps keep
    const ALLOWED =
      /^(Media Sync|Name|Server|Downloads|Premium.*|Free.*|Token.*|Link.*|Status|Tags?|Start|Version|Code|Updates|Uploads|https?:\/\/\S+)$/;
    expect(same.filter(([, text]) => !ALLOWED.test(text)).map(([key]) => key)).toEqual([]);
  });
});

describe('the language', () => {
  it('is the setting, else the first system language with a catalog, else English', () => {
    expect(resolveLanguage('de', ['en-US'])).toBe('de');
    expect(resolveLanguage('en', ['de-DE'])).toBe('en');
    expect(resolveLanguage('system', ['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(resolveLanguage('system', ['fr-FR'])).toBe('en');
    expect(resolveLanguage('system', [])).toBe('en');
  });

  it('formats in the person’s regional locale of that language', () => {
    expect(formatLocale('de', ['en-GB', 'de-AT'])).toBe('de-AT');
    expect(formatLocale('en', ['en-GB', 'de-AT'])).toBe('en-GB');
    expect(formatLocale('de', ['en-US'])).toBe('de');
  });

  it('picks plural forms by the language’s rules, and switches without a reload', async () => {
    expect(i18n.t('pagination.summary', { page: '1', lastPage: '1', total: '1', count: 1 })).toBe(
      'Page 1 of 1 · 1 file',
    );
    await i18n.changeLanguage('de');
    try {
      expect(i18n.t('pagination.summary', { page: '1', lastPage: '2', total: '26', count: 26 })).toBe(
        'Seite 1 von 2 · 26 Dateien',
      );
      expect(i18n.t('countries.matches', { count: 1 })).toBe('1 Land passt.');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
