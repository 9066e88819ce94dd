import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { de } from '../../../src-shared/i18n/de.js';
import { en } from '../../../src-shared/i18n/en.js';
import { i18n, t, useLocale } from '../../../src-renderer/i18n/i18n.js';

type Tree = { readonly [key: string]: string | Tree };

/** Every message of a catalog by its key as the views ask for it: plural forms under their base key. */
function messages(tree: Tree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') found.set(path.replace(/_(zero|one|two|few|many|other)$/, ''), value);
    else for (const [inner, text] of messages(value, path)) found.set(inner, text);
  }
  return found;
}

/** Both catalogs, each message by the key the views ask for. */
const CATALOGS = [
  ['en', messages(en)],
  ['de', messages(de)],
] as const;

/** i18next's own answer, without the shortcut of the UI's `t`. */
function i18nextSays(key: string): string {
  return (i18n.t as unknown as (key: string) => string)(key);
}

function Label({ name }: { name: string }) {
  const { t: translate, locale } = useLocale();
  return (
    <span lang={locale}>
      {translate('queue.row.queued')} · {translate('queue.actionLabels.retry', { name })}
    </span>
  );
}

describe('the UI’s t and useLocale', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('answers in the language of the moment, the same words asked again included', async () => {
    await i18n.changeLanguage('en');
    expect(t('queue.row.queued')).toBe('Queued');
    const english = t('queue.actionLabels.retry', { name: 'a.mp4' });
    expect(english).toContain('a.mp4');
    await i18n.changeLanguage('de');
    expect(t('queue.row.queued')).toBe(i18n.getFixedT('de')('queue.row.queued'));
    expect(t('queue.row.queued')).not.toBe('Queued');
    expect(t('queue.actionLabels.retry', { name: 'a.mp4' })).not.toBe(english);
    await i18n.changeLanguage('en');
    expect(t('queue.actionLabels.retry', { name: 'a.mp4' })).toBe(english);
  });

  it('fills each call’s own values, and counts by the plural rules', () => {
    expect(t('queue.actionLabels.retry', { name: 'b.mp4' })).toContain('b.mp4');
    expect(t('queue.actionLabels.retry', { name: 'b.mp4' })).not.toBe(t('queue.actionLabels.retry', { name: 'c.mp4' }));
    expect(t('imports.fixing', { count: 1 })).not.toBe(t('imports.fixing', { count: 2 }));
  });

  it('says every message of both catalogs as i18next does, in each language, asked again or not', async () => {
    let compared = 0;
    for (const [language, catalog] of CATALOGS) {
      await i18n.changeLanguage(language);
      for (const key of catalog.keys()) {
        const ask = t as unknown as (key: string) => string;
        expect(ask(key)).toBe(i18nextSays(key));
        expect(ask(key)).toBe(i18nextSays(key));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1_000);
  });

  it('fills every message with values of both catalogs as i18next does, whatever the values', async () => {
    let compared = 0;
    for (const [language, catalog] of CATALOGS) {
      await i18n.changeLanguage(language);
      for (const [key, message] of catalog) {
        const gaps = [...message.matchAll(/\{\{(\w+)/g)].map((gap) => gap[1]!);
        if (gaps.length === 0) continue;
        const ask = t as unknown as (key: string, values: Record<string, unknown>) => string;
        const say = i18n.t as unknown as (key: string, values: Record<string, unknown>) => string;
        // strings with characters a template could trip on, then numbers; then one value too many, one missing, one null
        const strings = Object.fromEntries(gaps.map((gap, i) => [gap, `$&{{x}} ${gap}-${i}`]));
        const numbers = Object.fromEntries(gaps.map((gap, i) => [gap, i + 1]));
        const odd = [
          { ...numbers, extra: 'x' },
          { ...numbers, [gaps[0]!]: undefined },
          { ...numbers, [gaps[0]!]: null },
        ];
        for (const values of [strings, numbers, ...odd]) {
          expect(ask(key, values)).toBe(say(key, values));
          expect(ask(key, values)).toBe(say(key, values));
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(300);
  });

  it('draws a component in the language set, with its locale', async () => {
    expect(renderToStaticMarkup(<Label name="d.mp4" />)).toMatch(/^<span lang="en[^"]*">Queued · .*d\.mp4/);
    await i18n.changeLanguage('de');
    const german = renderToStaticMarkup(<Label name="d.mp4" />);
    expect(german).toMatch(/^<span lang="de[^"]*">/);
    expect(german).toContain(i18n.getFixedT('de')('queue.row.queued'));
  });
});
