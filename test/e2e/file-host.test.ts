import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaFile } from '../../src-shared/api/index.js';
import { launchChromium } from '../helpers/browser.js';
import { makeTestVideo } from '../helpers/ffmpeg.js';
import { startLocalHttpServer, type LocalHttpServer } from '../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** The reference server's file addresses (`urls.page`), opened in Debian's Chromium as a person would. */
let t: TestServer;
let browser: Browser;
let scratch: string;
let video: MediaFile;
/** another origin, with a page that plays the file host's video */
let site: LocalHttpServer;

async function upload(filename: string, content: Buffer): Promise<MediaFile> {
  const res = await t.upload({}, { filename, content });
  expect(res.status).toBe(201);
  return res.json.data;
}

/** A new page that records what its console reports as errors, and the requests it makes. */
async function openPage(): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));
  return { page, errors, requests };
}

/** Waits for the page's first video to have its metadata, seeks into it and reports what the element says. */
function loadAndSeek(page: Page) {
  return page.evaluate(async () => {
    const element = document.querySelector('video')!;
    const settled = (event: string) =>
      new Promise<string>((resolve) => {
        element.addEventListener(event, () => resolve(event), { once: true });
        element.addEventListener('error', () => resolve('error'), { once: true });
        setTimeout(() => resolve('timeout'), 20_000);
      });
    const loaded = element.readyState >= 1 ? 'loadedmetadata' : await settled('loadedmetadata');
    element.currentTime = 1;
    const seeked = await settled('seeked');
    return {
      loaded,
      seeked,
      readyState: element.readyState,
      duration: Math.round(element.duration),
      height: element.videoHeight,
      error: element.error?.message ?? null,
    };
  });
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'file-host-e2e-'));
  t = await startTestServer({ rateLimit: 1000, conversions: false });
  browser = await launchChromium();
  video = await upload('bars.mp4', await makeTestVideo(scratch, 2));
  site = await startLocalHttpServer();
  site.route('/', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Elsewhere</title><video src="${video.urls.page}" preload="metadata"></video>`);
  });
  site.route('/favicon.ico', (_request, response) => response.writeHead(204).end());
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await t?.close();
  await rm(scratch, { recursive: true, force: true });
});

const PLAYED = { loaded: 'loadedmetadata', seeked: 'seeked', duration: 2, height: 240, error: null };

describe("a file's own address in Chromium", () => {
  it('plays a video opened directly, and seeks in it with ranges', async () => {
    const { page, errors } = await openPage();
    const ranges: string[] = [];
    page.on('response', (response) => {
      const range = response.request().headers()['range'];
      if (response.url() === video.urls.page && range) ranges.push(`${range} ${response.status()}`);
    });
    const response = await page.goto(video.urls.page);
    expect(response?.headers()['content-security-policy']).toBeUndefined();
    expect(await loadAndSeek(page)).toMatchObject(PLAYED);
    expect(errors).toEqual([]);
    expect(ranges).toContain('bytes=0- 206');
    await page.close();
  });

  it("plays as the source of a video on another site's page", async () => {
    const { page, errors } = await openPage();
    await page.goto(`${site.origin}/`);
    expect(await loadAndSeek(page)).toMatchObject(PLAYED);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('downloads HTML and SVG instead of showing them, and sends them sandboxed', async () => {
    for (const [name, content] of [
      ['page.html', '<script>alert("ran")</script>'],
      ['drawing.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(\'ran\')"/>'],
    ] as const) {
      const file = await upload(name, Buffer.from(content));
      const { page } = await openPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.goto(file.urls.page).catch(() => null),
      ]);
      expect(download.suggestedFilename()).toBe(name);
      // the headers as a page of the file host itself sees them
      await page.goto(video.urls.page);
      const headers = await page.evaluate(async (url) => {
        const response = await fetch(url);
        return [response.headers.get('content-security-policy'), response.headers.get('x-content-type-options')];
      }, file.urls.page);
      expect([name, ...headers]).toEqual([name, 'sandbox', 'nosniff']);
      expect(dialogs).toEqual([]);
      await page.close();
    }
  });
});

describe("a password-protected file's address in Chromium", () => {
  it('takes the password from the form, serves the file, and keeps the password out of every address', async () => {
    const file = await upload('secret.txt', Buffer.from('the content of secret.txt'));
    await t.api(`/files/${file.id}`, { method: 'PATCH', json: { password: 'open sesame' } });
    const { page, requests } = await openPage();
    const asked = await page.goto(file.urls.page);
    expect(asked?.status()).toBe(401);
    await page.getByLabel('Password').fill('open sesame');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByText('the content of secret.txt').waitFor();
    expect(page.url()).toBe(file.urls.page);

    await page.reload();
    await page.getByText('the content of secret.txt').waitFor();
    expect(requests.filter((request) => request.startsWith('POST '))).toEqual([`POST ${file.urls.page}`]);
    expect(requests.filter((request) => request.includes('password'))).toEqual([]);
    await page.close();
  });
});
