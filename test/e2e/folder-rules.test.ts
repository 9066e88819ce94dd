import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, chooseFolderInPage, folderCard, startApp, type AppHarness } from './app-harness.js';

/**
 * A folder's file rules and their preview (issue 35, part 4) in Chromium
 * against the real daemon: the form says what the rules would upload and
 * leave alone before the folder is added, and what is then uploaded is that.
 */
let app: AppHarness;
let card: string;

beforeAll(async () => {
  app = await startApp({ signIn: true });
  card = join(app.scratch, 'Card');
  await mkdir(card);
  const files = { 'a.mp4': 2000, 'b.mov': 1000, 'photo.jpg': 500, '.hidden.mp4': 500, 'tiny.mp4': 10 };
  for (const [name, size] of Object.entries(files)) await writeFile(join(card, name), Buffer.alloc(size, name));
});
afterAll(async () => {
  await app?.close();
});

async function filesOnService(): Promise<string[]> {
  const answer = await app.server.api('/files?per_page=100');
  return (JSON.parse(answer.body.toString()) as { data: { name: string }[] }).data.map((file) => file.name).sort();
}

describe('folder rules with a preview', () => {
  it('shows what the rules would upload and leave alone before the folder is added, then uploads just that', async () => {
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/folders`);
    const form = await chooseFolderInPage(page, card);
    const preview = form.getByRole('region', { name: 'Before anything is uploaded' });
    await preview.getByText('4 files (3.51 KB) will be uploaded; 1 is left alone (1 hidden).').waitFor();

    await form.getByRole('radio', { name: 'Only these types' }).check();
    await form.getByRole('checkbox', { name: 'Videos' }).check();
    await form.getByLabel('Smallest file (MB)').fill('0.0001');
    await preview
      .getByText('2 files (3.00 KB) will be uploaded; 3 are left alone (1 by type, 1 by size, 1 hidden).')
      .waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // a rule that cannot be: said at the field, and the folder cannot be added
    await form.getByLabel('Largest file (MB)').fill('0.00001');
    await form.getByText('The smallest size must not be above the largest.').waitFor();
    expect(await form.getByRole('button', { name: 'Add folder' }).isDisabled()).toBe(true);
    await form.getByLabel('Largest file (MB)').fill('');

    await form.getByRole('button', { name: 'Add folder' }).click();
    await page.getByText(`Now watching ${card}.`).waitFor();
    await folderCard(page, card)
      .getByText(/^Up to date since /)
      .waitFor({ timeout: 30_000 });
    await expect.poll(filesOnService, { timeout: 30_000 }).toEqual(['a.mp4', 'b.mov']);
    await page.close();
  });
});
