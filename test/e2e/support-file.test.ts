import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, startApp, type AppHarness } from './app-harness.js';

let app: AppHarness;
let scratch: string;

beforeAll(async () => {
  app = await startApp({ signIn: true });
  scratch = await mkdtemp(join(tmpdir(), 'media-sync-support-e2e-'));
});
afterAll(async () => {
  await app?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('Settings → Support and logs → Save a support file…', () => {
  it('lists what the zip holds with sizes, passes axe, and saves a zip without the token or the session key', async () => {
    const page = await app.open();
    await page.goto(`${new URL(app.url).origin}/#/settings/support`);
    await page.getByRole('button', { name: 'Save a support file…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save a support file' });
    await dialog.waitFor();
    const entries = dialog.getByRole('table');
    await entries.getByRole('cell', { name: 'logs/main.log' }).waitFor();
    const names = await entries.locator('tbody tr td:first-child').allTextContents();
    expect(names).toEqual(expect.arrayContaining(['README.txt', 'settings.json', 'queue.json', 'requests.json']));
    // sizes as Intl writes them, and the zip's own
    expect(await entries.locator('tbody tr td:last-child').allTextContents()).toEqual(
      names.map(() => expect.stringMatching(/^\d+(\.\d+)? (B|KB|MB)$/)),
    );
    await dialog.getByText(/^The zip: \d+(\.\d+)? (B|KB|MB)$/).waitFor();
    expect(await dialog.getByRole('combobox', { name: 'Log of the last' }).inputValue()).toBe('3');
    expect(await dialog.getByText('File and folder names are replaced by stand-ins').count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);

    await dialog.getByRole('combobox', { name: 'Log of the last' }).selectOption({ label: '7 days' });
    await dialog.getByRole('checkbox', { name: 'Include file names' }).check();
    await dialog.getByText('File and folder names are kept as they are').waitFor();

    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^media-sync-support-\d{4}-\d{2}-\d{2}-[\d-]+\.zip$/);
    const path = join(scratch, file.suggestedFilename());
    await file.saveAs(path);
    await page.getByText(`Saved the support file ${file.suggestedFilename()}.`).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    const zipped = execFileSync('unzip', ['-Z1', path], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(zipped.sort()).toEqual(names.sort());
    const app_ = JSON.parse(execFileSync('unzip', ['-p', path, 'app.json'], { encoding: 'utf8' })) as {
      logDays: number;
      namesIncluded: boolean;
    };
    expect(app_).toMatchObject({ logDays: 7, namesIncluded: true });
    const everything = execFileSync('unzip', ['-p', path], { encoding: 'utf8' });
    expect(everything).toContain('Signed in: demo at');
    expect(everything).not.toContain(app.server.token);
    expect(everything).not.toContain(new URL(app.url).searchParams.get('key'));
    await page.close();
  });

  it('says it all in German too', async () => {
    const page = await app.open('light', undefined, 'de-DE');
    await page.goto(`${new URL(app.url).origin}/#/settings/support`);
    await page.getByRole('button', { name: 'Supportdatei speichern…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Supportdatei speichern' });
    await dialog.getByText(/^Das Zip: \d+(,\d+)? (B|KB|MB)$/).waitFor();
    expect(await dialog.getByRole('combobox', { name: 'Protokoll der letzten' }).inputValue()).toBe('3');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.close();
  });
});
