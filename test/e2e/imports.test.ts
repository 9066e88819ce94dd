import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalHttpServer, type LocalHttpServer } from '../helpers/local-http-server.js';
import { fakeMp4, serve, stalling } from '../helpers/media-fixtures.js';
import { accessibilityViolations, screenshot, startApp, type AppHarness } from './app-harness.js';

/**
 * Imports from links against the reference server, which may fetch from
 * 127.0.0.1 here (allowPrivateTargets): a local server plays the video host.
 * The daemon checks on running jobs about every 10 s, so waits allow 45 s.
 */
let app: AppHarness;
let source: LocalHttpServer;
const slow = stalling(fakeMp4(200_000), 10_000);
const JOB_WAIT_MS = 45_000;

beforeAll(async () => {
  app = await startApp({ signIn: true, server: { allowPrivateTargets: true, conversions: false } });
  source = await startLocalHttpServer();
  source.route('/one.mp4', serve(fakeMp4(40_000), 'video/mp4'));
  source.route('/two.mp4', serve(fakeMp4(60_000), 'video/mp4'));
  source.route('/slow.mp4', slow.handler);
});
afterAll(async () => {
  slow.release();
  await source?.close();
  await app?.close();
});

async function openImports(): Promise<Page> {
  const page = await app.open();
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Imports' }).click();
  await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
  return page;
}

const job = (page: Page, name: string) =>
  page
    .getByRole('list', { name: 'Import jobs' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name }) });

