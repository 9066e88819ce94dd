import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppHarness } from './app-harness.js';

const row = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: name });

/** Adds a file through "Add files…" (streamed to the daemon with the key the page keeps) and waits until it is done. */
async function upload(app: AppHarness, page: Page, name: string): Promise<void> {
  const path = join(app.scratch, name);
  await writeFile(path, `the bytes of ${name}\n`.repeat(500));
  await page.locator('input[type=file]').first().setInputFiles([path]);
  await row(page, name).getByText('Done', { exact: true }).waitFor({ timeout: 20_000 });
}

describe('a tab left open while media-sync serve restarts', () => {
  let app: AppHarness;

  beforeAll(async () => {
    app = await startApp({ signIn: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows the app again by itself after a restart; after --new-key it says to open the new address', async () => {
    const page = await app.open();
    await upload(app, page, 'before.mp4');
    const firstUrl = app.url;

    const reconnecting = page.getByText('Lost the connection to Media Sync. Reconnecting…');
    const secondUrl = await app.restart({ whileStopped: () => reconnecting.waitFor() });
    // the same key from the data folder: the same address, and the key the tab keeps still opens the app
    expect(secondUrl).toBe(firstUrl);
    await reconnecting.waitFor({ state: 'detached', timeout: 30_000 });
    await upload(app, page, 'after.mp4');

    const thirdUrl = await app.restart({ args: ['--new-key'] });
    expect(new URL(thirdUrl).port).toBe(new URL(firstUrl).port);
    expect(thirdUrl).not.toBe(firstUrl);
    const changed = page.getByRole('alert').filter({
      hasText:
        'Media Sync has a new address, so this page can no longer reach it. Open the new address printed in the terminal where media-sync serve runs.',
    });
    await changed.waitFor({ timeout: 30_000 });
    expect(await reconnecting.count()).toBe(0);

    // the new address, opened in another tab, lets this one in again too: the origin's storage is shared by its tabs
    const other = await page.context().newPage();
    await other.goto(thirdUrl);
    await changed.waitFor({ state: 'detached', timeout: 30_000 });
    await upload(app, page, 'with-new-key.mp4');
    await page.close();
  });

  it('the page says it in German for a German browser', async () => {
    const page = await app.open('light', undefined, 'de-DE');
    await app.restart({ args: ['--new-key'] });
    await page
      .getByRole('alert')
      .filter({ hasText: 'Media Sync hat eine neue Adresse, daher erreicht diese Seite es nicht mehr.' })
      .waitFor({ timeout: 30_000 });
    await page.close();
  });
});
