import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTLE_MS } from '../src-main/sync/stability.js';
import { benchEngine, round, startServerProcess } from './bench-support.js';
import { spread } from './interleave.js';

/**
 * (e) How soon a new file in a watched folder is queued: 100 files written
 * one by one (one every 100 ms, as a camera or an export would) into a folder
 * the engine watches with the app's settle window; for each, the time from the
 * writer closing the file to the item appearing in the queue. The files must
 * stay unchanged for the settle window before they go, so the figure to hold
 * against it is the latency beyond that window. The queue is not started:
 * only detection is measured.
 */
const FILES = 100;
const SPACING_MS = 100;
const DEADLINE_MS = 60_000;

const server = await startServerProcess();
const folder = await mkdtemp(join(tmpdir(), 'bench-detect-'));
const { engine, accountId, close } = await benchEngine(server.baseUrl, server.token);
try {
  await engine.sync.addFolder(accountId, folder, { uploadExisting: true });
  const closedAt = new Map<string, number>();
  const latencies = new Map<string, number>();
  let resolveAll!: () => void;
  const allQueued = new Promise<void>((resolve) => (resolveAll = resolve));
  const subscription = engine.queue.onDidChangeItem((item) => {
    const closed = closedAt.get(item.path);
    if (closed === undefined || latencies.has(item.path)) return;
    latencies.set(item.path, performance.now() - closed);
    if (latencies.size === FILES) resolveAll();
  });

  for (let index = 0; index < FILES; index++) {
    const path = join(folder, `clip-${String(index).padStart(3, '0')}.mp4`);
    const handle = await open(path, 'w');
    await handle.write(Buffer.alloc(64 * 1024, index));
    await handle.close();
    closedAt.set(path, performance.now());
    await new Promise((resolve) => setTimeout(resolve, SPACING_MS));
  }
  const deadline = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`only ${latencies.size} of ${FILES} files queued`)), DEADLINE_MS).unref(),
  );
  await Promise.race([allQueued, deadline]);
  subscription.dispose();

  const values = [...latencies.values()].sort((a, b) => a - b);
  const percentile = (p: number) => values[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;
  const all = spread(values);
  console.log(
    JSON.stringify({
      bench: 'detection-latency',
      files: FILES,
      settle_ms: DEFAULT_SETTLE_MS,
      p50_ms: Math.round(percentile(50)),
      p95_ms: Math.round(percentile(95)),
      min_ms: Math.round(all.min),
      max_ms: Math.round(all.max),
      p95_beyond_settle_ms: Math.round(percentile(95) - DEFAULT_SETTLE_MS),
      mean_ms: round(values.reduce((sum, value) => sum + value, 0) / values.length, 0),
    }),
  );
} finally {
  await close();
  await server.stop();
  await rm(folder, { recursive: true, force: true });
}
