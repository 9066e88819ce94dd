import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n, t, useLocale } from '../../../src-renderer/i18n/i18n.js';

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

  it('draws a component in the language set, with its locale', async () => {
    expect(renderToStaticMarkup(<Label name="d.mp4" />)).toMatch(/^<span lang="en[^"]*">Queued · .*d\.mp4/);
    await i18n.changeLanguage('de');
    const german = renderToStaticMarkup(<Label name="d.mp4" />);
    expect(german).toMatch(/^<span lang="de[^"]*">/);
    expect(german).toContain(i18n.getFixedT('de')('queue.row.queued'));
  });
});
