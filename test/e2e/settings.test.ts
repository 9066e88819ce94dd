import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, startApp, type AppHarness } from './app-harness.js';

let app: AppHarness;

beforeAll(async () => {
  app = await startApp({ signIn: true });
});
afterAll(async () => {
  await app?.close();
});

describe('settings', () => {
  it('edits a watched folder and the app settings, and both are kept after a reload', async () => {
    const watched = join(app.scratch, 'videos');
    await mkdir(watched);
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    // headless: a 0600 file is not encryption, and the page says so
    await page.getByText('This token is not encrypted').waitFor();

    await page.getByLabel('Folder path').fill(watched);
    await page.getByRole('button', { name: 'Add folder' }).click();
    const folders = page.getByRole('list', { name: 'Watched folders' });
    await folders.getByText(watched).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'settings');

    await folders.getByRole('button', { name: `Edit ${watched}` }).click();
    const edit = page.getByRole('form', { name: `Options of ${watched}` });
    await edit.getByRole('radio', { name: 'Move it into a subfolder' }).check();
    await edit.getByLabel('Subfolder name').fill('a/b');
    await edit.getByText('Enter a folder name, not a path').waitFor();
    expect(await edit.getByRole('button', { name: 'Save folder' }).isDisabled()).toBe(true);
    await edit.getByLabel('Subfolder name').fill('Sent');
    await edit.getByLabel('Ignore files matching').fill('*.tmp\nDrafts/**');
    await edit.getByRole('button', { name: 'Save folder' }).click();
    await folders.getByText('files moved to “Sent” · ignores 2 patterns').waitFor();

    await page.getByLabel('Uploads at the same time').selectOption('5');
    await page.getByRole('radio', { name: 'Limit all uploads together' }).check();
    await page.getByLabel('Limit in MB/s').fill('0');
    await page.getByLabel('Proxy for API traffic').fill('ftp://proxy.example');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Enter a speed above 0 MB/s').waitFor();
    await page.getByText('Enter a proxy address starting with http:// or https://').waitFor();
    await page.getByLabel('Limit in MB/s').fill('2.5');
    await page.getByLabel('Proxy for API traffic').fill('');
    await page.getByRole('checkbox', { name: 'An import completed' }).uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('list', { name: 'Watched folders' }).getByText('files moved to “Sent”').waitFor();
    await page.getByLabel('Limit in MB/s').waitFor();
    expect(await page.getByLabel('Uploads at the same time').inputValue()).toBe('5');
    expect(await page.getByLabel('Limit in MB/s').inputValue()).toBe('2.5');
    expect(await page.getByRole('checkbox', { name: 'An import completed' }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'Uploads finished' }).isChecked()).toBe(true);
    // on by default, like every switch
    expect(await page.getByRole('checkbox', { name: 'Ready to watch' }).isChecked()).toBe(true);
    expect(await app.contract.invoke('settings:get')).toMatchObject({
      ok: true,
      value: { concurrency: 5, bandwidthBytesPerSecond: 2_500_000, notifications: { importCompleted: false } },
    });
    await page.close();
  });

  it('removes a watched folder only after a confirmation, and exports diagnostics as a file', async () => {
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/settings`);
    const folders = page.getByRole('list', { name: 'Watched folders' });
    const path = join(app.scratch, 'videos');
    await folders.getByRole('button', { name: `Remove ${path}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Stop watching this folder?' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await folders.getByText(path).waitFor();

    await folders.getByRole('button', { name: `Remove ${path}` }).click();
    await dialog.getByRole('button', { name: 'Stop watching' }).click();
    await page.getByText('No watched folder yet').waitFor();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export diagnostics' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^media-sync-diagnostics-.*\.json$/);
    const text = await (await file.createReadStream()).toArray();
    const report = JSON.parse(Buffer.concat(text).toString()) as { settings: { concurrency: number } };
    expect(report.settings.concurrency).toBe(5);
    expect(Buffer.concat(text).toString()).not.toContain(app.server.token);
    await page.close();
  });

  it('shows the log folder in a browser, copies its path, and the diagnostics carry the last lines of the log', async () => {
    const page = await app.open();
    const origin = new URL(app.url).origin;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await page.goto(`${origin}/#/settings`);
    const folder = join(app.dataDir, 'logs');
    await page.getByRole('heading', { name: 'Logs', level: 3 }).waitFor();
    await page.getByText('they never contain your token').waitFor();
    await page.getByText(folder, { exact: true }).waitFor();
    // a page cannot open a folder on the daemon's machine: no such button here
    expect(await page.getByRole('button', { name: 'Open logs folder' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Copy path' }).click();
    await page.getByText('The path of the log folder is copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(folder);
    expect(await accessibilityViolations(page)).toEqual([]);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export diagnostics' }).click();
    const text = Buffer.concat(await (await (await download).createReadStream()).toArray()).toString();
    const report = JSON.parse(text) as { logs: { folder: string; recent: string[] } };
    expect(report.logs.folder).toBe(folder);
    expect(
      report.logs.recent.some((line) => / INFO {2}Signed in: demo at http:\/\/127\.0\.0\.1:\d+\/api\/v1\.$/.test(line)),
    ).toBe(true);
    expect(text).not.toContain(app.server.token);
    await page.close();
  });
});
