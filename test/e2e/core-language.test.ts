import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeMp4 } from '../helpers/media-fixtures.js';
import { startApp, type AppHarness } from './app-harness.js';

/**
 * The daemon speaks its process's locale (German here); each page shows the
 * core's notifications in its own language, from the catalog messages they
 * carry (docs/ui.md, "The core's language").
 */
let app: AppHarness;

beforeAll(async () => {
  app = await startApp({ signIn: true, server: { conversions: false }, env: { LC_ALL: 'de_DE.UTF-8' } });
});
afterAll(async () => {
  await app?.close();
});

/** A toast whose title is exactly `title`. */
const toastTitled = (page: Page, title: string) =>
  page.locator('.toast').filter({ has: page.locator('strong').getByText(title, { exact: true }) });

describe('the core’s language', () => {
  it('a German daemon titles its notifications in German, and each page shows them in its own language', async () => {
    const english = await app.open('light', undefined, 'en-US');
    const german = await app.open('light', undefined, 'de-DE');
    const path = join(app.scratch, 'ferien.mp4');
    await writeFile(path, fakeMp4(10_000));
    expect(await app.contract.invoke('app:openFiles', { paths: [path] })).toMatchObject({
      ok: true,
      value: { kind: 'filesQueued' },
    });

    // one upload, merged for 5 s, then the toast: "Uploaded" in English, "Hochgeladen" in German
    await toastTitled(english, 'Uploaded').getByText('ferien.mp4').waitFor({ timeout: 20_000 });
    await toastTitled(german, 'Hochgeladen').getByText('ferien.mp4').waitFor();
    // the daemon's own words, for its OS-less shell and the contract: German, with the message beside them
    expect(await app.contract.invoke('notifications:list', {})).toMatchObject({
      ok: true,
      value: [
        {
          kind: 'uploadsDone',
          title: 'Hochgeladen',
          body: 'ferien.mp4',
          text: { title: { key: 'core.notifications.uploaded' }, body: null },
        },
      ],
    });
    await english.close();
    await german.close();
  });
});
