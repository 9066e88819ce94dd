import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRandomFile } from '../test/helpers/engine-fixture.js';
import { MB, benchEngine, round, sampleRss, startServerProcess, timeUpload } from './bench-support.js';

/**
 * (b) Peak RSS of the client during a 4 GB upload (3 chunks in flight): the
 * growth over the RSS it had once signed in, sampled every 50 ms. Chunks stream
 * from disk, so the growth should stay far below one 90 MB chunk.
 */
const SIZE = Number(process.env['BENCH_SIZE'] ?? 4_000_000_000);

const dir = await mkdtemp(join(tmpdir(), 'bench-rss-'));
const source = join(dir, 'four-gigabytes.bin');
await writeRandomFile(source, SIZE, 21);
const server = await startServerProcess();
try {
  const { engine, accountId, close } = await benchEngine(server.baseUrl, server.token);
  try {
    global.gc?.();
    const before = process.memoryUsage.rss();
    const sampler = sampleRss();
    const { seconds, state } = await timeUpload(engine, accountId, source);
    const peak = sampler.stop();
    if (state !== 'done') throw new Error(`upload ended ${state}`);
    console.log(
      JSON.stringify({
        bench: 'upload-rss',
        file_mb: SIZE / MB,
        seconds: round(seconds, 1),
        mb_s: round(SIZE / MB / seconds, 1),
        rss_before_mb: round(before / MB, 1),
        rss_peak_mb: round(peak / MB, 1),
        rss_growth_mb: round((peak - before) / MB, 1),
      }),
    );
  } finally {
    await close();
  }
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
