import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../src-main/core/engine.js';
import { startReferenceServer } from '../src-server/server.js';
import type { UploadState } from '../src-shared/model/upload-state.js';
import type { Browser, Page } from 'playwright-core';
import { buildUi, firstViewScript } from '../scripts/build-ui.js';
import { launchChromium } from '../test/helpers/browser.js';
import { daemonAddress, round, roundedSpread, serveArgs } from './bench-support.js';
import { spread } from './interleave.js';
import { feedProgress, startFloorPage, startSocketProxy, type FeedTarget } from './progress-feed.js';
import {
  installPageProbe,
  mainThreadMsAfterMarks,
  PAGE_HELPERS,
  PROGRESS_MARK,
  quantile,
  readBreakdown,
  TRACE_CATEGORIES,
  type WindowWork,
} from './page-timeline.js';

/**
 * (e) The Queue view with 10,000 items in Chromium, through the real daemon
 * (`media-sync serve`) and the built UI: the time from navigation to the first
 * rows on screen, the frame times while the list scrolls continuously (one
 * screenful per frame, the worst case for a virtual list) as uploads' progress
 * comes at 10 Hz, beside the same scroll of a bare page holding the same
 * 10,000 rows as static HTML, in SCROLL_ROUNDS rounds interleaved
 * (`scroll_p95_vs_bare`: the app's p95 ÷ the bare page's, per round), the time a jump to
 * the end takes to show the last rows (their page is fetched then), and the
 * main-thread work of each progress batch at 10 Hz while the list is shown:
 * the main thread's CPU time in the tasks of each batch's 100 ms (what the
 * target is on; `_wall_` beside it also counts time the thread waited for a
 * core, which on a busy 2-core machine is most of it), the speed's 1 s tick
 * included when it falls in a window, and the same windows with no batch
 * (`progress_idle_*`); of that CPU, the app's own JavaScript (its bundle's
 * handlers and the microtasks after them: `progress_app_js_*`); beside them
 * the floor, the same windows for the same changes on screen in a bare page
 * with no app (`progress_floor_*`), and how far the app's p95 is above it
 * (`progress_over_floor_ms_p95`). The same figures apart for the windows of a
 * batch alone (no layout: the bars move by their transforms) and for those
 * in which words were drawn again as well (a row's bytes, speed and time
 * left, or the queue's speed, once a second each: a layout), since any
 * words said once a second land in a tenth or more of the windows and so
 * set the p95 (`progress_batch_only`, `progress_with_words`). The
 * queue is seeded straight into the daemon's database and paused, so nothing
 * uploads while it is measured.
 *
 * The first rows are timed inside the page, from navigation to the end of
 * the first frame that shows the app's first row, over LOADS loads (median, min, max), each
 * in a fresh browser context (nothing cached) once its window is idle (WINDOW_SETTLE_MS; apart, in a
 * window made just before: `first_rows_new_window_ms`), and again when that page is
 * reloaded (its hashed assets cached, as when the UI is opened again);
 * `first_rows_wall_ms` is the same from the bench's side, through Playwright.
 *
 * `breakdown` says where the time to the first rows goes, from the page's own
 * timeline (ms since navigation): the HTML, the script and style sheet, the
 * socket, each command the page sent before the first rows (sent, answered,
 * answer size), the commit that put the first rows in the DOM and the frame
 * that painted them, and the long tasks meanwhile.
 */
const ITEMS = Number(process.env['BENCH_ITEMS'] ?? 10_000);
/** page loads measured, each in a fresh browser context, then reloaded once in it */
const LOADS = Number(process.env['BENCH_LOADS'] ?? 9);
const SCROLL_FRAMES = 240;
/** scrolls of the app and of the bare page, interleaved */
const SCROLL_ROUNDS = Number(process.env['BENCH_SCROLL_ROUNDS'] ?? 3);
/**
 * progress batches at 10 Hz for 10 s, each moving the first rows that are queued (3, the default
 * concurrency): 100 windows, so that the p95 is not the run's one or two slowest
 */
