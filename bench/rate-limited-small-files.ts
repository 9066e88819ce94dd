import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceServer } from '../src-server/server.js';
import { benchEngine, round } from './bench-support.js';

/**
 * (c) 200 small files under a tight limit (20 requests per 2 s window):
 * requests per file, 429s, and the elapsed time against the ideal the limit
 * allows, (ceil(files / limit) - 1) windows. The server runs in this process
 * so its request log can be read; timing starts in a fresh window.
 */
const FILES = 200;
const LIMIT = 20;
const WINDOW_MS = 2_000;

const dir = await mkdtemp(join(tmpdir(), 'bench-small-'));
const serverDir = await mkdtemp(join(tmpdir(), 'bench-small-server-'));
const server = await startReferenceServer({
  host: '127.0.0.1',
  port: 0,
  dataDir: serverDir,
  logLevel: false,
  rateLimit: LIMIT,
  rateWindowMs: WINDOW_MS,
});
try {
  const paths: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const path = join(dir, `photo-${String(i).padStart(3, '0')}.jpg`);
    await writeFile(path, `small file ${i}\n`.repeat(50));
    paths.push(path);
  }
  const { engine, accountId, close } = await benchEngine(server.baseUrl, server.demoToken!);
  try {
    // the sign-in request opened a window: start in a fresh one
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 50));
    server.requestLog.clear();
    const started = performance.now();
    for (const path of paths) await engine.queue.enqueue({ accountId, path });
    engine.queue.start();
    await engine.queue.whenIdle();
    const seconds = (performance.now() - started) / 1000;
    const done = engine.uploads.count(['done']);
    const requests = server.requestLog.entries();
    const ideal = ((Math.ceil(FILES / LIMIT) - 1) * WINDOW_MS) / 1000;
    console.log(
      JSON.stringify({
        bench: 'rate-limited-small-files',
        files: FILES,
        done,
        limit: `${LIMIT} per ${WINDOW_MS / 1000} s`,
        requests: requests.length,
        requests_per_file: round(requests.length / FILES, 2),
        status_429: requests.filter((r) => r.status === 429).length,
        seconds: round(seconds, 2),
        ideal_seconds: ideal,
        vs_ideal: round(seconds / ideal, 3),
      }),
    );
  } finally {
    await close();
  }
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
  await rm(serverDir, { recursive: true, force: true });
}
