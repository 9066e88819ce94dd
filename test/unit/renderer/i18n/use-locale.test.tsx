import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n, t, useLocale } from '../../../../src-renderer/i18n/i18n.js';

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

  it('answers in the language of the moment, with each call’s own values and plural forms', async () => {
    expect(t('queue.row.queued')).toBe('Queued');
    expect(t('queue.actionLabels.retry', { name: 'a.mp4' })).toBe('Retry a.mp4');
    expect(t('queue.items', { count: 1 })).not.toBe(t('queue.items', { count: 2 }));
    await i18n.changeLanguage('de');
    expect(t('queue.row.queued')).toBe('In der Warteschlange');
    expect(t('queue.actionLabels.retry', { name: 'a.mp4' })).toContain('a.mp4');
    expect(t('queue.actionLabels.retry', { name: 'a.mp4' })).not.toBe('Retry a.mp4');
  });

  it('draws a component in the language set, with its locale', async () => {
    expect(renderToStaticMarkup(<Label name="d.mp4" />)).toMatch(/^<span lang="en[^"]*">Queued · Retry d\.mp4/);
    await i18n.changeLanguage('de');
    const german = renderToStaticMarkup(<Label name="d.mp4" />);
    expect(german).toMatch(/^<span lang="de[^"]*">In der Warteschlange · /);
  });
});
