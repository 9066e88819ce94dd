import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { makeTestVideo } from '../helpers/ffmpeg.js';
import { waitFor } from '../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** The reference server's watch page, played for real in Debian's Chromium. */
let t: TestServer;
let browser: Browser;
let scratch: string;
let watchUrl: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'watch-e2e-'));
  t = await startTestServer({ rateLimit: 1000 });
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  const upload = await t.upload({ visibility: 1 }, { filename: 'bars.mp4', content: await makeTestVideo(scratch, 3) });
  const id = upload.json.data.id as string;
  watchUrl = upload.json.data.urls.watch;
  await waitFor(
    async () => {
      const status = (await t.api(`/files/${id}/status`)).json.data.conversion?.status;
      return status === 'completed' ? true : undefined;
    },
    30_000,
    'the HLS conversion',
  );
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await rm(scratch, { recursive: true, force: true });
});

/** Plays the page's video for a moment; returns what the element reports. */
async function play(page: Page) {
  return page.evaluate(async () => {
    const video = document.getElementById('player') as HTMLVideoElement;
    video.muted = true;
    await video.play();
    const started = Date.now();
    while (video.currentTime < 0.5 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 100));
    return {
      source: video.currentSrc,
      player: video.getAttribute('data-player'),
      time: video.currentTime,
      height: video.videoHeight,
      error: video.error?.message ?? null,
    };
  });
}

describe('watch page', () => {
  it('plays the HLS rendition with the browser’s own HLS support', async () => {
    const page = await browser.newPage();
    await page.goto(watchUrl);
    const state = await play(page);
    expect(state).toMatchObject({
      source: expect.stringContaining('/hls/master.m3u8'),
      player: null,
      height: 240,
      error: null,
    });
    expect(state.time).toBeGreaterThanOrEqual(0.5);
    await mkdir('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/reference-server-watch.png' });
    await page.close();
  });

  it('plays the HLS rendition through hls.js where the browser has no native HLS', async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      HTMLMediaElement.prototype.canPlayType = () => '';
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(watchUrl);
    const state = await play(page);
    expect(state).toMatchObject({
      source: expect.stringMatching(/^blob:/),
      player: 'hls.js',
      height: 240,
      error: null,
    });
    expect(state.time).toBeGreaterThanOrEqual(0.5);
    expect(errors).toEqual([]);
    await page.close();
  });
});
