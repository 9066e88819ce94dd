import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalHttpServer, type LocalHttpServer } from '../helpers/local-http-server.js';
import { fakeMp4 } from '../helpers/media-fixtures.js';
import { de } from '../../src-shared/i18n/de.js';
import { en } from '../../src-shared/i18n/en.js';
import { accessibilityViolations, screenshot, startApp, type AppHarness } from './app-harness.js';

/**
 * A narrow window (420 × 800: a phone-sized browser, a tiled desktop), in
 * English and German: every view fits its width, with no sideways scroll,
 * the Queue's rows show their names, and toasts leave or stay as they should.
 * Every view has something in it: a queued file, a watched folder, a file on
 * the service, a failed import.
 */
let app: AppHarness;
let source: LocalHttpServer;
const LONG_NAME = 'IMG_2024_summer_holiday_at_the_beach_with_the_family_0042.JPG';
const VIEWPORT = { width: 420, height: 800 };

/** The words the checks look for (the views' names, Settings' sections), in each language. */
const CATALOGS = { en, de };

beforeAll(async () => {
  app = await startApp({ signIn: true, server: { conversions: false, allowPrivateTargets: true } });
  source = await startLocalHttpServer();
  const accounts = await app.contract.invoke('account:list');
  const accountId = accounts.ok ? (accounts.value as { id: string }[])[0]!.id : '';
  // the queue waits (paused), so its row stays as it is
  expect((await app.contract.invoke('uploads:pauseAll', { until: null })).ok).toBe(true);
  const queued = join(app.scratch, LONG_NAME);
  await writeFile(queued, fakeMp4(54_321));
  expect((await app.contract.invoke('uploads:addPaths', { accountId, paths: [queued] })).ok).toBe(true);
  const folder = join(app.scratch, 'Holiday pictures from the summer of 2024 at the beach');
  await mkdir(folder);
  expect((await app.contract.invoke('folders:add', { accountId, path: folder })).ok).toBe(true);
  await app.server.upload(
    { visibility: 1 },
    { filename: 'a-rather-long-name-of-a-holiday-video.mp4', content: fakeMp4(12_345) },
  );
  // a link to nothing: the job fails
  const urls = [`${source.origin}/missing-clip.mp4`];
  expect((await app.contract.invoke('imports:create', { accountId, body: { urls } })).ok).toBe(true);
});
afterAll(async () => {
  await source?.close();
  await app?.close();
});

async function openNarrow(locale: string): Promise<Page> {
  const page = await app.open('light', undefined, locale);
  await page.setViewportSize(VIEWPORT);
  return page;
}

/**
 * What sticks out sideways: the page's own horizontal scroll, and each
 * element drawn (wider than nothing) past the window's left or right edge.
 */
async function sticksOut(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollWidth > root.clientWidth) found.push(`the page scrolls sideways: ${root.scrollWidth}px`);
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || (box.left >= -0.5 && box.right <= innerWidth + 0.5)) continue;
      const name = `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`;
      found.push(
        `${name} “${element.textContent?.slice(0, 40)}” at ${Math.round(box.left)}–${Math.round(box.right)}px`,
      );
    }
    return found;
  });
}

async function goTo(page: Page, language: 'en' | 'de', view: keyof typeof en.nav) {
  const { app: words, nav: views } = CATALOGS[language];
  // a click: each view's link is in sight, none off the edge
  await page
    .getByRole('navigation', { name: words.views })
    .getByRole('link', { name: views[view], exact: true })
    .click();
  await page.getByRole('heading', { name: views[view], level: 1 }).waitFor();
}

