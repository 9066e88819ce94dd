import { AxeBuilder } from '@axe-core/playwright';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect, inject, onTestFailed } from 'vitest';
import type { ServerOptionsInput } from '../../src-server/options.js';
import { launchChromium } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { NO_SESSION_BUS, NO_SYSTEM_BUS } from '../helpers/private-dbus.js';
import { mountTmpfs, unmount } from '../helpers/tmpfs.js';
import { connectToPrinted, type WsContractClient } from '../helpers/ws-client.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');

export interface AppHarness {
  /** the reference server the app talks to */
  server: TestServer;
  /** the daemon's address, with the session key */
  url: string;
  /** the daemon's data folder */
  dataDir: string;
  /** a scratch folder for watched folders and files */
  scratch: string;
  /** the contract over the daemon's socket, for set-up and checks a person would not do by hand */
  contract: WsContractClient;
  /** the daemon's output so far (checked for tokens) */
  output(): string;
  /**
   * Stops the daemon as Ctrl+C does and starts it again on the same data
   * folder and port, `args` added to its command line (`--new-key`); `whileStopped`
   * runs in between. Answers the address it printed; `contract` is its socket then.
   */
  restart(options?: { args?: string[]; whileStopped?: () => Promise<void> }): Promise<string>;
  /**
   * a fresh page with the app loaded, in the given colour scheme; `beforeLoad` sees the page before it
   * navigates; `locale` is the browser's language (navigator.languages, Accept-Language), en-US unless given
   */
  open(colorScheme?: 'light' | 'dark', beforeLoad?: (page: Page) => unknown, locale?: string): Promise<Page>;
  close(): Promise<void>;
}

/**
 * The app as a person runs it: `media-sync serve` as its own process (the
 * real daemon, SQLite and watcher) against the reference server on port 0,
 * driven in Debian's Chromium. `signIn` signs the daemon in to the
 * reference server first; without it the page opens on the sign-in form.
 * `env` adds to the daemon's environment (a HOME of the test's own, say);
 * `dataDiskMb` puts its data folder on a tmpfs of that size (as root).
 */
