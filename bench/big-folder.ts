/**
 * New files in a folder that already holds many (a camera's or a phone's
 * import folder): the watcher's CPU per new file in a folder of BIG files,
 * beside the same in an empty folder, interleaved in rounds (interleave.ts).
 * Run with `npx tsx bench/big-folder.ts`; `npm run bench` records it.
 *
 * Two FolderWatchers in this process, one on each folder, both started (the
 * big folder's existing files reported) before the clock. Per run: NEW files
 * written into one folder, one every SPACING_MS, as a camera drops them; the
 * run ends once all are reported stable and TAIL_MS more have passed (what
 * the watcher does after the last event counts). CPU is this process's
 * (`process.cpuUsage`) over the run, per new file; the other watcher is idle
 * meanwhile. The settle window is 200 ms (not the 3 s default): the figure
 * is the watcher's own work, not its waiting.
 *
 * What it shows: chokidar, which watches each folder, lists the folder again
 * whenever anything in it changes (at most once a second, and once more
 * after), though the app hears each file from the change events. So a new
 * file costs in proportion to the files already there: an lstat of each with
 * chokidar's own lister, a readdir of their names with the app's
 * (listSubfoldersOnly; docs/uploads.md, Watching 100,000 files). An
 * information row: no target yet.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FolderWatcher } from '../src-main/sync/folder-watcher.js';
import { roundedSpread } from './bench-support.js';
import { cpuSecondsSince, interleave, roundRatios, spread, type Sample } from './interleave.js';

const BIG = Number(process.env['BENCH_BIG'] ?? 20_000);
const NEW = 20;
const SPACING_MS = 250;
const TAIL_MS = 2_500;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const SETTLE_MS = 200;
const TIMEOUT_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const errors: string[] = [];

/** A started watcher on `dir`, and how many files it has reported so far. */
async function watched(dir: string): Promise<{ watcher: FolderWatcher; reported: () => number }> {
  let reported = 0;
  const watcher = new FolderWatcher({ root: dir, includeSubfolders: true, settleMs: SETTLE_MS });
  watcher.onDidFindFile(() => reported++);
  watcher.onDidError((error) => errors.push(error.message));
  await watcher.start();
  return { watcher, reported: () => reported };
}

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + TIMEOUT_MS;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${TIMEOUT_MS} ms`);
    await sleep(50);
  }
}

const root = await mkdtemp(path.join(os.tmpdir(), 'media-sync-big-folder-'));
try {
  const emptyDir = path.join(root, 'empty');
  const bigDir = path.join(root, 'big');
  mkdirSync(emptyDir);
  mkdirSync(bigDir);
  for (let file = 0; file < BIG; file++) writeFileSync(path.join(bigDir, `IMG_${file}.jpg`), 'abc');
  const empty = await watched(emptyDir);
  const big = await watched(bigDir);
  await until(() => big.reported() >= BIG, `the ${BIG} files already there reported`);

  let written = 0;
  const dropFiles = (dir: string, folder: { reported: () => number }) => async (): Promise<Sample> => {
    const before = folder.reported();
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let file = 0; file < NEW; file++) {
      writeFileSync(path.join(dir, `new_${written++}.jpg`), 'new photo');
      await sleep(SPACING_MS);
    }
    await until(() => folder.reported() - before >= NEW, `${NEW} new files reported`);
    await sleep(TAIL_MS);
    return { seconds: (performance.now() - started) / 1000, cpuSeconds: cpuSecondsSince(cpu) };
  };
  const samples = await interleave(
    [
      { name: 'empty', run: dropFiles(emptyDir, empty) },
      { name: 'big', run: dropFiles(bigDir, big) },
    ],
    ROUNDS,
  );
  await Promise.all([empty.watcher.close(), big.watcher.close()]);

  const msPerFile = (name: string) => samples.get(name)!.map((sample) => (sample.cpuSeconds * 1000) / NEW);
  console.log(
    JSON.stringify({
      bench: 'big-folder',
      files_there: BIG,
      new_files: NEW,
      spacing_ms: SPACING_MS,
      rounds: ROUNDS,
      empty_cpu_ms_per_new_file: roundedSpread(spread(msPerFile('empty')), 1),
      big_cpu_ms_per_new_file: roundedSpread(spread(msPerFile('big')), 1),
      big_vs_empty: roundedSpread(roundRatios(msPerFile('big'), msPerFile('empty')), 1),
      ...(errors.length > 0 ? { errors: errors.slice(0, 5) } : {}),
    }),
  );
  if (errors.length > 0) process.exitCode = 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