describe('a narrow window', () => {
  for (const language of ['en', 'de'] as const) {
    it(`fits every view at 420 px, in ${language === 'en' ? 'English' : 'German'}`, async () => {
      const page = await openNarrow(language === 'en' ? 'en-US' : 'de-DE');

      await goTo(page, language, 'queue');
      const row = page.locator('.queue-row').filter({ hasText: LONG_NAME });
      await row.waitFor();
      // the name keeps its start and its end, with room to be read
      const name = row.locator('.queue-row__name');
      const head = name.locator('.middle-ellipsis__head');
      const tail = name.locator('.middle-ellipsis__tail');
      expect(await tail.textContent()).toBe('0042.JPG');
      expect((await head.boundingBox())!.width).toBeGreaterThan(60);
      expect((await tail.boundingBox())!.width).toBeGreaterThan(20);
      expect(await name.getAttribute('title')).toBe(LONG_NAME);
      // cut in the middle now, whole once focused from the keyboard
      const [full, drawn] = await head.evaluate((element) => [element.scrollWidth, element.clientWidth]);
      expect(drawn).toBeLessThan(full);
      await name.focus();
      expect(await name.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      const shown = await head.evaluate((element) =>
        [...element.getClientRects()].reduce((sum, line) => sum + line.width, 0),
      );
      expect(shown).toBeGreaterThanOrEqual(full - 2);
      await name.blur();
      // the row's state and why it waits are said whole, not cut
      const waiting = row.locator('.queue-row__detail');
      expect(await waiting.evaluate((element) => element.scrollHeight <= element.clientHeight)).toBe(true);
      await row.getByText(language === 'en' ? 'Queued' : 'In der Warteschlange', { exact: true }).waitFor();
      // one scroll bar: the list's; the view around it does not scroll
      expect(await page.locator('.app__main').evaluate((element) => element.scrollHeight <= element.clientHeight)).toBe(
        true,
      );
      expect(await sticksOut(page)).toEqual([]);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `narrow-queue-${language}`);

      await goTo(page, language, 'folders');
      await page.getByRole('article').first().waitFor();
      expect(await sticksOut(page)).toEqual([]);
      expect(await accessibilityViolations(page)).toEqual([]);

      await goTo(page, language, 'files');
      await page.getByRole('button', { name: 'a-rather-long-name-of-a-holiday-video.mp4' }).click();
      await page.locator('.file-details dd').first().waitFor();
      expect(await sticksOut(page)).toEqual([]);
      expect(await accessibilityViolations(page)).toEqual([]);

      await goTo(page, language, 'imports');
      await page.locator('.job').first().waitFor();
      expect(await sticksOut(page)).toEqual([]);
      expect(await accessibilityViolations(page)).toEqual([]);

      await goTo(page, language, 'account');
      await page.locator('dd').first().waitFor();
      expect(await sticksOut(page)).toEqual([]);
      expect(await accessibilityViolations(page)).toEqual([]);

      await goTo(page, language, 'settings');
      const { sectionsLabel, sections: names } = CATALOGS[language].settings;
      const sections = page.getByRole('navigation', { name: sectionsLabel });
      for (const section of Object.values(names)) {
        await sections.getByRole('link', { name: section, exact: true }).click();
        await page.locator('.settings__section h2').first().waitFor();
        expect(await sticksOut(page), section).toEqual([]);
      }
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.close();
    });
  }

  it('lets a toast that is not a problem leave by itself, keeps a problem until dismissed, and both stay small', async () => {
    const page = await openNarrow('en-US');
    await goTo(page, 'en', 'queue');
    const toasts = page.getByRole('region', { name: 'Notifications' });
    // a refused link: a problem; opened files added to the queue: news that leaves
    const link = 'media-sync://import?url=ftp%3A%2F%2Fmedia.example.com%2Fa.mp4';
    expect((await app.contract.invoke('app:openLink', { link })).ok).toBe(true);
    const opened = join(app.scratch, 'opened.mp4');
    await writeFile(opened, fakeMp4(10_000));
    expect((await app.contract.invoke('app:openFiles', { paths: [opened] })).ok).toBe(true);
    const problem = toasts.locator('.toast').filter({ hasText: 'This link was not opened' });
    const news = toasts.locator('.toast').filter({ hasText: 'Added to the queue' });
    await problem.waitFor();
    await news.waitFor();
    const height = await toasts.evaluate((element) => element.getBoundingClientRect().height);
    expect(height).toBeLessThanOrEqual(VIEWPORT.height / 4);
    expect(await sticksOut(page)).toEqual([]);

    await news.waitFor({ state: 'detached', timeout: 20_000 });
    expect(await problem.isVisible()).toBe(true);
    await problem.getByRole('button', { name: 'Dismiss' }).click();
    await problem.waitFor({ state: 'detached' });
    await page.close();
  });
});