const PROGRESS_BATCHES = 100;
/**
 * A new browser window starts its own pages beside the page (full Chromium's omnibox popup: ~50 ms
 * more to the first rows, ~170 ms to the app's on these 2 cores). The Queue opens in a window that
 * exists already (the browser a person has open; Electron's window has no omnibox), so each load
 * waits this long in its new, empty window first; `first_rows_new_window_ms` is without the wait.
 */
const WINDOW_SETTLE_MS = 1_000;
const PROGRESS_INTERVAL_MS = 100;
const PROGRESS_ITEMS = 3;
const TRACE_DIR = process.env['BENCH_TRACE_DIR'];
/** the JavaScript samples a kept trace has too; they slow the page, so a traced run's figures are not the run's */
const JS_SAMPLES = ['disabled-by-default-v8.cpu_profiler'];
/** The app's bundle as the daemon serves it: its JavaScript apart from the bench's probe. */
const APP_SCRIPT_URL = /\/assets\/[^/]+\.js$/;

const scratch = await mkdtemp(join(tmpdir(), 'bench-queue-render-'));
const dataDir = join(scratch, 'app-data');
const uiDir = join(scratch, 'ui');
const server = await startReferenceServer({
  host: '127.0.0.1',
  port: 0,
  dataDir: join(scratch, 'server'),
  logLevel: false,
  rateLimit: 10_000,
});
let daemon: ChildProcess | undefined;
let proxy: FeedTarget | undefined;
try {
  await buildUi(uiDir);
  const script = await firstViewScript(uiDir);
  const progressIds = await seedQueue();
  daemon = spawn(process.execPath, serveArgs(dataDir, '--ui-dir', uiDir), {
    env: { ...process.env, MEDIA_SYNC_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await daemonAddress(daemon);
  const browser = await launchChromium();
  try {
    // each load in a browser context of its own (nothing cached), then opened again in it (its assets cached)
    const loads: Load[] = [];
    let page!: Page;
    for (let load = 0; load < LOADS; load++) {
      if (page) await page.context().close();
      // interleaved: the same load in a window made just before it
      const fresh = await newWindow(browser);
      const inNewWindow = await firstRows(fresh, () => fresh.goto(url));
      await fresh.context().close();
      page = await newWindow(browser);
      await new Promise((settled) => setTimeout(settled, WINDOW_SETTLE_MS));
      loads.push({
        newWindow: inNewWindow,
        cold: await firstRows(page, async () => {
          // the last load's trace is kept: where the time to the first rows goes on the main thread
          const traced = TRACE_DIR !== undefined && load === LOADS - 1;
          if (traced) await browser.startTracing(page, { categories: [...TRACE_CATEGORIES, ...JS_SAMPLES] });
          await page.goto(url);
          if (traced) await writeFile(join(TRACE_DIR, 'queue-load.json'), await browser.stopTracing());
        }),
        reopened: await firstRows(page, () => page.reload()),
      });
    }
    await page.context().close();
    // from here the page's socket passes through a proxy, so that progress batches reach it as the daemon's do
    const proxied = await startSocketProxy(url);
    proxy = proxied;
    const { pathname, search } = new URL(url);
    page = await newWindow(browser);
    await firstRows(page, () => page.goto(`${proxied.origin}${pathname}${search}`));
    const rows = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem');
    const renderedRows = await rows.count();
    const inPage = (which: 'cold' | 'reopened' | 'newWindow') => spread(loads.map((load) => load[which].frameMs));
    const median = inPage('cold').median;
    const breakdown = loads.find((load) => load.cold.frameMs === median)?.cold.breakdown;

    // one screenful per frame while uploads' progress comes at 10 Hz, in rounds interleaved with the
    // bare page of 10,000 static rows scrolled the same way, its batches on its own socket
    const floorPages = await startFloorPage();
    const bareRows = await openBarePage(browser, `${floorPages.url}rows`);
    const appFrames: number[][] = [];
    const bareFrames: number[][] = [];
    try {
      for (let round = 0; round < SCROLL_ROUNDS; round++) {
        const traced = TRACE_DIR !== undefined && round === 0;
        if (traced) await browser.startTracing(page, { categories: [...TRACE_CATEGORIES, ...JS_SAMPLES] });
        appFrames.push(await scrollFrames(page, proxied, progressIds));
        if (traced) await writeFile(join(TRACE_DIR, 'queue-scroll.json'), await browser.stopTracing());
        bareFrames.push(await scrollFrames(bareRows, floorPages, progressIds));
      }
    } finally {
      await bareRows.context().close();
      await floorPages.close();
    }
    const frames = appFrames.flat();
    const bareAll = bareFrames.flat();
    const p95 = (list: number[]) => quantile(list, 0.95);

    const jumpStarted = performance.now();
    await page.evaluate(() => {
      const box = document.querySelector<HTMLElement>('.virtual-list')!;
      box.scrollTop = box.scrollHeight;
    });
    const lastName = `clip-${String(ITEMS - 1).padStart(5, '0')}.mp4`;
    await rows.filter({ hasText: lastName }).waitFor({ timeout: 30_000 });
    const jumpToEndMs = performance.now() - jumpStarted;

    // back to the top, where the batches' items are on screen, then 10 Hz of progress under a trace
    await page.evaluate(() => {
      document.querySelector<HTMLElement>('.virtual-list')!.scrollTop = 0;
    });
    await rows.first().getByText('clip-00000.mp4').waitFor({ timeout: 30_000 });
    const traceProgress = async (send: boolean) => {
      const categories = TRACE_DIR ? [...TRACE_CATEGORIES, ...JS_SAMPLES] : TRACE_CATEGORIES;
      await browser.startTracing(page, { categories });
      await feedProgress(proxied, {
        ids: progressIds,
        batches: PROGRESS_BATCHES,
        intervalMs: PROGRESS_INTERVAL_MS,
        ticks: !send,
      });
      const trace = (await browser.stopTracing()).toString('utf8');
      // BENCH_TRACE_DIR keeps the traces, to see where a batch's time goes (Perfetto, DevTools)
      if (TRACE_DIR) await writeFile(join(TRACE_DIR, `queue-progress-${send ? 'batches' : 'idle'}.json`), trace);
      return mainThreadMsAfterMarks(JSON.parse(trace), {
        mark: PROGRESS_MARK,
        windowMs: PROGRESS_INTERVAL_MS,
        scriptUrl: APP_SCRIPT_URL,
      });
    };
    // the same windows with a message the app ignores first: what the main thread does anyway (a timer's
    // tick, a message's arrival, the trace)
    const idle = await traceProgress(false);
    const progress = await traceProgress(true);
    const floor = await bareFloor(browser, progressIds);

    const sorted = [...frames].sort((a, b) => a - b);
    const at = (q: number) => quantile(frames, q);
    console.log(
      JSON.stringify({
        bench: 'queue-render',
        items: ITEMS,
        loads: LOADS,
        main_chunk_kb: round(script.mainChunk / 1000, 1),
        first_view_script_kb: round(script.withPreloads / 1000, 1),
        first_rows_ms: roundedSpread(inPage('cold'), 0),
        first_rows_reopened_ms: roundedSpread(inPage('reopened'), 0),
        first_rows_wall_ms: roundedSpread(spread(loads.map((load) => load.cold.wallMs)), 0),
        first_rows_new_window_ms: roundedSpread(inPage('newWindow'), 0),
        rendered_rows: renderedRows,
        scroll_frames: frames.length,
        frame_ms_p50: round(at(0.5), 1),
        frame_ms_p95: round(at(0.95), 1),
        frame_ms_max: round(sorted.at(-1)!, 1),
        bare_frame_ms_p95: round(p95(bareAll), 1),
        scroll_p95_vs_bare: roundedSpread(
          spread(appFrames.map((list, index) => p95(list) / p95(bareFrames[index]!))),
          2,
        ),
        frames_over_50ms: frames.filter((ms) => ms > 50).length,
        jump_to_end_ms: round(jumpToEndMs, 0),
        progress_updates: progress.threadMs.length,
        progress_update_ms_p50: round(quantile(progress.threadMs, 0.5), 2),
        progress_update_ms_p95: round(quantile(progress.threadMs, 0.95), 2),
        progress_update_ms_max: round(Math.max(...progress.threadMs), 2),
        progress_update_wall_ms_p50: round(quantile(progress.wallMs, 0.5), 2),
        progress_update_wall_ms_p95: round(quantile(progress.wallMs, 0.95), 2),
        progress_app_js_ms_p50: round(quantile(progress.scriptMs, 0.5), 2),
        progress_app_js_ms_p95: round(quantile(progress.scriptMs, 0.95), 2),
        progress_idle_ms_p50: round(quantile(idle.threadMs, 0.5), 2),
        progress_idle_ms_p95: round(quantile(idle.threadMs, 0.95), 2),
        progress_floor_ms_p50: round(quantile(floor, 0.5), 2),
        progress_floor_ms_p95: round(quantile(floor, 0.95), 2),
        progress_over_floor_ms_p95: round(quantile(progress.threadMs, 0.95) - quantile(floor, 0.95), 2),
        ...byWords(progress, floor),
        breakdown,
      }),
    );
  } finally {
    await browser.close();
  }
} finally {
  if (daemon && daemon.exitCode === null) {
    daemon.kill('SIGTERM');
    await once(daemon, 'exit');
  }
  await proxy?.close();
  await server.close();
  await rm(scratch, { recursive: true, force: true });
}

/**
 * 10,000 items of one signed-in account, straight into the store, in a paused
 * queue: mostly queued, some done or failed. Answers the ids of the first
 * queued items, which the progress batches move.
 */
async function seedQueue(): Promise<number[]> {
  const queued: number[] = [];
  const engine = await Engine.open({ dataDir });
  try {
    const { account } = await engine.signIn(server.baseUrl, server.demoToken!);
    await engine.queue.pauseAll(null);
    const failed: UploadState = {
      kind: 'failed',
      reason: { message: 'The server refused the file.', code: 'VALIDATION_ERROR', requestId: 'req-bench' },
    };
    engine.db.transaction(() => {
      for (let i = 0; i < ITEMS; i++) {
        const name = `clip-${String(i).padStart(5, '0')}.mp4`;
        const item = engine.uploads.insert({
          accountId: account.id,
          path: join(scratch, 'videos', name),
          fileName: name,
          identity: { size: 1_000_000 + i, mtimeMs: 1, fingerprint: `f${i}` },
          visibility: null,
          metadata: {},
          folderId: null,
          chunkSize: 90_000_000,
        });
        if (i % 7 === 0)
          engine.uploads.saveState(item.id, { kind: 'done', fileId: `file${i}`, finishedAt: Date.now() });
        else if (i % 13 === 0) engine.uploads.saveState(item.id, failed);
        else if (queued.length < PROGRESS_ITEMS) queued.push(item.id);
      }
    })();
    return queued;
  } finally {
    await engine.close();
  }
}

interface FirstRows {
  /** navigation → the end of the first frame with the first row, in the page's own clock */
  frameMs: number;
  /** the same from here: Playwright's round trips included */
  wallMs: number;
  breakdown: Awaited<ReturnType<typeof readBreakdown>>;
}
interface Load {
  /** in a window that was open and idle */
  cold: FirstRows;
  reopened: FirstRows;
  /** in a window made just before */
  newWindow: FirstRows;
}

/** A page in a browser context of its own (nothing cached: a new window), with the probes. */
async function newWindow(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(PAGE_HELPERS);
  await page.addInitScript(installPageProbe);
  return page;
}

/**
 * The floor: the main thread's CPU in the same windows for the same changes
 * on screen (three bars and three rows' words each batch, the speed each
 * second) in a bare page with no app, in the same browser, its
 * batches coming on a socket as the app's do.
 */
async function bareFloor(browser: Browser, ids: readonly number[]): Promise<number[]> {
  const floor = await startFloorPage();
  const page = await openBarePage(browser, floor.url);
  try {
    await new Promise((settled) => setTimeout(settled, WINDOW_SETTLE_MS));
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await feedProgress(floor, { ids, batches: PROGRESS_BATCHES, intervalMs: PROGRESS_INTERVAL_MS });
    const text = (await browser.stopTracing()).toString('utf8');
    if (TRACE_DIR) await writeFile(join(TRACE_DIR, 'queue-progress-bare.json'), text);
    return mainThreadMsAfterMarks(JSON.parse(text), { mark: PROGRESS_MARK, windowMs: PROGRESS_INTERVAL_MS }).threadMs;
  } finally {
    await page.context().close();
    await floor.close();
  }
}

/** A floor page in a browser context of its own, once its socket is open. */
async function openBarePage(browser: Browser, url: string): Promise<Page> {
  const page = await browser
    .newContext({ viewport: { width: 1200, height: 800 } })
    .then((context) => context.newPage());
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __open?: boolean }).__open === true);
  return page;
}

