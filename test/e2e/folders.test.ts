import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  addFolderInPage,
  chooseFolderInPage,
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
/** the daemon's $XDG_DATA_HOME: the Trash "Delete after upload" puts files in */
let dataHome: string;

beforeAll(async () => {
  dataHome = await mkdtemp(join(tmpdir(), 'media-sync-e2e-data-home-'));
  app = await startApp({ signIn: true, env: { XDG_DATA_HOME: dataHome } });
  holiday = join(app.scratch, 'Holiday');
  work = join(app.scratch, 'Work');
  await mkdir(holiday);
  await mkdir(work);
});
afterAll(async () => {
  await app?.close();
  await rm(dataHome, { recursive: true, force: true });
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
    const sent: Array<{ name: string; request: { search?: string } }> = [];
    const page = await app.open('light', (page) =>
      page.on('websocket', (socket) => socket.on('framesent', ({ payload }) => sent.push(JSON.parse(String(payload))))),
    );
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
    await page.getByRole('button', { name: 'boat.mp4', exact: true }).waitFor();
    // searched from the view's first frame: the service is never asked for every file's page first
    const listed = sent.filter((frame) => frame.name === 'files:list').map((frame) => frame.request);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((request) => request.search !== 'boat.mp4')).toEqual([]);
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
    await edit
      .getByLabel('Take a file once it has not changed for')
      .selectOption({ label: '2 minutes: for recordings' });
    await edit.getByRole('checkbox', { name: 'Check by polling' }).check();
    await edit.getByRole('button', { name: 'Save folder' }).click();
    await card
      .getByText(
        'files moved to “Sent” · ignores 2 patterns · a file is taken after 2 minutes unchanged · checked by polling',
        {
          exact: false,
        },
      )
      .waitFor();
    // watched again with its new options: by polling now, and the card says so
    await card.getByText('Checked by polling every minute').waitFor();
    await page.reload();
    await folderCard(page, work).getByText('files moved to “Sent”', { exact: false }).waitFor();
    await folderCard(page, work)
      .getByRole('button', { name: `Edit the options of ${work}` })
      .click();
    const reopened = page.getByRole('form', { name: `Options of ${work}` });
    expect(await reopened.getByRole('checkbox', { name: 'Check by polling' }).isChecked()).toBe(true);
    expect(await reopened.getByLabel('Take a file once it has not changed for').inputValue()).toBe('120');
    await reopened.getByRole('button', { name: 'Cancel' }).click();

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

  it('asks before "Delete after upload", saying how many files will go to the Trash; once uploaded, they are there', async () => {
    const card = join(app.scratch, 'Card');
    await mkdir(card);
    await writeClips(card, ['GOPR0001.MP4', 'GOPR0002.MP4']);
    await writeFile(join(card, 'GOPR0001.THM'), 'its thumbnail');
    const page = await app.open();
    const form = await chooseFolderInPage(page, card);
    await form.getByRole('radio', { name: 'Put the local file in the Trash' }).check();
    await form.getByRole('button', { name: 'Add folder' }).click();

    const dialog = page.getByRole('dialog', { name: 'Put uploaded files in the Trash?' });
    await dialog.getByText(`${card} holds 3 files that will go to the Trash, each once it is uploaded.`).waitFor();
    await dialog
      .getByText('A file that fails, is skipped or is already on the service stays.', { exact: false })
      .waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'folders-delete-confirm');
    // Cancel adds nothing; asked again, Put them in the Trash adds the folder
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await folderCard(page, card).count()).toBe(0);
    await form.getByRole('button', { name: 'Add folder' }).click();
    await dialog.getByRole('button', { name: 'Put them in the Trash' }).click();
    await page.getByText(`Now watching ${card}.`).waitFor();

    await waitForCount(page, card, 'Uploaded in all', '3');
    const trash = join(dataHome, 'Trash');
    await expect.poll(async () => (await readdir(card)).length, { timeout: 30_000 }).toBe(0);
    expect((await readdir(join(trash, 'files'))).sort()).toEqual(['GOPR0001.MP4', 'GOPR0001.THM', 'GOPR0002.MP4']);
    expect(await readFile(join(trash, 'info', 'GOPR0002.MP4.trashinfo'), 'utf8')).toContain(
      `Path=${join(card, 'GOPR0002.MP4').split('/').map(encodeURIComponent).join('/')}\n`,
    );
    expect(await filesOnService()).toEqual(expect.arrayContaining(['GOPR0001.MP4', 'GOPR0001.THM', 'GOPR0002.MP4']));
    await page.close();
  });

  it('says a rescan is looking through the folder only while it does: not once it ended, nor once the folder is gone', async () => {
    // a folder of its own, with the default settle window (Work's options were changed above)
    const notes = join(app.scratch, 'Notes');
    await mkdir(notes);
    await writeClips(notes, ['minutes.mp4']);
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/folders`);
    await addFolderInPage(page, notes);
    const card = folderCard(page, notes);
    await waitForCount(page, notes, 'Uploaded in all', '1');
    await card.getByText(/^Up to date since /).waitFor({ timeout: 30_000 });
    const rescanning = page.getByRole('status').getByText(`Looking through ${notes} for files the watcher missed.`);
    // its file is looked at again and settles (3 s): the words are there meanwhile, and leave with the scan
    await card.getByRole('button', { name: `Rescan ${notes} now` }).click();
    await rescanning.waitFor();
    await card.getByText(/^Up to date since /).waitFor({ timeout: 30_000 });
    await rescanning.waitFor({ state: 'detached' });

    await card.getByRole('button', { name: `Rescan ${notes} now` }).click();
    await rescanning.waitFor();
    await card.getByRole('button', { name: `Remove ${notes}` }).click();
    await page
      .getByRole('dialog', { name: 'Stop watching this folder?' })
      .getByRole('button', { name: 'Stop watching' })
      .click();
    await card.waitFor({ state: 'detached' });
    expect(await rescanning.count()).toBe(0);
    await page.close();
  });
});
