import { spawn } from 'node:child_process';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { buildCli } from '../scripts/build-cli.js';
import { buildUi } from '../scripts/build-ui.js';
import { Engine } from '../src-main/core/engine.js';
import { launchChromium } from '../test/helpers/browser.js';
import {
  MEMORY_DIR,
  cpuSecondsOf,
  daemonAddress,
  filesArrived,
  filesOn,
  roundedSpread,
  serveArgs,
  startServerProcess,
} from './bench-support.js';
import { interleave, roundRatios, spread, type Sample } from './interleave.js';

/**
 * (h) The Queue open in Chromium while a watched folder's small files upload
 * through the real daemon (`media-sync serve`): what a shown page costs. In
 * rounds (interleave.ts), FILES new 8 KB files each time, with the Queue open
 * and with no page, against one reference server: the page's main-thread time
 * per file (Chromium's TaskDuration and ScriptDuration, from the page's first
 * new file to the last one's events), the socket messages it got per file, and
 * the daemon's CPU per file with the page and without it (every event is
 * built and sent only while a page is open). A page nobody shows (a desktop
 * window in the tray) gets no events (docs/desktop.md).
 */

const FILES = Number(process.env['BENCH_FILES'] ?? 300);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
/** the events of the last files still on their way when the server holds them all */
const TRAILING_MS = 500;

interface RunSample extends Sample {
  pageTaskMs: number;
  pageScriptMs: number;
  messages: number;
}

const root = join(MEMORY_DIR, `bench-queue-busy-${process.pid}`);
const source = join(root, 'source');
const watched = join(root, 'watched');
const dataDir = join(root, 'data');
const uiDir = join(root, 'ui');
await mkdir(source, { recursive: true });
await mkdir(watched, { recursive: true });
for (let i = 0; i < FILES; i++) {
  const bytes = Buffer.alloc(8 * 1024, i % 251);
  bytes.writeUInt32LE(i, 0);
  await writeFile(join(source, `photo-${String(i).padStart(4, '0')}.jpg`), bytes);
}
await buildCli();
await buildUi(uiDir);
const server = await startServerProcess(['--rate-limit', '100000000'], MEMORY_DIR);
const engine = await Engine.open({ dataDir });
try {
  const { account } = await engine.signIn(server.baseUrl, server.token);
  await engine.sync.addFolder(account.id, watched);
} finally {
  await engine.close();
}
const daemon = spawn(process.execPath, serveArgs(dataDir, '--ui-dir', uiDir), {
  env: { ...process.env, MEDIA_SYNC_TOKEN: '' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let browser: Browser | undefined;
try {
  const url = await daemonAddress(daemon);
  browser = await launchChromium();
  let runs = 0;
  let open: { page: Page; cdp: CDPSession; messages: () => number } | null = null;

  /** FILES new files into the watched folder; the daemon's CPU and wall time until the server holds them all */
  const upload = async (measure: () => Promise<{ task: number; script: number; messages: number }>) => {
    const before = await filesOn(server);
    const cpuBefore = await cpuSecondsOf(daemon.pid!);
    const pageBefore = await measure();
    await cp(source, join(watched, `run-${++runs}`), { recursive: true });
    const { seconds } = await filesArrived(server, before, FILES);
    await new Promise((settled) => setTimeout(settled, TRAILING_MS));
    const pageAfter = await measure();
    return {
      seconds,
      cpuSeconds: (await cpuSecondsOf(daemon.pid!)) - cpuBefore,
      pageTaskMs: (pageAfter.task - pageBefore.task) * 1000,
      pageScriptMs: (pageAfter.script - pageBefore.script) * 1000,
      messages: pageAfter.messages - pageBefore.messages,
    };
  };

  const samples = await interleave<RunSample>(
    [
      {
        name: 'page_open',
        run: async () => {
          open ??= await openQueue(browser!, url);
          const { cdp, messages } = open;
          return upload(async () => ({ ...(await pageMetrics(cdp)), messages: messages() }));
        },
      },
      {
        name: 'no_page',
        run: async () => {
          await open?.page.context().close();
          open = null;
          return upload(async () => ({ task: 0, script: 0, messages: 0 }));
        },
      },
    ],
    ROUNDS,
  );
  const withPage = samples.get('page_open')!;
  const perFile = (values: number[], digits: number) =>
    roundedSpread(spread(values.map((value) => value / FILES)), digits);
  const daemonMs = (name: string) => samples.get(name)!.map((sample) => (sample.cpuSeconds * 1000) / FILES);
  console.log(
    JSON.stringify({
      bench: 'queue-busy',
      files: FILES,
      rounds: ROUNDS,
      page_ms_per_file: perFile(
        withPage.map((sample) => sample.pageTaskMs),
        3,
      ),
      page_script_ms_per_file: perFile(
        withPage.map((sample) => sample.pageScriptMs),
        3,
      ),
      messages_per_file: perFile(
        withPage.map((sample) => sample.messages),
        1,
      ),
      daemon_cpu_ms_per_file_page_open: roundedSpread(spread(daemonMs('page_open')), 3),
      daemon_cpu_ms_per_file_no_page: roundedSpread(spread(daemonMs('no_page')), 3),
      daemon_page_open_vs_no_page: roundedSpread(roundRatios(daemonMs('page_open'), daemonMs('no_page')), 2),
    }),
  );
} finally {
  await browser?.close();
  daemon.kill('SIGTERM');
  if (daemon.exitCode === null) await new Promise((exited) => daemon.once('exit', exited));
  await server.stop();
  await rm(root, { recursive: true, force: true });
}

/** The Queue in a new window, once its first rows or its empty state show; its socket's messages counted. */
async function openQueue(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('Network.enable');
  let messages = 0;
  cdp.on('Network.webSocketFrameReceived', () => messages++);
  await page.goto(url);
  await page.locator('.queue__list, .queue__empty').first().waitFor({ timeout: 30_000 });
  // what the first view does after its rows (the socket's first reads, a font) is not a file's
  await new Promise((settled) => setTimeout(settled, 1_000));
  return { page, cdp, messages: () => messages };
}

/** The page's main thread so far, in seconds: all its tasks, and the JavaScript in them. */
async function pageMetrics(cdp: CDPSession): Promise<{ task: number; script: number }> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? 0;
  return { task: value('TaskDuration'), script: value('ScriptDuration') };
}
