import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import { ackedBytes } from '../../src-shared/model/chunk-bytes.js';
import { makeTestVideo } from '../helpers/ffmpeg.js';
import { accessibilityViolations, addFolderInPage, screenshot, startApp, type AppHarness } from './app-harness.js';

/** The queue's rows, and one of them by file name. */
const rows = (page: Page) => page.getByRole('list', { name: 'Uploads' }).getByRole('listitem');
const row = (page: Page, name: string) => rows(page).filter({ hasText: name });

async function accountId(app: AppHarness): Promise<string> {
  const accounts = await app.contract.invoke('account:list');
  if (!accounts.ok) throw new Error('no account');
  return (accounts.value as { id: string }[])[0]!.id;
}

async function writeClips(dir: string, names: string[]): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  return Promise.all(
    names.map(async (name) => {
      const path = join(dir, name);
      await writeFile(path, `the bytes of ${name}\n`.repeat(200));
      return path;
    }),
  );
}

describe('the queue', () => {
  let app: AppHarness;

  beforeAll(async () => {
    app = await startApp({ signIn: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('adds a watched folder in Folders; a file written into it goes from queued to done with a copyable file link', async () => {
    const watched = join(app.scratch, 'watched');
    await mkdir(watched);
    const page = await app.open();
    const origin = new URL(app.url).origin;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });

    await page.getByText('Nothing to upload yet').waitFor();
    await page.getByRole('link', { name: 'Watch a folder' }).click();
    await addFolderInPage(page, watched, (form) => form.getByRole('radio', { name: 'Public', exact: true }).check());

    await writeClips(watched, ['holiday.mp4']);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Queue' }).click();
    const clip = row(page, 'holiday.mp4');
    await clip.waitFor({ timeout: 15_000 });
    await clip.getByText('Done', { exact: true }).waitFor({ timeout: 20_000 });
    // a file of the person's own folder: its path is theirs to copy
    await clip.getByRole('button', { name: 'Copy the path of holiday.mp4' }).waitFor();
    await clip.getByRole('button', { name: 'Copy file link holiday.mp4' }).click();

    const files = await app.server.api('/files');
    const file = (JSON.parse(files.body.toString()) as { data: { id: string; name: string }[] }).data[0]!;
    const link = `${app.server.fileHost}/${file.id}/file`;
    await page.getByText(`Copied the file link of holiday.mp4: ${link}`).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(file.name).toBe('holiday.mp4');
    await page.close();
  });

  it('opens one socket and asks for the first reads once', async () => {
    const [path] = await writeClips(join(app.scratch, 'first-load'), ['first-load.mp4']);
    const added = await app.contract.invoke('uploads:addPaths', { accountId: await accountId(app), paths: [path] });
    expect(added.ok).toBe(true);
    // done before the page loads: an item event meanwhile would rightly make the page ask again
    await expect
      .poll(
        async () => {
          const list = await app.contract.invoke('uploads:list', { offset: 0, limit: 50 });
          const items = list.ok ? (list.value as { items: { fileName: string; state: { kind: string } }[] }).items : [];
          return items.find((item) => item.fileName === 'first-load.mp4')?.state.kind;
        },
        { timeout: 20_000 },
      )
      .toBe('done');

    const sockets: string[] = [];
    const sent: string[] = [];
    const page = await app.open('light', (page) =>
      page.on('websocket', (socket) => {
        sockets.push(socket.url());
        socket.on('framesent', ({ payload }) => sent.push(String(payload)));
      }),
    );
    await row(page, 'first-load.mp4').getByText('Done', { exact: true }).waitFor();
    const names = sent.map((text) => (JSON.parse(text) as { name: string }).name);
    expect(sockets).toEqual([`${new URL(app.url).origin.replace('http', 'ws')}/ipc`]);
    for (const name of ['account:list', 'uploads:list', 'uploads:status']) {
      expect(
        names.filter((sentName) => sentName === name),
        name,
      ).toHaveLength(1);
    }
    await page.close();
  });

  it('pauses all for 2 hours: files added meanwhile stay queued until Resume all, then finish', async () => {
    const page = await app.open();
    // by keyboard: the menu opens on its first choice, Escape gives the focus back, Enter picks
    const pauseAll = page.getByRole('button', { name: 'Pause all' });
    await pauseAll.focus();
    await page.keyboard.press('ArrowDown');
    const twoHours = page.getByRole('menuitem', { name: 'Pause for 2 hours' });
    expect(await twoHours.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await twoHours.waitFor({ state: 'detached' });
    expect(await pauseAll.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const paused = page.getByText(/^All uploads paused until \d/);
    await paused.waitFor();

    // through "Add files…", as a keyboard user would: the browser streams them to the daemon
    const paths = await writeClips(join(app.scratch, 'picked'), ['first.mp4', 'second.mp4']);
    await page.locator('input[type=file]').first().setInputFiles(paths);
    await page.getByText(/Added 2 files to the queue/).waitFor();
    for (const name of ['first.mp4', 'second.mp4']) {
      await row(page, name).getByText('Waiting: all uploads are paused').waitFor();
    }
    await page.waitForTimeout(1_500);
    for (const name of ['first.mp4', 'second.mp4']) {
      expect(await row(page, name).getByText('Queued', { exact: true }).count()).toBe(1);
    }
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'queue');

    await page.getByRole('button', { name: 'Resume all' }).click();
    await paused.waitFor({ state: 'detached' });
    for (const name of ['first.mp4', 'second.mp4']) {
      await row(page, name).getByText('Done', { exact: true }).waitFor({ timeout: 20_000 });
    }
    // a file the page sent has no path of the person's to copy (the daemon's copy is gone): its name, and its link
    const first = row(page, 'first.mp4');
    expect(await first.getByRole('button', { name: 'Copy the path of first.mp4' }).count()).toBe(0);
    await first.getByRole('button', { name: 'Copy file link first.mp4' }).waitFor();
    await first.getByRole('button', { name: 'Copy the name first.mp4' }).click();
    await page.getByText(/^(Copied the name first\.mp4\.|The file is called first\.mp4\.)$/).waitFor();
    await page.close();
  });

  it('"When done" counts down once the queue is done, with a Cancel that clears the choice', async () => {
    const page = await app.open();
    await app.contract.invoke('uploads:pauseAll', { until: null });
    const [path] = await writeClips(join(app.scratch, 'last'), ['last-of-the-day.mp4']);
    await app.contract.invoke('uploads:addPaths', { accountId: await accountId(app), paths: [path] });
    const whenDone = page.getByRole('combobox', { name: 'When done' });
    await whenDone.selectOption({ label: 'Sleep' });
    // work is left: no countdown yet
    await row(page, 'last-of-the-day.mp4').getByText('Queued', { exact: true }).waitFor();
    expect(await page.getByText(/goes to sleep in/).count()).toBe(0);

    await page.getByRole('button', { name: 'Resume all' }).click();
    await page.getByText(/^The computer goes to sleep in (1 min|\d+ s)\.$/).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText(/goes to sleep in/).waitFor({ state: 'detached' });
    expect(await whenDone.inputValue()).toBe('nothing');
    await page.close();
  });

  it("moves a running upload's bar as its bytes go, and tells its bytes, speed and time left", async () => {
    // 1 MB/s: the 8 MB file takes about 8 s, long enough to watch it go
    await app.contract.invoke('settings:update', { bandwidthBytesPerSecond: 1_000_000 });
    try {
      const page = await app.open();
      const dir = join(app.scratch, 'slow');
      await mkdir(dir);
      await writeFile(join(dir, 'slow.mp4'), Buffer.alloc(8_000_000, 7));
      await app.contract.invoke('uploads:addPaths', {
        accountId: await accountId(app),
        paths: [join(dir, 'slow.mp4')],
      });

      const clip = row(page, 'slow.mp4');
      const bar = clip.getByRole('progressbar', { name: 'Progress of slow.mp4' });
      await clip.getByText(/^Uploading \d+%$/).waitFor({ timeout: 15_000 });
      // the fill's width on screen, as a fraction of the track
      const filled = () =>
        bar.locator('.progress-bar__fill--sent').evaluate((fill) => new DOMMatrix(getComputedStyle(fill).transform).a);
      const first = await filled();
      await expect.poll(filled, { timeout: 5_000 }).toBeGreaterThan(first);
      const detail = clip.getByText(/ of 8\.00 MB · [\d.]+ [KM]B\/s · .+ left$/);
      await detail.waitFor({ timeout: 5_000 });
      await expect
        .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 5_000 })
        .toBeGreaterThan(0);
      // the words keep moving (the bytes sent, the percent), and the toolbar says the speed
      const [words, percent] = [await detail.textContent(), await clip.getByText(/^Uploading \d+%$/).textContent()];
      await expect.poll(() => detail.textContent(), { timeout: 3_000 }).not.toBe(words);
      await expect.poll(() => clip.getByText(/^Uploading \d+%$/).textContent(), { timeout: 3_000 }).not.toBe(percent);
      await page.getByText(/^Speed [1-9][\d.]* [KM]B\/s · limit 1\.00 MB\/s$/).waitFor({ timeout: 3_000 });

      await clip.getByRole('button', { name: 'Cancel slow.mp4' }).click();
      await clip.getByText('Cancelled', { exact: true }).waitFor();
      await page.close();
    } finally {
      await app.contract.invoke('settings:update', { bandwidthBytesPerSecond: null });
    }
  });

  it("shows a chunked upload's confirmed part apart from its bytes in flight, and a pause never moves the bar back", async () => {
    // 4 MB chunks at 1 MB/s: a chunk takes 4 s, its bytes in flight told in 1 MiB pieces
    const settings = await app.contract.invoke('settings:get', {});
    if (!settings.ok) throw new Error('no settings');
    const { chunkSizeBytes } = settings.value as { chunkSizeBytes: number };
    await app.contract.invoke('settings:update', { bandwidthBytesPerSecond: 1_000_000, chunkSizeBytes: 4_000_000 });
    try {
      const page = await app.open();
      const dir = join(app.scratch, 'chunked');
      await mkdir(dir);
      await writeFile(join(dir, 'chunked.mp4'), Buffer.alloc(20_000_000, 5));
      await app.contract.invoke('uploads:addPaths', {
        accountId: await accountId(app),
        paths: [join(dir, 'chunked.mp4')],
      });
      const clip = row(page, 'chunked.mp4');
      const bar = clip.getByRole('progressbar', { name: 'Progress of chunked.mp4' });
      /** what the bar shows: its sent and confirmed fills, as fractions of the track */
      const fills = () =>
        bar.evaluate((element) => {
          const [sent, confirmed] = [...element.children].map(
            (fill) => new DOMMatrix(getComputedStyle(fill).transform).a,
          );
          return { sent: sent!, confirmed: confirmed! };
        });
      /** the item's confirmed bytes as the core keeps them, as a fraction of its size */
      const kept = async () => {
        const list = await app.contract.invoke('uploads:list', { offset: 0, limit: 50 });
        const items = list.ok ? (list.value as { items: UploadItemView[] }).items : [];
        const item = items.find((candidate) => candidate.fileName === 'chunked.mp4')!;
        return ackedBytes(item) / item.size;
      };
      /** every value the bar and the row's state show from now on, in the page */
      const record = () =>
        clip.evaluate((element) => {
          const shown: { sent: number; confirmed: number; state: string }[] = [];
          const scale = (fill: Element | undefined) =>
            Number(/scaleX\(([^)]+)\)/.exec(fill?.getAttribute('style') ?? '')?.[1]);
          new MutationObserver(() => {
            const [sent, confirmed] = [...element.querySelector('.progress-bar')!.children];
            const state = element.querySelector('.queue-row__state')!.textContent ?? '';
            shown.push({ sent: scale(sent), confirmed: scale(confirmed), state });
          }).observe(element, { attributes: true, characterData: true, childList: true, subtree: true });
          Object.assign(window, { shown });
        });
      const shown = () =>
        page.evaluate(
          () => (window as unknown as { shown: { sent: number; confirmed: number; state: string }[] }).shown,
        );
      const never = (values: number[]) => values.every((value, i) => i === 0 || value >= values[i - 1]!);

      // the confirmed part grows chunk by chunk, the bytes in flight ahead of it, and both are said
      await expect.poll(async () => (await fills()).confirmed, { timeout: 15_000 }).toBeGreaterThan(0);
      await expect
        .poll(() => bar.getAttribute('aria-valuetext'), { timeout: 5_000 })
        .toMatch(/^\d+% confirmed, \d+% sent$/);
      await clip.getByText(/^[\d.]+ [KM]B of 20\.0 MB, [\d.]+ [KM]B confirmed · /).waitFor();
      const { sent, confirmed } = await fills();
      expect(sent).toBeGreaterThan(confirmed);
      expect(await accessibilityViolations(page)).toEqual([]);

      // "Pause after this chunk", offered once the chunk in flight is mostly sent: it ends paused with what the bar showed
      await record();
      const pauseAfterChunk = clip.getByRole('button', { name: 'Pause chunked.mp4 after this chunk' });
      await pauseAfterChunk.waitFor({ timeout: 15_000 });
      await screenshot(page, 'queue-chunks');
      await pauseAfterChunk.click({ timeout: 15_000 });
      await clip.getByText('Paused', { exact: true }).waitFor({ timeout: 10_000 });
      const afterChunk = await shown();
      expect(afterChunk.map((value) => value.state)).toContain('Pausing after this chunk…');
      expect(never(afterChunk.map((value) => value.sent)), JSON.stringify(afterChunk)).toBe(true);
      expect(never(afterChunk.map((value) => value.confirmed)), JSON.stringify(afterChunk)).toBe(true);
      const paused = await fills();
      expect(paused.sent).toBe(paused.confirmed);
      expect(paused.confirmed).toBeCloseTo(await kept(), 5);
      expect(paused.confirmed).toBeGreaterThanOrEqual(Math.max(...afterChunk.map((value) => value.sent)) - 1e-6);

      // resumed, then paused now: the bytes in flight go, the confirmed part stays
      await clip.getByRole('button', { name: 'Resume chunked.mp4' }).click();
      await expect.poll(async () => (await fills()).sent, { timeout: 10_000 }).toBeGreaterThan(paused.sent);
      await record();
      const before = await fills();
      await clip.getByRole('button', { name: /^Pause chunked\.mp4( now)?$/ }).click();
      await clip.getByText('Paused', { exact: true }).waitFor({ timeout: 10_000 });
      const now = await shown();
      expect(now.length).toBeGreaterThan(0);
      expect(never(now.map((value) => value.confirmed)), JSON.stringify(now)).toBe(true);
      const stopped = await fills();
      expect(stopped.confirmed).toBeGreaterThanOrEqual(before.confirmed);
      expect(stopped.confirmed).toBeCloseTo(await kept(), 5);

      // the whole queue, after the chunks being sent: back in line with them confirmed
      await clip.getByRole('button', { name: 'Resume chunked.mp4' }).click();
      await expect.poll(async () => (await fills()).sent, { timeout: 10_000 }).toBeGreaterThan(stopped.sent);
      await page.getByRole('button', { name: 'Pause all' }).click();
      await page.getByRole('menuitem', { name: 'Pause after the chunks being sent' }).click();
      await page.getByText('All uploads paused until you resume').waitFor();
      await clip.getByText('Waiting: all uploads are paused').waitFor({ timeout: 10_000 });
      const waiting = await fills();
      expect(waiting.confirmed).toBeGreaterThan(stopped.confirmed);
      expect(waiting.confirmed).toBeCloseTo(await kept(), 5);
      await page.getByRole('button', { name: 'Resume all' }).click();
      await clip.getByRole('button', { name: 'Cancel chunked.mp4' }).click();
      await clip.getByText('Cancelled', { exact: true }).waitFor();
      await page.close();
    } finally {
      await app.contract.invoke('settings:update', { bandwidthBytesPerSecond: null, chunkSizeBytes });
    }
  }, 90_000);

  it('says "Ready to watch" once a video dropped into a watched folder has converted, with a working watch link', async () => {
    // the folder the first test watches; the server converts with ffmpeg, the daemon checks 10 s after the upload
    const video = await makeTestVideo(app.scratch, 2);
    const page = await app.open();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
    await writeFile(join(app.scratch, 'watched', 'sunset.mp4'), video);

    const clip = row(page, 'sunset.mp4');
    await clip.getByText('Ready to watch', { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByRole('region', { name: 'Notifications' }).getByText('Ready to watch: sunset.mp4').waitFor();
    await clip.getByRole('button', { name: 'Copy watch link sunset.mp4' }).click();
    await page.getByText(/^Copied the watch link of sunset\.mp4: /).waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const files = JSON.parse((await app.server.api('/files')).body.toString()) as {
      data: { id: string; name: string }[];
    };
    const file = files.data.find((candidate) => candidate.name === 'sunset.mp4')!;
    expect(link).toBe(`${app.server.fileHost}/${file.id}/watch`);
    // the watch page plays the converted video
    const watch = await fetch(link);
    expect(watch.status).toBe(200);
    expect(await watch.text()).toContain('.m3u8');
    await page.close();
  });

  it('shows a disabled token as a clear banner while the queue keeps its items, which finish after signing in again', async () => {
    const page = await app.open();
    await rows(page).first().waitFor();
    // counted by the core: the list draws only the rows in sight, and a toast below it takes room
    const total = async () => {
      const list = await app.contract.invoke('uploads:list', { offset: 0, limit: 1 });
      return list.ok ? (list.value as { total: number }).total : -1;
    };
    const before = await total();
    app.server.admin(['token', 'disable'], { token: app.server.token });
    const paths = await writeClips(join(app.scratch, 'blocked'), ['kept-1.mp4', 'kept-2.mp4']);
    await app.contract.invoke('uploads:addPaths', { accountId: await accountId(app), paths });

    const banner = page.getByRole('alert').filter({ hasText: 'This token has been disabled.' });
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.textContent()).toContain('nothing is lost');
    // a refused token needs the person: said once, as a notification too; dismissed, it gives the list its room back
    const said = page
      .getByRole('region', { name: 'Notifications' })
      .locator('.toast')
      .filter({ hasText: /Uploads to .+ are paused/ });
    await said.waitFor();
    await said.getByRole('button', { name: 'Dismiss' }).click();
    await said.waitFor({ state: 'detached' });
    await expect.poll(total, { timeout: 5_000 }).toBe(before + 2);
    for (const name of ['kept-1.mp4', 'kept-2.mp4']) {
      await row(page, name).getByText('Queued', { exact: true }).waitFor();
    }

    app.server.admin(['token', 'enable'], { token: app.server.token });
    await banner.getByRole('button', { name: 'Sign in with a new token' }).click();
    await page.getByLabel('API token').fill(app.server.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await banner.waitFor({ state: 'detached' });
    for (const name of ['kept-1.mp4', 'kept-2.mp4']) {
      await row(page, name).getByText('Done', { exact: true }).waitFor({ timeout: 20_000 });
    }
    expect(await total()).toBe(before + 2);
    await page.close();
  });

  it("merges a failure said again into one toast, ×3, at the window's foot: every button of the view stays reachable", async () => {
    const page = await app.open();
    // rows down to the window's foot, their buttons at its right edge, where toasts used to stack
    const names = Array.from({ length: 8 }, (_, i) => `toasted-${i}.mp4`);
    const paths = await writeClips(join(app.scratch, 'toasted'), names);
    await app.contract.invoke('uploads:addPaths', { accountId: await accountId(app), paths });
    // done, so that no row moves meanwhile; the list shows the earlier tests' rows first
    await expect
      .poll(
        async () => {
          const list = await app.contract.invoke('uploads:list', { offset: 0, limit: 100 });
          const items = list.ok ? (list.value as { items: UploadItemView[] }).items : [];
          return items.filter((item) => names.includes(item.fileName) && item.state.kind === 'done').length;
        },
        { timeout: 30_000 },
      )
      .toBe(names.length);
    const refused = 'media-sync://import?url=ftp%3A%2F%2Fmedia.example.com%2Fa.mp4';
    for (let i = 0; i < 3; i++) expect((await app.contract.invoke('app:openLink', { link: refused })).ok).toBe(true);
    const toasts = page.getByRole('region', { name: 'Notifications' });
    await toasts.getByText('×3').waitFor();
    expect(await toasts.getByText('This link was not opened').count()).toBe(1);

    // each button in sight is what a click on its middle reaches, not a toast over it
    const covered = await page.evaluate(() =>
      [...document.querySelectorAll('main button')].flatMap((button) => {
        const box = button.getBoundingClientRect();
        const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
        const within = (r: DOMRect) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
        if (box.width === 0 || y < 0 || y > innerHeight) return [];
        // scrolled out of a list's or the view's sight: not a button a person sees
        for (let up = button.parentElement; up; up = up.parentElement) {
          if (getComputedStyle(up).overflowY !== 'visible' && !within(up.getBoundingClientRect())) return [];
        }
        return button.contains(document.elementFromPoint(x, y))
          ? []
          : [button.getAttribute('aria-label') ?? button.textContent];
      }),
    );
    expect(covered).toEqual([]);
    expect(await page.locator('main button').count()).toBeGreaterThan(10);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'queue-toasts');
    const merged = toasts.locator('.toast').filter({ hasText: '×3' });
    await merged.getByRole('button', { name: 'Dismiss' }).click();
    await merged.waitFor({ state: 'detached' });
    await page.close();
  });
});

describe('the queue under a tight rate limit', () => {
  let app: AppHarness;

  beforeAll(async () => {
    app = await startApp({ signIn: true, server: { rateLimit: 3, rateWindowMs: 20_000 } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows a 429 as a countdown that ticks, and the file waiting for it', async () => {
    const page = await app.open();
    await page.getByText('Nothing to upload yet').waitFor();
    // the same token from the same address: the app's next request meets the limit
    for (let i = 0; i < 10; i++) if ((await app.server.api('/account')).status === 429) break;
    const [path] = await writeClips(join(app.scratch, 'limited'), ['limited.mp4']);
    await app.contract.invoke('uploads:addPaths', { accountId: await accountId(app), paths: [path] });

    const countdown = page.getByText(/^Waiting \d+ s \(rate limited\)$/);
    await countdown.waitFor({ timeout: 10_000 });
    const seconds = async () => Number(/Waiting (\d+) s/.exec((await countdown.textContent()) ?? '')?.[1]);
    const first = await seconds();
    expect(first).toBeGreaterThan(2);
    await expect.poll(seconds, { timeout: 4_000 }).toBeLessThan(first);
    await row(page, 'limited.mp4').getByText('Waiting: the server asked to slow down').waitFor();
    await page.close();
  });
});
