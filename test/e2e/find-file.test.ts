import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, fact, folderCard, screenshot, startApp, type AppHarness } from './app-harness.js';

/**
 * Folders → Find a file against the real daemon: "why this file?" for a file
 * the folder's rule leaves alone, Remove the rule, and the same file then
 * uploaded, with its link, also from its row on the folder's card; a path
 * with no file, and one that is not full.
 */
let app: AppHarness;
let camera: string;

beforeAll(async () => {
  app = await startApp({ signIn: true });
  camera = join(app.scratch, 'Camera');
  await mkdir(camera);
  const accounts = await app.contract.invoke('account:list', {});
  if (!accounts.ok) throw new Error('no account');
  const [account] = accounts.value as { id: string }[];
  const added = await app.contract.invoke('folders:add', {
    accountId: account!.id,
    path: camera,
    options: { ignoreGlobs: ['*.draft'] },
  });
  if (!added.ok) throw new Error(added.error.message);
});
afterAll(async () => {
  await app?.close();
});

async function findFile(page: Page, path: string): Promise<void> {
  const search = page.getByRole('search', { name: 'Find a file' });
  await search.getByLabel('Full path of a file').fill(path);
  await search.getByRole('button', { name: 'Explain' }).click();
}

describe('Find a file', () => {
  it('says which rule leaves a file alone, removes the rule, then says it is uploaded with its link', async () => {
    const notes = join(camera, 'notes.draft');
    await writeFile(notes, 'a draft worth keeping');
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/folders`);
    await folderCard(page, camera).waitFor();

    await findFile(page, notes);
    const answer = page.getByRole('definition').first();
    await answer.waitFor();
    expect(await fact(page, 'Folder')).toBe(`${camera}, watched live`);
    expect(await fact(page, 'Status')).toBe('Left alone by the folder’s rule “*.draft”.');
    expect(await fact(page, 'What happens next')).toBe('The folder does not upload it while the rule holds.');
    const actions = page.getByRole('group', { name: 'You can' });
    expect(await actions.getByRole('button').allTextContents()).toEqual(['Upload anyway', 'Remove the rule “*.draft”']);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'find-file');

    await actions.getByRole('button', { name: 'Remove the rule “*.draft”' }).click();
    await page.getByRole('status').getByText('Done.').waitFor();
    // the folder takes the file in now that no rule leaves it alone; asked again until it is on the service
    await expect
      .poll(
        async () => {
          await findFile(page, notes);
          await page.getByRole('definition').first().waitFor();
          return fact(page, 'Status');
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe('Uploaded.');
    const link = await page
      .getByRole('link', { name: /\/watch$|^http/ })
      .last()
      .getAttribute('href');
    const listed = JSON.parse((await app.server.api('/files?per_page=100')).body.toString()) as {
      data: { name: string; urls: { page: string; watch: string } }[];
    };
    const remote = listed.data.find((file) => file.name === 'notes.draft');
    expect(remote).toBeDefined();
    expect([remote!.urls.page, remote!.urls.watch]).toContain(link);
    expect(await fact(page, 'On the service')).toBe('notes.draft');
    expect(await page.getByRole('group', { name: 'You can' }).count()).toBe(0);

    // the file's row on the folder's card opens the same answer there
    const card = folderCard(page, camera);
    await card.getByRole('button', { name: 'Why? notes.draft' }).click();
    const status = card.locator('dt', { hasText: /^Status$/ }).locator('xpath=following-sibling::dd[1]');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('Uploaded.');
    expect(await accessibilityViolations(page)).toEqual([]);
    await card.getByRole('button', { name: 'Close' }).click();
    expect(await status.count()).toBe(0);
  });

  it('says there is no file at a path, and asks for a full path', async () => {
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/folders`);
    await folderCard(page, camera).waitFor();
    await findFile(page, join(camera, 'IMG_0042.JPG'));
    await page.getByRole('definition').first().waitFor();
    expect(await fact(page, 'Status')).toBe('There is no file at this path.');

    await findFile(page, 'Camera/IMG_0042.JPG');
    await page.getByRole('alert').getByText('“Camera/IMG_0042.JPG” is not a full path.', { exact: false }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
