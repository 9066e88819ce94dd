import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  addFolderInPage,
  folderCard,
  screenshot,
  startApp,
  type AppHarness,
} from './app-harness.js';

/**
 * The Folders view against the real daemon: two watched folders, files
 * dropped into one, a folder that disappears and comes back, a folder paused
 * while the other goes on.
 */
let app: AppHarness;
let holiday: string;
let work: string;

beforeAll(async () => {
  app = await startApp({ signIn: true });
  holiday = join(app.scratch, 'Holiday');
  work = join(app.scratch, 'Work');
  await mkdir(holiday);
  await mkdir(work);
});
afterAll(async () => {
  await app?.close();
});

/** The names of the files on the service. */
async function filesOnService(): Promise<string[]> {
  const answer = await app.server.api('/files?per_page=100');
  return (JSON.parse(answer.body.toString()) as { data: { name: string }[] }).data.map((file) => file.name).sort();
}

async function writeClips(dir: string, names: string[]): Promise<void> {
  for (const name of names) await writeFile(join(dir, name), `the bytes of ${name}\n`.repeat(300));
}

/** The number beside a count's term in a card. */
async function count(page: Page, path: string, term: string): Promise<string | null> {
  return folderCard(page, path)
    .locator('dt', { hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::dd[1]')
    .textContent();
}

async function waitForCount(page: Page, path: string, term: string, value: string): Promise<void> {
  await expect.poll(() => count(page, path, term), { timeout: 30_000 }).toBe(value);
}

describe('the Folders view', () => {
  it('invites to add a folder; with two watched and three files dropped into one, says which uploaded what', async () => {
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/folders`);
    await page.getByRole('heading', { name: 'No watched folder yet', level: 2 }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await addFolderInPage(page, holiday, (form) => form.getByRole('radio', { name: 'Public', exact: true }).check());
    await addFolderInPage(page, work);
    for (const path of [holiday, work]) {
      await folderCard(page, path)
        .getByText(/^Up to date since /)
        .waitFor({ timeout: 30_000 });
    }

    await writeClips(holiday, ['beach.mp4', 'boat.mp4', 'sunset.mp4']);
    await waitForCount(page, holiday, 'Uploaded in all', '3');
    await folderCard(page, holiday)
      .getByText(/^Up to date since /)
      .waitFor({ timeout: 30_000 });
    expect(await count(page, holiday, 'Uploaded today')).toBe('3');
    expect(await count(page, holiday, 'Failed')).toBe('0');
    expect(await count(page, work, 'Uploaded in all')).toBe('0');
    await folderCard(page, work)
      .getByText(/^Up to date since /)
      .waitFor();
    // the last files, each linked to Files with its name searched
    const recent = page.getByRole('list', { name: `Last files of ${holiday}` });
    expect((await recent.getByRole('link').allTextContents()).sort()).toEqual(['beach.mp4', 'boat.mp4', 'sunset.mp4']);
    expect(await filesOnService()).toEqual(['beach.mp4', 'boat.mp4', 'sunset.mp4']);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'folders');

    await recent.getByRole('link', { name: 'boat.mp4' }).click();
    await page.getByRole('heading', { name: 'Files', level: 1 }).waitFor();
    expect(await page.getByRole('searchbox').inputValue()).toBe('boat.mp4');
    await page.close();
  });

  it('says in words when a folder’s directory is gone, and takes it back without uploading its files again', async () => {
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/folders`);
    const card = folderCard(page, holiday);
    await card.getByText(/^Up to date since /).waitFor();

    // as a drive being unmounted: the folder and its files go away, then come back as they were
    const away = join(app.scratch, 'Holiday (unmounted)');
    await rename(holiday, away);
    await card.getByText('The folder is gone').waitFor({ timeout: 45_000 });
    await card.getByText(/its drive is not mounted/).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'folders-problem');

    await rename(away, holiday);
    await card.getByText(/^Up to date since /).waitFor({ timeout: 45_000 });
    expect(await count(page, holiday, 'Uploaded in all')).toBe('3');
    expect(await filesOnService()).toEqual(['beach.mp4', 'boat.mp4', 'sunset.mp4']);
    await page.close();
  });

  it('pausing one folder holds its next file while the other folder’s file uploads; Resume sends it', async () => {
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/folders`);
    const card = folderCard(page, holiday);
    await card.getByRole('button', { name: `Pause ${holiday}` }).click();
    await card.getByText('Paused by you').waitFor();
    await card.getByRole('button', { name: `Resume ${holiday}` }).waitFor();

    await writeClips(holiday, ['later.mp4']);
    await writeClips(work, ['report.mp4']);
    await waitForCount(page, work, 'Uploaded in all', '1');
    expect(await filesOnService()).toEqual(['beach.mp4', 'boat.mp4', 'report.mp4', 'sunset.mp4']);
    await card.getByText('Paused by you').waitFor();
    expect(await count(page, holiday, 'Uploaded in all')).toBe('3');
    // its row in the Queue says why it waits
    const origin = new URL(app.url).origin;
    await page.goto(`${origin}/#/queue`);
    const row = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: 'later.mp4' });
    await row.getByText('Waiting: its folder is paused').waitFor();
    await page.goto(`${origin}/#/folders`);

    await card.getByRole('button', { name: `Resume ${holiday}` }).click();
    await waitForCount(page, holiday, 'Uploaded in all', '4');
    expect(await filesOnService()).toContain('later.mp4');
    await page.close();
  });

  it('edits a folder’s options in its card, and removes it only after a confirmation that keeps the local files', async () => {
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/folders`);
    const card = folderCard(page, work);
    await card.getByRole('button', { name: `Edit the options of ${work}` }).click();
    const edit = page.getByRole('form', { name: `Options of ${work}` });
    await edit.getByRole('radio', { name: 'Move it into a subfolder' }).check();
    await edit.getByLabel('Subfolder name').fill('a/b');
    await edit.getByText('Enter a folder name, not a path').waitFor();
    expect(await edit.getByRole('button', { name: 'Save folder' }).isDisabled()).toBe(true);
    await edit.getByLabel('Subfolder name').fill('Sent');
    await edit.getByLabel('Ignore files matching').fill('*.tmp\nDrafts/**');
    await edit.getByRole('button', { name: 'Save folder' }).click();
    await card.getByText('files moved to “Sent” · ignores 2 patterns', { exact: false }).waitFor();
    await page.reload();
    await folderCard(page, work).getByText('files moved to “Sent”', { exact: false }).waitFor();

    await folderCard(page, holiday)
      .getByRole('button', { name: `Remove ${holiday}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Stop watching this folder?' });
    await dialog.getByText('Your local files are kept as they are').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await folderCard(page, holiday)
      .getByRole('button', { name: `Remove ${holiday}` })
      .click();
    await dialog.getByRole('button', { name: 'Stop watching' }).click();
    await folderCard(page, holiday).waitFor({ state: 'detached' });
    await folderCard(page, work).waitFor();
    expect((await stat(join(holiday, 'beach.mp4'))).isFile()).toBe(true);
    await page.close();
  });

  it('says a rescan is looking through the folder only while it does: not once it ended, nor once the folder is gone', async () => {
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/folders`);
    const card = folderCard(page, work);
    await card.getByText(/^Up to date since /).waitFor({ timeout: 30_000 });
    const rescanning = page.getByRole('status').getByText(`Looking through ${work} for files the watcher missed.`);
    // its file is looked at again and settles (3 s): the words are there meanwhile, and leave with the scan
    await card.getByRole('button', { name: `Rescan ${work} now` }).click();
    await rescanning.waitFor();
    await card.getByText(/^Up to date since /).waitFor({ timeout: 30_000 });
    await rescanning.waitFor({ state: 'detached' });

    await card.getByRole('button', { name: `Rescan ${work} now` }).click();
    await rescanning.waitFor();
    await card.getByRole('button', { name: `Remove ${work}` }).click();
    await page
      .getByRole('dialog', { name: 'Stop watching this folder?' })
      .getByRole('button', { name: 'Stop watching' })
      .click();
    await card.waitFor({ state: 'detached' });
    expect(await rescanning.count()).toBe(0);
    await page.close();
  });
});
