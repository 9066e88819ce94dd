import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalHttpServer, waitFor, type LocalHttpServer } from '../helpers/local-http-server.js';
import { fakeMp4, serve } from '../helpers/media-fixtures.js';
import { accessibilityViolations, screenshot, startApp, type AppHarness } from './app-harness.js';

/**
 * media-sync:// links and opened files, as the desktop shell hands them to
 * the core (here over the daemon's contract socket): the page opens the
 * view they ask for, fills in a field, or shows a toast. An import starts
 * only when the test clicks Import, as a person would.
 */
let app: AppHarness;
let source: LocalHttpServer;

async function openApp(): Promise<Page> {
  const page = await app.open();
  await page.getByRole('navigation', { name: 'Views' }).waitFor();
  return page;
}

async function openLink(link: string) {
  const result = await app.contract.invoke('app:openLink', { link });
  if (!result.ok) throw new Error(`app:openLink: ${JSON.stringify(result)}`);
  return result.value as { kind: string };
}

const importLink = (url: string) => `media-sync://import?url=${encodeURIComponent(url)}`;
const remoteJobs = async () => (await app.server.api('/remote-uploads')).json.data as { name: string }[];

describe('links and opened files', () => {
  beforeAll(async () => {
    app = await startApp({ signIn: true, server: { allowPrivateTargets: true, conversions: false } });
    source = await startLocalHttpServer();
    source.route('/one.mp4', serve(fakeMp4(40_000), 'video/mp4'));
    source.route('/two.mp4', serve(fakeMp4(50_000), 'video/mp4'));
    for (const filename of ['holiday-beach.mp4', 'cat-video.mp4']) {
      const response = await app.server.upload({ visibility: 1 }, { filename, content: fakeMp4(20_000) });
      if (response.status !== 201) throw new Error(`upload ${filename}: ${response.text}`);
    }
  });
  afterAll(async () => {
    await source?.close();
    await app?.close();
  });

  it('an import link opens Imports with the link in the box, and nothing is imported until Import is clicked', async () => {
    const page = await openApp();
    const one = `${source.origin}/one.mp4`;
    const two = `${source.origin}/two.mp4`;
    expect(await openLink(importLink(one))).toMatchObject({ kind: 'import' });

    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    const box = page.getByRole('textbox', { name: 'Links, one per line' });
    await page.getByText('The link you opened is in the box: check it, then select Import to start.').waitFor();
    expect(await box.inputValue()).toBe(one);
    expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(page.url()).toMatch(/#\/imports$/);

    // a second link goes under the first, and still nothing has been sent
    await openLink(importLink(two));
    await page.getByRole('button', { name: 'Import 2 links' }).waitFor();
    expect(await box.inputValue()).toBe(`${one}\n${two}`);
    expect(await remoteJobs()).toEqual([]);
    // the page took both: each is acted on once
    expect(await app.contract.invoke('app:takeIntents')).toEqual({ ok: true, value: [] });
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Import 2 links' }).click();
    await page.getByText('2 imports started.').waitFor();
    expect((await remoteJobs()).map((job) => job.name).sort()).toEqual(['one.mp4', 'two.mp4']);
    await page.close();
  });

  it('a link opened before any page is open waits for the page', async () => {
    const three = `${source.origin}/one.mp4?copy=3`;
    await openLink(importLink(three));
    const page = await openApp();
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    await page.getByText('The link you opened is in the box: check it, then select Import to start.').waitFor();
    expect(await page.getByRole('textbox', { name: 'Links, one per line' }).inputValue()).toBe(three);
    expect(await remoteJobs()).toHaveLength(2);
    await page.close();
  });

  it('a files link opens Files with the search applied', async () => {
    const page = await openApp();
    await openLink(`media-sync://files?search=${encodeURIComponent('holiday')}`);
    await page.getByRole('heading', { name: 'Files', level: 1 }).waitFor();
    const search = page.getByRole('searchbox', { name: 'Search files' });
    await page.getByRole('button', { name: 'holiday-beach.mp4' }).waitFor();
    await page.getByRole('button', { name: 'cat-video.mp4' }).waitFor({ state: 'detached' });
    expect(await search.inputValue()).toBe('holiday');
    expect(await page.getByRole('table').locator('tbody tr').count()).toBe(1);
    await page.close();
  });

  it('a malformed link shows why in a toast that stays until dismissed, and changes nothing else', async () => {
    const page = await openApp();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Files' }).click();
    await page.getByRole('heading', { name: 'Files', level: 1 }).waitFor();
    const jobsBefore = await remoteJobs();
    const link = 'media-sync://import?url=https://videos.example.com/clip.mp4?id=1&part=2';
    expect(await openLink(link)).toMatchObject({ kind: 'invalidLink' });

    const toasts = page.getByRole('region', { name: 'Notifications' });
    const toast = toasts.locator('.toast').filter({ hasText: 'This link was not opened' });
    await toast.waitFor();
    await toast
      .getByText(
        'This link has a part Media Sync does not know (“part”). An address inside the link must be encoded, & and ? included.',
      )
      .waitFor();
    expect(await toast.locator('code').textContent()).toBe(link);
    expect(page.url()).toMatch(/#\/files$/);
    expect(await page.getByRole('searchbox', { name: 'Search files' }).inputValue()).toBe('');
    expect(await remoteJobs()).toEqual(jobsBefore);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'link-refused');

    await toast.getByRole('button', { name: 'Dismiss' }).click();
    await toast.waitFor({ state: 'detached' });
    await page.close();
  });

  it('opened files are queued and uploaded, with a toast naming them and the one that was missing', async () => {
    const page = await openApp();
    const paths = ['opened-a.mp4', 'opened-b.mp4'].map((name) => join(app.scratch, name));
    for (const path of paths) await writeFile(path, fakeMp4(10_000));
    const result = await app.contract.invoke('app:openFiles', {
      paths: [...paths, join(app.scratch, 'gone.mp4')],
    });
    expect(result).toMatchObject({ ok: true, value: { kind: 'filesQueued' } });

    const toast = page
      .getByRole('region', { name: 'Notifications' })
      .locator('.toast', { hasText: 'Added to the queue' });
    await toast.getByText('2 files were added to the queue: opened-a.mp4 and opened-b.mp4.').waitFor();
    await toast.getByText(`They will be uploaded to demo on ${new URL(app.server.baseUrl).host}.`).waitFor();
    await toast.getByText('gone.mp4 was not added: it does not exist.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await waitFor(
      async () => {
        const files = (await app.server.api('/files?search=opened-&per_page=100')).json.data as unknown[];
        return files.length === 2 ? true : undefined;
      },
      20_000,
      'the two opened files on the server',
    );
    await page.close();
  });
});

describe('links and opened files before sign-in', () => {
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('says to sign in first for opened files, and keeps an import link for after sign-in', async () => {
    const page = await app.open();
    await page.getByRole('heading', { name: 'Welcome to Media Sync' }).waitFor();
    const path = join(app.scratch, 'clip.mp4');
    await writeFile(path, fakeMp4(10_000));
    expect(await app.contract.invoke('app:openFiles', { paths: [path] })).toMatchObject({
      ok: true,
      value: { kind: 'filesNotQueued', reason: 'signInFirst' },
    });
    const toast = page.getByRole('region', { name: 'Notifications' }).locator('.toast', {
      hasText: 'Not added to the queue',
    });
    await toast.getByText('No account is signed in, so clip.mp4 was not added to the queue.').waitFor();
    await toast.getByText('Sign in first, then open the file again.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    const address = 'https://videos.example.com/after-sign-in.mp4';
    await openLink(importLink(address));
    await page.getByLabel('Server address').fill(app.server.baseUrl);
    await page.getByLabel('API token').fill(app.server.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Links, one per line' }).inputValue()).toBe(address);
    // the toast stays until dismissed, across the change of page
    await toast.waitFor();
    expect(await remoteJobs()).toEqual([]);
    expect(await app.contract.invoke('uploads:list')).toEqual({
      ok: true,
      value: { items: [], total: 0 },
    });
    await page.close();
  });
});