export async function startApp(
  options: {
    signIn?: boolean;
    server?: Partial<ServerOptionsInput>;
    env?: Record<string, string>;
    dataDiskMb?: number;
  } = {},
): Promise<AppHarness> {
  const scratch = await mkdtemp(join(tmpdir(), 'media-sync-e2e-'));
  const dataDir = join(scratch, 'app-data');
  await mkdir(dataDir);
  if (options.dataDiskMb) await mountTmpfs(dataDir, options.dataDiskMb);
  const server = await startTestServer({ rateLimit: 1000, ...options.server });
  let output = '';
  const startDaemon = (port: string, args: string[] = []) => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'bin/media-sync.js'),
        'serve',
        '--port',
        port,
        '--data-dir',
        dataDir,
        '--no-demo',
        '--ui-dir',
        inject('uiDir'),
        ...args,
      ],
      {
        // no system bus: the machine's NetworkManager and logind stay out of the tests
        env: {
          ...process.env,
          MEDIA_SYNC_TOKEN: '',
          DBUS_SYSTEM_BUS_ADDRESS: NO_SYSTEM_BUS,
          DBUS_SESSION_BUS_ADDRESS: NO_SESSION_BUS,
          ...options.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return child;
  };
  let daemon = startDaemon('0');
  let url = await waitForUrl(daemon, () => output);
  let contract = await connectToPrinted(url);
  if (options.signIn) {
    const result = await contract.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    if (!result.ok) throw new Error(`sign-in failed: ${JSON.stringify(result)}`);
  }
  const browser: Browser = await launchChromium();
  return {
    server,
    get url() {
      return url;
    },
    dataDir,
    scratch,
    get contract() {
      return contract;
    },
    output: () => output,
    async restart({ args = [], whileStopped } = {}) {
      contract.close();
      await stop(daemon, 'SIGINT');
      await whileStopped?.();
      // only what this start prints: the address of the last one is in the output too
      const printed = output.length;
      daemon = startDaemon(new URL(url).port, args);
      url = await waitForUrl(daemon, () => output.slice(printed));
      contract = await connectToPrinted(url);
      return url;
    },
    async open(colorScheme = 'light', beforeLoad, locale = 'en-US') {
      // axe needs a page of a context made with newContext()
      const context = await browser.newContext({
        colorScheme,
        viewport: { width: 1200, height: 800 },
        locale,
      });
      const page = await context.newPage();
      await beforeLoad?.(page);
      // the browser may be closing already (afterAll right after page.close()): nothing left to close then
      page.once('close', () => void context.close().catch(() => undefined));
      reportIfFailed(page);
      await page.goto(url);
      return page;
    },
    async close() {
      contract.close();
      await browser.close();
      await stop(daemon);
      await server.close();
      if (options.dataDiskMb) await unmount(dataDir);
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * When the test that opened `page` fails, prints what the page showed and the errors it logged: a CI log
 * then says which screen a locator waited on (all a failed run leaves behind). The address loses its key.
 */
function reportIfFailed(page: Page): void {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  onTestFailed(async () => {
    if (page.isClosed()) return;
    const text = await page
      .locator('body')
      .innerText({ timeout: 2_000 })
      .catch((error: unknown) => `(unreadable: ${(error as Error).message})`);
    const address = page.url().replace(/([?&]key=)[^&#]+/, '$1…');
    console.error(
      [`The page at ${address} showed:`, text.slice(0, 2_000), ...errors.slice(-10)]
        .join('\n')
        .replace(/\n{3,}/g, '\n\n'),
    );
  });
}

async function waitForUrl(daemon: ChildProcess, output: () => string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const match = /running at (http:\/\/127\.0\.0\.1:\d+\/\?key=[\w-]+)/.exec(output());
    if (match) return match[1]!;
    if (daemon.exitCode !== null) throw new Error(`media-sync serve exited: ${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`media-sync serve printed no address in 30 s: ${output()}`);
}

async function stop(daemon: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (daemon.exitCode !== null) return;
  const exited = new Promise((r) => daemon.once('exit', r));
  daemon.kill(signal);
  const timer = setTimeout(() => daemon.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Writes the page as `<name>-<scheme>.png` under test-results/screenshots,
 * the whole view: it scrolls in a region of its own, so the window is made
 * as tall as it needs meanwhile.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const viewport = page.viewportSize()!;
  const hidden = await page.evaluate(() => {
    const view = document.querySelector('.app__main, .first-run');
    return view ? view.scrollHeight - view.clientHeight : 0;
  });
  await page.setViewportSize({ ...viewport, height: viewport.height + hidden });
  try {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${scheme}.png`) });
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(viewport);
  }
}

/** axe-core's WCAG 2 A/AA checks on the page as it is, in both colour schemes; returns readable violations. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const result = await new AxeBuilder({ page: page as never })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    for (const violation of result.violations) {
      found.push(
        `${scheme}: ${violation.id}: ${violation.help} (${violation.nodes.map((n) => n.target.join(' ')).join(', ')})`,
      );
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** The value next to a term of a description list. */
export async function fact(page: Page, term: string): Promise<string | null> {
  return page
    .locator('dt', { hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::dd[1]')
    .first()
    .textContent();
}

/**
 * Adds `path` as a watched folder the way a person does in a browser: Folders,
 * "Add a folder", the folder browser's Go to, Choose this folder, then the
 * options (`options` sets them) and Add folder.
 */
export async function addFolderInPage(
  page: Page,
  path: string,
  options?: (form: Locator) => Promise<void>,
): Promise<void> {
  const form = await chooseFolderInPage(page, path);
  await options?.(form);
  await form.getByRole('button', { name: 'Add folder' }).click();
  await page.getByText(`Now watching ${path}.`).waitFor();
}

/** The first steps of `addFolderInPage`, up to the form of the chosen folder's options: that form. */
export async function chooseFolderInPage(page: Page, path: string): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Folders' }).click();
  await page.getByRole('heading', { name: 'Folders', level: 1 }).waitFor();
  await page.getByRole('button', { name: /^Add a folder/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a folder to watch' });
  // typed once the first folder shows, as a person would: a listing landing inside fill() (between its select-all
  // and its typing) put the home folder before the typed path
  await dialog
    .getByRole('status')
    .getByText(/^“.+” has/)
    .waitFor();
  await dialog.getByLabel('Go to').fill(path);
  await dialog.getByLabel('Go to').press('Enter');
  await dialog.getByRole('status').getByText(`“${path}” has`).waitFor();
  await dialog.getByRole('button', { name: 'Choose this folder' }).click();
  const form = page.getByRole('form', { name: 'Watch this folder' });
  expect(await form.getByLabel('Folder path').inputValue()).toBe(path);
  return form;
}

/** A watched folder's card in the Folders view, found by its path. */
export function folderCard(page: Page, path: string) {
  return page.getByRole('article', { name: path, exact: true });
}
