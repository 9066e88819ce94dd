/**
 * What a folder checked by polling (a network share: docs/uploads.md) costs
 * while nothing changes, beside the same folder watched by change events
 * (inotify). Run with `npx tsx bench/polled-folder.ts`.
 *
 * 10,000 files in 10 folders. Each way, a FolderWatcher starts on the tree
 * and reports every file (a 200 ms settle window, not the 3 s default, so the
 * first walk is short); then the process's CPU time (user + system, every
 * thread: `process.cpuUsage`) is read over a window of wall time in which
 * nothing changes, as % of one core. The polled folder uses the app's default
 * interval (60 s), and the window (61 s) holds one poll: its average is what
 * a share costs all day. The polls in the window are counted by the clock the
 * watcher sleeps on. `POLLED_BENCH_WINDOW_MS` and `POLLED_BENCH_INTERVAL_MS`
 * shorten it for a try. Prints one JSON line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { systemClock, type Clock } from '../src-main/common/clock.js';
import { FolderWatcher } from '../src-main/sync/folder-watcher.js';
import { DEFAULT_POLL_INTERVAL_MS } from '../src-main/sync/sync-service.js';

const FOLDERS = 10;
const FILES_PER_FOLDER = 1_000;
const FILES = FOLDERS * FILES_PER_FOLDER;
const SETTLE_MS = 200;
const INTERVAL_MS = Number(process.env['POLLED_BENCH_INTERVAL_MS'] ?? DEFAULT_POLL_INTERVAL_MS);
const WINDOW_MS = Number(process.env['POLLED_BENCH_WINDOW_MS'] ?? INTERVAL_MS + 1_000);
const REPORT_TIMEOUT_MS = 120_000;

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Watches `root` one way, waits until every file is reported, then measures the CPU over the window. */
async function idleCost(root: string, pollMs: number | undefined) {
  let polls = 0;
  // counts the polls: each is a sleep of the interval that ran out
  const clock: Clock = {
    ...systemClock,
    sleep: (ms, signal) => systemClock.sleep(ms, signal).then(() => void (ms === pollMs && polls++)),
  };
  const watcher = new FolderWatcher({ root, includeSubfolders: true, settleMs: SETTLE_MS, pollMs, clock });
  const errors: string[] = [];
  watcher.onDidError((error) => errors.push(error.message));
  let reported = 0;
  let allReported!: () => void;
  const all = new Promise<void>((resolve) => (allReported = resolve));
  watcher.onDidFindFile(() => ++reported === FILES && allReported());
  try {
    await watcher.start();
    const timeout = setTimeout(allReported, REPORT_TIMEOUT_MS);
    await all;
    clearTimeout(timeout);
    if (reported < FILES) throw new Error(`only ${reported} of ${FILES} files reported`);
    global.gc?.();
    const pollsBefore = polls;
    const cpuBefore = process.cpuUsage();
    const startedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const cpu = process.cpuUsage(cpuBefore);
    const wallMs = performance.now() - startedAt;
    return {
      cpuPct: round(((cpu.user + cpu.system) / 1000 / wallMs) * 100),
      cpuMs: round((cpu.user + cpu.system) / 1000, 1),
      polls: polls - pollsBefore,
      errors,
    };
  } finally {
    await watcher.close();
  }
}

const root = await mkdtemp(path.join(os.tmpdir(), 'media-sync-bench-polled-'));
try {
  for (let folder = 0; folder < FOLDERS; folder++) {
    const dir = path.join(root, `d${folder}`);
    mkdirSync(dir);
    for (let file = 0; file < FILES_PER_FOLDER; file++) writeFileSync(path.join(dir, `f${file}.jpg`), 'abc');
  }
  const events = await idleCost(root, undefined);
  const polled = await idleCost(root, INTERVAL_MS);
  console.log(
    JSON.stringify({
      bench: 'polled-folder',
      files: FILES,
      window_s: round(WINDOW_MS / 1000, 1),
      poll_interval_s: round(INTERVAL_MS / 1000, 1),
      polled_cpu_pct: polled.cpuPct,
      polled_cpu_ms: polled.cpuMs,
      polls_in_window: polled.polls,
      events_idle_cpu_pct: events.cpuPct,
      events_idle_cpu_ms: events.cpuMs,
      ...(events.errors.length + polled.errors.length > 0
        ? { errors: [...events.errors, ...polled.errors].slice(0, 5) }
        : {}),
    }),
  );
  if (polled.polls < 1) process.exitCode = 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
