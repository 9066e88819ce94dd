import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeMp4 } from '../helpers/media-fixtures.js';
import { accessibilityViolations, fact, screenshot, startApp, type AppHarness } from './app-harness.js';

/** The UI in the browser's language (German here), and the Language setting that overrides it, live. */
let app: AppHarness;

beforeAll(async () => {
  app = await startApp({ server: { conversions: false } });
  await app.server.upload({ visibility: 1 }, { filename: 'urlaub.mp4', content: fakeMp4(12_345) });
});
afterAll(async () => {
  await app?.close();
});

async function goTo(page: Page, link: string, heading: string) {
  await page.getByRole('navigation').getByRole('link', { name: link }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

describe('languages', () => {
  it('signs in, in German, when the browser speaks German', async () => {
    const page = await app.open('light', undefined, true, 'de-DE');
    await page.getByRole('heading', { name: 'Willkommen bei Media Sync' }).waitFor();
    expect(await htmlLang(page)).toBe('de');
    await page.getByRole('button', { name: 'Lokal ausprobieren' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'first-run-de');

    await page.getByLabel('Serveradresse').fill(app.server.baseUrl);
    await page.getByLabel('API-Token').fill('not-a-token');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    // the core's refusal, explained in German
    await page.getByText('Der Server hat diesen Token nicht akzeptiert.').waitFor();
    await page.getByLabel('API-Token').fill(app.server.token);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('navigation', { name: 'Ansichten' }).waitFor();
    await page.close();
  });

  it('shows Files and Account in German, and switches to English live from Settings', async () => {
    const page = await app.open('light', undefined, true, 'de-DE');
    await goTo(page, 'Dateien', 'Dateien');
    await page.getByRole('columnheader', { name: 'Größe' }).waitFor();
    await page.getByRole('button', { name: 'urlaub.mp4' }).waitFor();
    await page.getByText(/^Seite 1 von 1 · 1 Datei$/).waitFor();
    // sizes are written the German way
    expect(await page.getByRole('row', { name: /urlaub\.mp4/ }).textContent()).toContain('12,3 KB');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'files-de');

    await goTo(page, 'Konto', 'Konto');
    await page.getByRole('heading', { name: 'Angemeldete Konten' }).waitFor();
    expect(await fact(page, 'Benutzername')).toBe('demo');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'account-de');

    await goTo(page, 'Einstellungen', 'Settings');
    const language = page.getByRole('combobox', { name: 'Sprache' });
    expect(await language.inputValue()).toBe('system');
    await language.selectOption('en');
    // no reload: the same page now speaks English
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Files' }).waitFor();
    expect(await htmlLang(page)).toBe('en');
    await page.getByRole('combobox', { name: 'Language' }).waitFor();
    await page.getByText('The language is saved.').waitFor();
    await goTo(page, 'Account', 'Account');
    expect(await fact(page, 'Username')).toBe('demo');
    await page.close();

    // the setting is kept: a new page in a German browser opens in English
    const again = await app.open('light', undefined, true, 'de-DE');
    await goTo(again, 'Files', 'Files');
    expect(await htmlLang(again)).toBe('en');
    expect((await app.contract.invoke('settings:get', {})) as unknown).toMatchObject({
      ok: true,
      value: { language: 'en' },
    });
    await again.close();
  });
});