describe('imports', () => {
  it('checks each pasted line, sends the valid ones, and shows the jobs completing with a link to each file', async () => {
    const page = await openImports();
    const box = page.getByRole('textbox', { name: 'Links, one per line' });
    await box.fill(
      [`${source.origin}/one.mp4`, 'ftp://media.example.com/three.mp4', `${source.origin}/two.mp4`].join('\n'),
    );
    await page.getByText('Line 2: uses ftp; only http and https links can be imported.').waitFor();
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('2 links ready to import, 1 line needs fixing').waitFor();
    await box.press('End');
    await box.pressSequentially('\nhttps://user:secret@media.example.com/four.mp4');
    await page.getByText('Line 4: contains a user name or password; remove them from the link.').waitFor();

    // the blocked-countries picker: search, pick with Enter, pick a checkbox, remove a chip
    const countries = page.getByRole('group', { name: 'Blocked countries' });
    await countries.getByRole('searchbox', { name: 'Search countries' }).fill('germ');
    await countries.getByRole('searchbox', { name: 'Search countries' }).press('Enter');
    await countries.getByRole('button', { name: 'Remove Germany (DE)' }).waitFor();
    await countries.getByRole('searchbox', { name: 'Search countries' }).fill('FR');
    await countries.getByRole('checkbox', { name: 'France (FR)' }).check();
    await countries.getByRole('button', { name: 'Remove Germany (DE)' }).click();
    expect(await countries.getByRole('button', { name: /^Remove / }).allTextContents()).toHaveLength(1);
    await countries.getByText('1 of at most 250 chosen.').waitFor();

    const name = page.getByRole('textbox', { name: 'Name' });
    await name.fill('n'.repeat(241));
    await page.getByText('Name must be at most 240 characters (241 now).').waitFor();
    expect(await page.getByRole('button', { name: 'Import 2 links' }).isDisabled()).toBe(true);
    await name.fill('');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Import 2 links' }).click();
    await page.getByText('2 imports started. The lines left in the box were not sent.').waitFor();
    // what needs fixing stays in the box, renumbered
    expect(await box.inputValue()).toBe(
      'ftp://media.example.com/three.mp4\nhttps://user:secret@media.example.com/four.mp4',
    );
    await page.getByText('Line 1: uses ftp; only http and https links can be imported.').waitFor();

    for (const file of ['one.mp4', 'two.mp4']) {
      const row = job(page, file);
      await row.getByText('Completed', { exact: true }).waitFor({ timeout: JOB_WAIT_MS });
      const link = row.getByRole('link', { name: `Open file ${file}` });
      await link.waitFor();
      const href = (await link.getAttribute('href'))!;
      expect(href).toMatch(new RegExp(`^${app.server.fileHost}/[A-Za-z0-9_-]+/file$`));
      const fileId = href.split('/').at(-2)!;
      expect((await app.server.api(`/files/${fileId}`)).json.data.filename).toBe(file);
    }
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'imports');
    await page.close();
  });

  it('cancels a running import and retries it', async () => {
    const page = await openImports();
    await page.getByRole('textbox', { name: 'Links, one per line' }).fill(`${source.origin}/slow.mp4`);
    await page.getByRole('button', { name: 'Import link' }).click();
    const row = job(page, 'slow.mp4');
    await row.waitFor();
    await row.getByRole('button', { name: 'Cancel import of slow.mp4' }).click();
    await row.getByText('Cancelled', { exact: true }).waitFor({ timeout: JOB_WAIT_MS });
    await row.getByRole('button', { name: 'Retry import of slow.mp4' }).click();
    await row.getByRole('button', { name: 'Cancel import of slow.mp4' }).waitFor();
    slow.release();
    await row.getByText('Completed', { exact: true }).waitFor({ timeout: JOB_WAIT_MS });
    await row.getByRole('link', { name: 'Open file slow.mp4' }).waitFor();
    await page.close();
  });

  it('lists the import notifications in the Activity panel, newest first, and Escape gives focus back', async () => {
    const page = await openImports();
    const button = page.getByRole('button', { name: 'Activity' });
    await button.click();
    const panel = page.getByRole('complementary', { name: 'Activity' });
    await panel.waitFor();
    const items = panel.getByRole('list', { name: 'Notifications, newest first' }).getByRole('listitem');
    // the first two completed together and were merged; the retried one is said, with its link, once a
    // minute has passed since (at most one notification a minute per kind)
    await panel.getByText('2 imports completed').waitFor();
    const newest = items.first();
    await newest.getByRole('link', { name: 'Open slow.mp4' }).waitFor({ timeout: 70_000 });
    expect(await newest.locator('strong').textContent()).toBe('Import completed');
    expect(await newest.getByRole('link', { name: 'Open slow.mp4' }).getAttribute('href')).toMatch(
      new RegExp(`^${app.server.fileHost}/[A-Za-z0-9_-]+/file$`),
    );
    await panel.getByRole('button', { name: 'Show browser notifications' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'activity');

    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    await button.click();
    await panel.getByRole('button', { name: 'Clear' }).click();
    await panel.getByText(/^Nothing yet/).waitFor();
    await page.close();
  }, 100_000);
});

describe('imports the service refuses', () => {
  // a service that will not fetch from private addresses, as a real one (no allowPrivateTargets)
  let strict: AppHarness;
  beforeAll(async () => {
    strict = await startApp({ signIn: true, server: { conversions: false } });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('names the refused link beside its line with the service’s reason, keeps it in the box and imports the others', async () => {
    const page = await strict.open();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Imports' }).click();
    const box = page.getByRole('textbox', { name: 'Links, one per line' });
    await box.fill(['https://media.example.com/good.mp4', 'http://192.168.1.20/private.mp4'].join('\n'));
    await page.getByRole('button', { name: 'Import 2 links' }).click();

    await page.getByText(/^Line 1: the service refused it: This URL is not allowed: .*private/).waitFor();
    await page
      .getByText('1 import started. The service refused 1 link, so it is left in the box with the reason.')
      .waitFor();
    expect(await box.inputValue()).toBe('http://192.168.1.20/private.mp4');
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: 'Import link' }).isDisabled()).toBe(true);
    await job(page, 'good.mp4').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // a changed line is the person's to send again
    await box.fill('http://192.168.1.21/private.mp4');
    await page.getByText(/^Line 1: the service refused it/).waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Import link' }).isDisabled()).toBe(false);
    await page.close();
  });
});
