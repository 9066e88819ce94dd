import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { tempDir } from '../helpers/engine-fixture.js';
import { waitFor } from '../helpers/local-http-server.js';
import { stopWith } from '../helpers/saved-queue.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** The queue's row of a file, in a page of the app. */
const row = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: name });

/**
 * Two `media-sync serve` on two ports of 127.0.0.1, in one browser: each
 * page keeps its own daemon's key in its origin's storage (the origin
 * includes the port), so neither overwrites the other's, and a third port
 * (whoever listens there) gets neither key from the browser.
 */
describe('two daemons in one browser', () => {
  let scratch: Awaited<ReturnType<typeof tempDir>>;
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  const daemons: ServeProcess[] = [];
  let listener: Server;
  const heard: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    scratch = await tempDir('media-sync-two-daemons-');
    server = await startTestServer({ rateLimit: 1000 });
    // the first is opened as `serve --open` opens it: the opener gets a file, and writes down what it got
    const bin = join(scratch.path, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${join(scratch.path, 'opened')}'\n`, {
      mode: 0o755,
    });
    for (const [name, extra] of [
      ['first', ['--open']],
      ['second', []],
    ] as const) {
      const args = ['--port', '0', '--no-demo', '--ui-dir', inject('uiDir'), '--data-dir', join(scratch.path, name)];
      const daemon = await startServe([...args, ...extra], { PATH: `${bin}:${process.env['PATH']}` });
      daemons.push(daemon);
      const contract = await daemon.contract();
      const signedIn = await contract.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
      contract.close();
      if (!signedIn.ok) throw new Error(`sign-in failed: ${JSON.stringify(signedIn)}`);
    }
    // a program of another local user on a third port, where the page of a link or a redirect may send the browser
    listener = createServer((request, response) => {
      heard.push(request.headers);
      response.end('hello');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all(daemons.map(({ child }) => stopWith(child, 'SIGTERM')));
    await new Promise((resolve) => listener?.close(resolve));
    await server?.close();
    await scratch?.remove();
  });

  /** Adds a file to the daemon's queue (uploads are paused, so it stays there) and waits for its row in `page`. */
  async function seeLive(daemon: ServeProcess, page: Page, name: string): Promise<void> {
    const contract = await daemon.contract();
    try {
      const accounts = (await contract.invoke('account:list')) as { ok: true; value: { id: string }[] };
      const path = join(scratch.path, name);
      await writeFile(path, `the bytes of ${name}`);
      await contract.invoke('uploads:pauseAll', {});
      await contract.invoke('uploads:addPaths', { accountId: accounts.value[0]!.id, paths: [path] });
    } finally {
      contract.close();
    }
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Queue' }).click();
    await row(page, name).waitFor({ timeout: 15_000 });
  }

  it('keeps both tabs working, each with its own key, and gives no other port either key', async () => {
    const [first, second] = daemons as [ServeProcess, ServeProcess];
    const keys = daemons.map((daemon) => daemon.url.searchParams.get('key')!);

    // `--open`: the browser lands on the app from the forwarding page, and the key leaves the address bar
    const opened = await waitFor(
      () => readFile(join(scratch.path, 'opened'), 'utf8').catch(() => undefined),
      20_000,
      'the opened page',
    );
    expect(opened).toMatch(/^file:\/\//);
    const one = await context.newPage();
    await one.goto(opened);
    await one.waitForURL(`${first.url.origin}/`, { timeout: 15_000 });
    await one.getByRole('navigation', { name: 'Views' }).waitFor();

    const two = await context.newPage();
    await two.goto(second.url.href);
    await two.waitForURL(`${second.url.origin}/`);
    await two.getByRole('navigation', { name: 'Views' }).waitFor();

    // the first tab still hears its daemon after the second opened, and still gets in after a reload
    await seeLive(first, one, 'first.mp4');
    await one.reload();
    await seeLive(first, one, 'first-again.mp4');
    await seeLive(second, two, 'second.mp4');
    await two.reload();
    await seeLive(second, two, 'second-again.mp4');
    for (const page of [one, two]) {
      expect(await page.getByRole('alert').filter({ hasText: 'Media Sync' }).count()).toBe(0);
    }

    // each origin keeps its own key; the browser holds no cookie to send to other ports
    expect(await one.evaluate(() => Object.values(localStorage))).toContain(keys[0]);
    expect(await one.evaluate(() => Object.values(localStorage))).not.toContain(keys[1]);
    expect(await two.evaluate(() => Object.values(localStorage))).toContain(keys[1]);
    expect(await context.cookies()).toEqual([]);

    // what a page of a third port receives from this browser carries neither key
    const third = await context.newPage();
    await third.goto(`http://127.0.0.1:${(listener.address() as { port: number }).port}/favicon.ico`);
    expect(heard.length).toBeGreaterThan(0);
    for (const key of keys) expect(JSON.stringify(heard)).not.toContain(key);
  });
});
