import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestVideo } from '../helpers/ffmpeg.js';
import { fakeMp4 } from '../helpers/media-fixtures.js';
import { accessibilityViolations, screenshot, startApp, type AppHarness } from './app-harness.js';

/** The Files view against the reference server: search, details, edit, links, delete, pages. */
let app: AppHarness;
const ids: Record<string, string> = {};

async function seed(filename: string, content: Buffer, visibility = 1): Promise<string> {
  const response = await app.server.upload({ visibility }, { filename, content });
  if (response.status !== 200 && response.status !== 201) throw new Error(`upload ${filename}: ${response.text}`);
  return response.json.data.id as string;
}

beforeAll(async () => {
  app = await startApp({ signIn: true });
  ids['holiday'] = await seed('holiday-beach.mp4', await makeTestVideo(app.scratch, 2));
  ids['meeting'] = await seed('meeting-notes.mp4', fakeMp4(30_000), 0);
  ids['cat'] = await seed('cat-video.mp4', fakeMp4(20_000));
});
afterAll(async () => {
  await app?.close();
});

async function openFiles(): Promise<Page> {
  const page = await app.open();
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Files' }).click();
  await page.getByRole('heading', { name: 'Files', level: 1 }).waitFor();
  return page;
}

const rows = (page: Page) => page.getByRole('table').locator('tbody tr');

async function openDetails(page: Page, name: string) {
  await page.getByRole('button', { name, exact: true }).click();
  const panel = page.getByRole('region', { name });
  await panel.waitFor();
  return panel;
}

describe('files', () => {
  it('searches, follows the conversion in the details panel, and edits with the spec limits checked inline', async () => {
    const page = await openFiles();
    await page.getByRole('button', { name: 'cat-video.mp4' }).waitFor();
    expect(await rows(page).count()).toBe(3);
    const headers = await page.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(['Name', 'Size', 'Visibility', 'Password', 'Downloads', 'Stream views']);

    await page.getByRole('searchbox', { name: 'Search files' }).fill('holiday');
    await page.getByRole('button', { name: 'meeting-notes.mp4' }).waitFor({ state: 'detached' });
    expect(await rows(page).count()).toBe(1);
    expect(await page.getByText(/Page 1 of 1 · 1 file$/).count()).toBe(1);

    const panel = await openDetails(page, 'holiday-beach.mp4');
    // the status is asked again every few seconds until the conversion has finished
    await panel.getByText('Completed (adaptive)').waitFor({ timeout: 45_000 });
    expect(await panel.getByText('Public', { exact: true }).count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'files');

    await panel.getByRole('button', { name: 'Edit' }).click();
    const name = panel.getByRole('textbox', { name: 'Name' });
    await name.fill('x'.repeat(256));
    const error = panel.getByText('Name must be at most 255 characters (256 now).');
    await error.waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.getAttribute('aria-describedby')).toContain(await error.getAttribute('id'));
    expect(await panel.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);

    await name.fill('Beach holiday 2024');
    expect(await error.count()).toBe(0);
    await panel.getByRole('radio', { name: 'Private' }).check();
    await panel.getByRole('radio', { name: 'Set a password' }).check();
    await panel.getByLabel('New password').fill('sunny');
    await panel.getByRole('button', { name: 'Save' }).click();

    const renamed = page.getByRole('region', { name: 'Beach holiday 2024' });
    await renamed.getByText('Changes saved.').waitFor();
    expect(await renamed.getByText('Protected with a password').count()).toBe(1);
    const row = rows(page).filter({ hasText: 'Beach holiday 2024' });
    expect(await row.locator('td').allTextContents()).toEqual([expect.any(String), 'Private', 'Yes', '0', '0']);
    const onServer = (await app.server.api(`/files/${ids['holiday']}`)).json.data;
    expect(onServer).toMatchObject({ name: 'Beach holiday 2024', password_protected: true });
    expect(onServer.visibility).not.toBe('public');

    // Escape closes the panel and focus goes back to the file's row
    await renamed.getByRole('heading', { name: 'Beach holiday 2024' }).focus();
    await page.keyboard.press('Escape');
    await renamed.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Beach holiday 2024', null, {
      timeout: 5_000,
    });
    await page.close();
  });

  it('copies the file, watch and embed links and opens the watch page', async () => {
    const page = await openFiles();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const panel = await openDetails(page, 'cat-video.mp4');
    const urls = (await app.server.api(`/files/${ids['cat']}`)).json.data.urls as Record<string, string>;
    // urls.page is the file's own address: its button says so
    for (const [kind, label] of [
      ['page', 'File'],
      ['watch', 'Watch'],
      ['embed', 'Embed'],
    ] as const) {
      await panel.getByRole('button', { name: `Copy ${label.toLowerCase()} link` }).click();
      await panel
        .getByRole('status')
        .filter({ hasText: `${label} link copied.` })
        .waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(urls[kind]);
    }
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      panel.getByRole('button', { name: 'Open watch page' }).click(),
    ]);
    expect(popup.url()).toBe(urls['watch']);
    await popup.close();
    await page.close();
  });

  it('deletes a file only after confirming, and it is gone here and on the server', async () => {
    const page = await openFiles();
    const panel = await openDetails(page, 'meeting-notes.mp4');
    await panel.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “meeting-notes.mp4”?' });
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement)).toBe(
      true,
    );
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'files-delete-confirm');

    // Escape cancels: nothing is deleted
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await app.server.api(`/files/${ids['meeting']}`)).status).toBe(200);

    await panel.getByRole('button', { name: 'Delete…' }).click();
    await dialog.getByRole('button', { name: 'Delete file' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'meeting-notes.mp4' }).waitFor({ state: 'detached' });
    await page.getByText('meeting-notes.mp4 was deleted.').waitFor();
    expect((await app.server.api(`/files/${ids['meeting']}`)).status).toBe(404);
    await page.close();
  });

  it('pages through many files, 25, 50 or 100 at a time', async () => {
    for (let i = 1; i <= 28; i++) await seed(`bulk-${String(i).padStart(2, '0')}.mp4`, fakeMp4(2_000));
    const page = await openFiles();
    const pages = page.getByRole('navigation', { name: 'Pages of files' });
    await pages.getByText('Page 1 of 2 · 30 files').waitFor();
    expect(await rows(page).count()).toBe(25);
    await pages.getByRole('button', { name: 'Next page' }).click();
    await pages.getByText('Page 2 of 2 · 30 files').waitFor();
    expect(await rows(page).count()).toBe(5);
    expect(await pages.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await pages.getByLabel('Per page').selectOption('50');
    await pages.getByText('Page 1 of 1 · 30 files').waitFor();
    expect(await rows(page).count()).toBe(30);

    await page.getByRole('searchbox', { name: 'Search files' }).fill('no such file');
    await page.getByText('No files match “no such file”.').waitFor();
    await page.getByRole('button', { name: 'Clear the search' }).click();
    await pages.getByText('Page 1 of 1 · 30 files').waitFor();
    await page.close();
  });
});
