import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalHttpServer, type LocalHttpServer } from '../helpers/local-http-server.js';
import { fakeMp4, serve } from '../helpers/media-fixtures.js';
import { accessibilityViolations, fact, screenshot, startApp, type AppHarness } from './app-harness.js';

/** The UI in the browser's language (German here), and the Language setting that overrides it, live. */
let app: AppHarness;
/** where the import jobs fetch from: one link that works, one that answers 404 */
let source: LocalHttpServer;

beforeAll(async () => {
  app = await startApp({ server: { conversions: false, allowPrivateTargets: true } });
  await app.server.upload({ visibility: 1 }, { filename: 'urlaub.mp4', content: fakeMp4(12_345) });
  source = await startLocalHttpServer();
  source.route('/strand.mp4', serve(fakeMp4(20_000), 'video/mp4'));
});
afterAll(async () => {
  await source?.close();
  await app?.close();
});

async function goTo(page: Page, link: string, heading: string) {
  // exact: Settings' own list has "Accounts" beside the views' "Account"
  await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

describe('languages', () => {
  it('signs in, in German, when the browser speaks German', async () => {
    const page = await app.open('light', undefined, 'de-DE');
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

  it('comes up in German when its catalog could not be fetched at first (the daemon restarting as the page loads)', async () => {
    let asked = 0;
    const page = await app.open(
      'light',
      (page) =>
        void page.route(/\/assets\/de-[^/]+\.js$/, (route) => (asked++ === 0 ? route.abort() : route.continue())),
      'de-DE',
    );
    await page.getByRole('navigation').getByRole('link', { name: 'Einstellungen', exact: true }).waitFor();
    expect(asked).toBe(2);
    expect(await htmlLang(page)).toBe('de');
    await page.close();
  });

  it('shows the Queue, its rows and the Activity panel in German', async () => {
    // one upload that waits: the queue is paused, so the row and the toolbar say why
    expect((await app.contract.invoke('uploads:pauseAll', { until: null })).ok).toBe(true);
    const path = join(app.scratch, 'sommer.mp4');
    await writeFile(path, fakeMp4(54_321));
    const accounts = await app.contract.invoke('account:list');
    const accountId = accounts.ok ? (accounts.value as { id: string }[])[0]!.id : '';
    const added = await app.contract.invoke('uploads:addPaths', { accountId, paths: [path] });
    expect(added.ok).toBe(true);

    const page = await app.open('light', undefined, 'de-DE');
    await page.getByRole('heading', { name: 'Warteschlange', level: 1 }).waitFor();
    const row = page
      .getByRole('list', { name: 'Liste der Uploads' })
      .getByRole('listitem')
      .filter({ hasText: 'sommer.mp4' });
    await row.getByText('In der Warteschlange', { exact: true }).waitFor();
    await row.getByText('Wartet: Alle Uploads sind pausiert').waitFor();
    await row.getByRole('button', { name: 'sommer.mp4 abbrechen' }).waitFor();
    expect(await row.textContent()).toContain('54,3 KB');
    await page.getByRole('button', { name: 'Alle fortsetzen' }).waitFor();
    await page.getByText('Alle Uploads pausiert, bis Sie fortsetzen').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'queue-de');

    await page.getByRole('button', { name: 'Aktivität' }).click();
    const panel = page.getByRole('complementary', { name: 'Aktivität' });
    await panel.getByRole('button', { name: 'Schließen (Aktivität)' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await page.close();

    // the upload goes before the queue resumes, so Files below keeps its one file
    const [item] = added.ok ? (added.value as { id: number }[]) : [];
    expect((await app.contract.invoke('uploads:cancel', { id: item!.id })).ok).toBe(true);
    expect((await app.contract.invoke('uploads:resumeAll', {})).ok).toBe(true);
  });

  it('shows Files and Account in German, and switches to English live from Settings', async () => {
    const page = await app.open('light', undefined, 'de-DE');
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

    await goTo(page, 'Einstellungen', 'Einstellungen');
    const language = page.getByRole('combobox', { name: 'Sprache' });
    expect(await language.inputValue()).toBe('system');
    // a toast made in German (a refused link: a problem, it stays) is said in English after the switch
    const refused = 'media-sync://import?url=ftp%3A%2F%2Fmedia.example.com%2Fa.mp4';
    expect((await app.contract.invoke('app:openLink', { link: refused })).ok).toBe(true);
    await page
      .getByRole('region', { name: 'Benachrichtigungen' })
      .getByText('Dieser Link wurde nicht geöffnet')
      .waitFor();
    await language.selectOption('en');
    await page.getByRole('region', { name: 'Notifications' }).getByText('This link was not opened').waitFor();
    // no reload: the same page now speaks English
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Files' }).waitFor();
    expect(await htmlLang(page)).toBe('en');
    await page.getByRole('combobox', { name: 'Language' }).waitFor();
    await page.getByText('The language is saved.').waitFor();
    await goTo(page, 'Account', 'Account');
    expect(await fact(page, 'Username')).toBe('demo');
    await page.close();

    // the setting is kept: a new page in a German browser opens in English
    const again = await app.open('light', undefined, 'de-DE');
    await goTo(again, 'Files', 'Files');
    expect(await htmlLang(again)).toBe('en');
    expect((await app.contract.invoke('settings:get', {})) as unknown).toMatchObject({
      ok: true,
      value: { language: 'en' },
    });
    await again.close();
  });

  it('shows the Folders view in German: a folder’s state and counts', async () => {
    // the test before chose English: back to the browser's language
    expect(await app.contract.invoke('settings:update', { language: 'system' })).toMatchObject({ ok: true });
    const watched = join(app.scratch, 'Urlaub');
    await mkdir(watched);
    const accounts = await app.contract.invoke('account:list');
    const accountId = accounts.ok ? (accounts.value as { id: string }[])[0]!.id : '';
    expect((await app.contract.invoke('folders:add', { accountId, path: watched })).ok).toBe(true);
    const page = await app.open('light', undefined, 'de-DE');
    await goTo(page, 'Ordner', 'Ordner');
    const card = page.getByRole('article', { name: watched, exact: true });
    await card.getByText(/^Aktuell seit \d\d:\d\d$/).waitFor({ timeout: 30_000 });
    await card.getByText('Insgesamt hochgeladen').waitFor();
    await card.getByRole('button', { name: `${watched} pausieren` }).waitFor();
    await card.getByRole('button', { name: `Pfad von ${watched} kopieren` }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'folders-de');
    await page.close();
  });

  it('shows Settings and Imports in German: every section, the schedule editor and field errors', async () => {
    const page = await app.open('light', undefined, 'de-DE');
    await goTo(page, 'Einstellungen', 'Einstellungen');
    const sections = page.getByRole('navigation', { name: 'Bereiche der Einstellungen' });
    // each section in German, axe passing in light and dark
    const headings: Record<string, string> = {
      Allgemein: 'Beim Anmelden starten',
      Benachrichtigungen: 'Benachrichtigungen',
      Konten: 'Konten und Tokens',
      Updates: 'Updates',
      'Support und Protokolle': 'Support und Diagnose',
      Uploads: 'Zeitplan',
    };
    for (const [link, heading] of Object.entries(headings)) {
      await sections.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
      expect(await accessibilityViolations(page), link).toEqual([]);
      if (link === 'Benachrichtigungen') {
        // the switches' group says what it is for, not the section's heading again
        await page.getByRole('group', { name: 'Benachrichtigen, wenn' }).waitFor();
        expect(await page.locator('legend').allTextContents()).not.toContain('Benachrichtigungen');
      }
    }
    await page.getByRole('heading', { name: 'Uploads', level: 2 }).waitFor();

    const schedule = page.getByRole('form', { name: 'Zeitplan' });
    await schedule.getByText('Kein Zeitplan').waitFor();
    await schedule.getByRole('button', { name: 'Zeitfenster hinzufügen' }).click();
    const window = schedule.getByRole('group', { name: 'Zeitfenster 1', exact: true });
    // weekdays named by Intl in German
    expect(await window.getByRole('checkbox', { name: 'Freitag' }).isChecked()).toBe(true);
    expect(await window.getByRole('checkbox', { name: 'Samstag' }).isChecked()).toBe(false);
    await window.getByLabel('Von (Zeitfenster 1)').fill('22:00');
    await window.getByLabel('Bis (Zeitfenster 1)').fill('06:00');
    await window.getByText('Von 22:00 bis 06:00 am nächsten Tag.').waitFor();
    await window.getByLabel('Geschwindigkeit in MB/s (Zeitfenster 1)').fill('0');
    await schedule.getByRole('button', { name: 'Zeitplan speichern' }).click();
    await window.getByText('Geben Sie eine Geschwindigkeit über 0 MB/s ein').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'settings-de');

    await goTo(page, 'Importe', 'Importe');
    await page
      .getByRole('textbox', { name: 'Links, einer pro Zeile' })
      .fill('ftp://example.com/a.mp4\nhttps://example.com/b.mp4');
    // the line's reason is the core's rule (remote-url-problem), said as one German sentence of the catalog
    await page.getByText('Zeile 1 verwendet ftp; importiert werden können nur http- und https-Links.').waitFor();
    await page.getByText('1 Link bereit zum Import, 1 Zeile muss korrigiert werden').waitFor();
    await page.getByRole('button', { name: 'Link importieren' }).waitFor();
    await page.getByRole('textbox', { name: 'Ordner-ID' }).fill('0');
    await page.getByText('Die Ordner-ID muss eine ganze Zahl über 0 sein.').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('x'.repeat(241));
    await page.getByText('Name darf höchstens 240 Zeichen lang sein (jetzt 241).').waitFor();
    await page.getByRole('heading', { name: 'Aufträge', level: 2 }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'imports-de');
    await page.close();
  });

  it('says each import job’s status and stage in German', async () => {
    // two import jobs: one completes, one fails (its link answers 404); a file more in Files, so this test comes last
    const urls = [`${source.origin}/strand.mp4`, `${source.origin}/fehlt.mp4`];
    expect((await app.server.api('/remote-uploads', { method: 'POST', json: { urls } })).status).toBe(202);
    const page = await app.open('light', undefined, 'de-DE');
    await goTo(page, 'Importe', 'Importe');
    // no service word as it was sent ("Phase failed"): the status in German, the stage left out as it repeats it
    const jobs = page.getByRole('list', { name: 'Importaufträge' }).getByRole('listitem');
    for (const status of ['Fehlgeschlagen', 'Abgeschlossen']) {
      await jobs
        .filter({ hasText: status })
        .getByText(/^Von [\w.:]+$/)
        .waitFor({ timeout: 45_000 });
    }
    const words = (await jobs.allTextContents()).join(' ');
    expect(words).not.toMatch(/\b(failed|completed|queued|downloading|storing|Phase)\b/);
    await page.close();
  });
});
