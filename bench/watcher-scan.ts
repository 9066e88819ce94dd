/**
 * How long a FolderWatcher takes to report 100,000 existing files, and how much
 * memory it needs on the way. Run with `npx tsx bench/watcher-scan.ts`.
 *
 * 100 folders x 1,000 files of a few bytes each. The clock starts at `start()`
 * and stops when the last file has been reported stable; the settle window is
 * 200 ms (not the 3 s default) so the figure measures the watcher's own work,
 * not the waiting. Prints one JSON line.
 *
 * Memory (MiB): `rss_before_mb` is the baseline once the tree exists;
 * `rss_peak_mb`, `heap_used_peak_mb` and `external_peak_mb` are peaks of
 * samples taken every 50 ms from `start()` to the last report; `rss_after_mb`
 * is taken at the last report, with the watcher still open; `rss_after_gc_mb`
 * and `heap_used_after_gc_mb` after a full GC, when the process has one
 * (`node --expose-gc --import tsx bench/watcher-scan.ts`, as `npm run bench`
 * runs it): what the open watcher keeps for 100,000 reported files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FolderWatcher } from '../src-main/sync/folder-watcher.js';
import { sampleMemory } from './memory-sampler.js';

const FOLDERS = 100;
const FILES_PER_FOLDER = 1_000;
const FILES = FOLDERS * FILES_PER_FOLDER;
const SETTLE_MS = 200;
const TIMEOUT_MS = 120_000;

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'media-sync-bench-'));
  try {
    for (let folder = 0; folder < FOLDERS; folder++) {
      const dir = path.join(root, `d${folder}`);
      mkdirSync(dir);
      for (let file = 0; file < FILES_PER_FOLDER; file++) writeFileSync(path.join(dir, `f${file}.jpg`), 'abc');
    }
    // Let the creation loop's garbage go before taking the baseline.
    await new Promise((resolve) => setTimeout(resolve, 500));
    global.gc?.();
    const rssBefore = process.memoryUsage.rss();
    const sampler = sampleMemory(50);

    const seen = new Uint8Array(FILES);
    let reported = 0;
    let duplicates = 0;
    const watcher = new FolderWatcher({ root, includeSubfolders: true, settleMs: SETTLE_MS });
    const errors: string[] = [];
    watcher.onDidError((error) => errors.push(error.message));
    let resolveAll!: () => void;
    const allReported = new Promise<void>((resolve) => (resolveAll = resolve));
    watcher.onDidFindFile((file) => {
      const match = /^d(\d+)\/f(\d+)\.jpg$/.exec(file.relPath);
      const index = match ? Number(match[1]) * FILES_PER_FOLDER + Number(match[2]) : -1;
      if (index < 0 || seen[index] === 1) duplicates += 1;
      else {
        seen[index] = 1;
        reported += 1;
        if (reported === FILES) resolveAll();
      }
    });

    const startedAt = performance.now();
    await watcher.start();
    const startSeconds = (performance.now() - startedAt) / 1000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS)));
    const outcome = await Promise.race([allReported.then(() => 'done' as const), timedOut]);
    const seconds = (performance.now() - startedAt) / 1000;
    clearTimeout(timer);
    const peaks = sampler.stop();
    const rssAfter = process.memoryUsage.rss();
    global.gc?.();
    const afterGc = global.gc ? process.memoryUsage() : undefined;
    await watcher.close();

    console.log(
      JSON.stringify({
        bench: 'watcher-scan',
        files: FILES,
        reported,
        duplicates,
        seconds: Math.round(seconds * 100) / 100,
        start_seconds: Math.round(startSeconds * 100) / 100,
        rss_before_mb: mb(rssBefore),
        rss_peak_mb: mb(peaks.rss),
        rss_after_mb: mb(rssAfter),
        rss_after_gc_mb: afterGc ? mb(afterGc.rss) : null,
        heap_used_peak_mb: mb(peaks.heapUsed),
        heap_used_after_gc_mb: afterGc ? mb(afterGc.heapUsed) : null,
        external_peak_mb: mb(peaks.external),
        settle_ms: SETTLE_MS,
        ...(outcome === 'timeout' ? { error: `not all files reported within ${TIMEOUT_MS} ms` } : {}),
        ...(errors.length > 0 ? { errors: errors.slice(0, 5) } : {}),
      }),
    );
    if (outcome === 'timeout' || duplicates > 0) process.exitCode = 1;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