async function firstRows(page: Page, navigate: () => Promise<unknown>): Promise<FirstRows> {
  const started = performance.now();
  await navigate();
  await page
    .getByRole('list', { name: 'Uploads' })
    .getByRole('listitem')
    .first()
    .getByText('clip-00000.mp4')
    .waitFor({ timeout: 30_000 });
  const wallMs = performance.now() - started;
  await page.waitForFunction(
    () => (window as unknown as { __probe: { firstRowFrame: number | null } }).__probe.firstRowFrame !== null,
  );
  const breakdown = await page.evaluate(readBreakdown);
  if (breakdown.first_row_frame === null) throw new Error('the page recorded no frame with the first rows');
  return { frameMs: breakdown.first_row_frame, wallMs, breakdown };
}

/**
 * SCROLL_FRAMES frames from the top of the page's `.virtual-list`, one
 * screenful each, measured inside the page with requestAnimationFrame, while
 * progress batches come at 10 Hz on `feed`: each frame's ms.
 */
async function scrollFrames(page: Page, feed: FeedTarget, ids: readonly number[]): Promise<number[]> {
  // a frame is 1/60 s at best: batches for as long as the scrolling can take
  const progress = feedProgress(feed, { ids, batches: Math.ceil(SCROLL_FRAMES / 4), intervalMs: PROGRESS_INTERVAL_MS });
  const frames = await page.evaluate(async (count) => {
    const box = document.querySelector<HTMLElement>('.virtual-list')!;
    box.scrollTop = 0;
    for (let settle = 0; settle < 2; settle++) await new Promise((next) => requestAnimationFrame(next));
    const deltas: number[] = [];
    let last = performance.now();
    for (let i = 0; i < count; i++) {
      box.scrollTop += box.clientHeight;
      await new Promise((next) => requestAnimationFrame(next));
      const now = performance.now();
      deltas.push(now - last);
      last = now;
    }
    return deltas;
  }, SCROLL_FRAMES);
  await progress;
  return frames;
}

/**
 * The progress figures of the windows of a batch alone and of those in which words were drawn again too,
 * apart: how many, the app's JavaScript p95 and the main thread's p95 above the bare page's.
 */
function byWords(progress: WindowWork, floor: number[]) {
  const figures = (words: boolean) => {
    const picked = (values: number[]) => values.filter((_, index) => progress.laidOut[index] === words);
    const thread = picked(progress.threadMs);
    if (thread.length === 0) return { windows: 0 };
    return {
      windows: thread.length,
      app_js_ms_p95: round(quantile(picked(progress.scriptMs), 0.95), 2),
      over_floor_ms_p95: round(quantile(thread, 0.95) - quantile(floor, 0.95), 2),
    };
  };
  return { progress_batch_only: figures(false), progress_with_words: figures(true) };
}
