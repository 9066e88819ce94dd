import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestVideo } from '../helpers/ffmpeg.js';
import { startLocalHttpServer, type LocalHttpServer } from '../helpers/local-http-server.js';
import { serve } from '../helpers/media-fixtures.js';
import { startApp, type AppHarness } from './app-harness.js';

/**
 * A finished import keeps what its file became across a restart of
 * `media-sync serve` ("Try it locally", whose server converts the imported
 * video with ffmpeg): "Ready to watch" with its watch link and page, as
 * before; and after signing out and in again to the same account too.
 */
let app: AppHarness;
let source: LocalHttpServer;

beforeAll(async () => {
  app = await startApp();
  source = await startLocalHttpServer();
  source.route('/harbour.mp4', serve(await makeTestVideo(app.scratch, 2), 'video/mp4'));
});
afterAll(async () => {
  await source?.close();
  await app?.close();
});

const job = (page: Page, name: string) =>
  page
    .getByRole('list', { name: 'Import jobs' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name }) });

async function openImports(): Promise<Page> {
  const page = await app.open();
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Imports' }).click();
  await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
  return page;
}

/** What a finished job offers: its words after the import and its buttons and links. */
async function offers(page: Page): Promise<string[]> {
  const row = job(page, 'Harbour');
  await row.getByText('Ready to watch').waitFor({ timeout: 60_000 });
  await row.getByRole('link', { name: 'Open file Harbour' }).waitFor();
  return (await row.locator('.job__after, button, a').allInnerTexts()).map((text) => text.replace(/\s+/g, ' '));
}

describe('an import after a restart', () => {
  it('is still "Ready to watch", with its watch link and page', async () => {
    const first = await app.open();
    await first.getByRole('button', { name: 'Try it locally' }).click();
    await first.getByRole('navigation', { name: 'Views' }).waitFor();
    await first.close();
    const page = await openImports();
    await page.getByRole('textbox', { name: 'Links, one per line' }).fill(`${source.origin}/harbour.mp4`);
    await page.getByRole('textbox', { name: 'Name' }).fill('Harbour');
    await page.getByRole('button', { name: 'Import link' }).click();
    const before = await offers(page);
    expect(before).toEqual([
      'Ready to watch',
      'Copy file link',
      'Copy watch link',
      'Open the watch page of Harbour',
      'Open file Harbour',
    ]);
    await page.close();

    await app.restart();
    const again = await openImports();
    expect(await offers(again)).toEqual(before);
    await again.close();

    // signed out and in again to the same demo account, then restarted: the same job, the same words
    const [demo] = ((await app.contract.invoke('account:list', {})) as { ok: true; value: Array<{ id: string }> })
      .value;
    await app.contract.invoke('account:signOut', { accountId: demo!.id });
    await app.contract.invoke('account:startDemo', {});
    await app.restart();
    const later = await openImports();
    expect(await offers(later)).toEqual(before);
    await later.close();
  });
});
