import { randomUUID } from 'node:crypto';
import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { API_LIMITS } from '../src-shared/api/index.js';
import { writeRandomFile } from '../test/helpers/engine-fixture.js';
import {
  MB,
  MEMORY_DIR,
  benchEngine,
  roundedSpread,
  startServerProcess,
  timeUpload,
  timedProcess,
} from './bench-support.js';
import { cpuSecondsSince, interleave, roundRatios, spread, type Sample } from './interleave.js';
import { floorUpload } from './upload-floor.js';

/**
 * (a) A 1 GB file to the reference server, in the API's 90 MB chunks, by six
 * contenders interleaved over ROUNDS rounds against one server process:
 * - client_1, client_3: the app's engine with at most 1 and 3 chunks in
 *   flight (a second and third opened only while they raise the rate);
 * - curl_1: one curl process sending the chunks one after the other over one
 *   connection, the way a script would;
 * - curl_3: one `curl --parallel --parallel-max 3`: the limit, what the
 *   server takes with three chunks in flight;
 * - floor_1, floor_3: the Node floor (upload-floor.ts), the same chunks
 *   written by hand on 1 and 3 sockets, read as the client reads: what
 *   Node itself costs, before undici and the app.
 * Per contender: MB/s (median, min, max) and CPU seconds per GB (the client's
 * and the floor's own `process.cpuUsage()`, curl's from its shell's `times`,
 * its process's start included); per pair, the median of the
 * ratios taken within each round. Every upload is checked on
 * the server (size) and deleted after. The file, curl's chunks and the
 * server's files live in memory (MEMORY_DIR), so the disk's writeback does
 * not decide the ratios.
 */
const SIZE = Number(process.env['BENCH_SIZE'] ?? 1_000_000_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 9);
const CHUNK = API_LIMITS.chunkSizeBytes;
const TOTAL = Math.ceil(SIZE / CHUNK);

const FileListSchema = z.object({
  data: z.array(z.object({ id: z.union([z.string(), z.number()]), size_bytes: z.number() })),
});

// the file, its chunks for curl and the server's files in memory: the disk is not what is compared
const dir = join(MEMORY_DIR, `bench-throughput-${process.pid}`);
await mkdir(dir, { recursive: true });
const source = join(dir, 'one-gigabyte.bin');
await writeRandomFile(source, SIZE, 11);
const parts = await splitIntoChunks(source);
// the rate limit is not what is measured here: 9 rounds of 4 senders make ~450 requests
const server = await startServerProcess(['--rate-limit', '100000'], MEMORY_DIR);
const headers = { Authorization: `Bearer ${server.token}`, Accept: 'application/json' };

async function filesOnServer() {
  const response = await fetch(`${server.baseUrl}/files?per_page=100`, { headers });
  return FileListSchema.parse(await response.json()).data;
}

/** Checks that exactly the one upload arrived whole, then deletes it. */
async function checkAndDelete(): Promise<void> {
  const files = await filesOnServer();
  if (files.length !== 1 || files[0]!.size_bytes !== SIZE) {
    throw new Error(`expected one file of ${SIZE} bytes on the server, found ${JSON.stringify(files)}`);
  }
  await fetch(`${server.baseUrl}/files/${files[0]!.id}`, { method: 'DELETE', headers });
}

try {
  const engines = await Promise.all(
    [1, 3].map((chunksPerFile) => benchEngine(server.baseUrl, server.token, { chunksPerFile })),
  );
  const client = (index: number) => async (): Promise<Sample> => {
    const { engine, accountId } = engines[index]!;
    const cpu = process.cpuUsage();
    const { seconds, state } = await timeUpload(engine, accountId, source);
    if (state !== 'done') throw new Error(`the client's upload ended ${state}`);
    return { seconds, cpuSeconds: cpuSecondsSince(cpu) };
  };
  const samples = await interleave(
    [
      { name: 'client_1', run: client(0) },
      { name: 'client_3', run: client(1) },
      { name: 'curl_1', run: () => curl(1) },
      { name: 'curl_3', run: () => curl(3) },
      { name: 'floor_1', run: () => floor(1) },
      { name: 'floor_3', run: () => floor(3) },
    ],
    ROUNDS,
    checkAndDelete,
  );
  await Promise.all(engines.map((engine) => engine.close()));

  const mbps = (sample: Sample) => SIZE / MB / sample.seconds;
  const cpuPerGb = (sample: Sample) => sample.cpuSeconds / (SIZE / 1e9);
  const figures: Record<string, unknown> = {
    bench: 'upload-throughput',
    file_mb: SIZE / MB,
    chunk_mb: CHUNK / MB,
    rounds: ROUNDS,
  };
  for (const [name, list] of samples) {
    figures[`${name}_mb_s`] = roundedSpread(spread(list.map(mbps)), 1);
    figures[`${name}_cpu_s_per_gb`] = roundedSpread(spread(list.map(cpuPerGb)), 2);
  }
  const speeds = (name: string) => samples.get(name)!.map(mbps);
  const cpus = (name: string) => samples.get(name)!.map(cpuPerGb);
  figures['client_1_vs_curl_1'] = roundedSpread(roundRatios(speeds('client_1'), speeds('curl_1')), 2);
  figures['client_3_vs_curl_3'] = roundedSpread(roundRatios(speeds('client_3'), speeds('curl_3')), 2);
  figures['client_1_cpu_vs_curl_1_cpu'] = roundedSpread(roundRatios(cpus('client_1'), cpus('curl_1')), 2);
  figures['client_3_cpu_vs_curl_3_cpu'] = roundedSpread(roundRatios(cpus('client_3'), cpus('curl_3')), 2);
  for (const inFlight of [1, 3]) {
    figures[`floor_${inFlight}_cpu_vs_curl_${inFlight}_cpu`] = roundedSpread(
      roundRatios(cpus(`floor_${inFlight}`), cpus(`curl_${inFlight}`)),
      2,
    );
    figures[`client_${inFlight}_cpu_vs_floor_${inFlight}_cpu`] = roundedSpread(
      roundRatios(cpus(`client_${inFlight}`), cpus(`floor_${inFlight}`)),
      2,
    );
  }
  console.log(JSON.stringify(figures));
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}

/** The chunks as files, made before any clock starts: curl's `-F file=@` sends whole files. */
async function splitIntoChunks(path: string): Promise<string[]> {
  const input = await open(path, 'r');
  const chunks: string[] = [];
  for (let index = 0; index < TOTAL; index++) {
    const length = Math.min(CHUNK, SIZE - index * CHUNK);
    const buffer = Buffer.alloc(length);
    await input.read(buffer, 0, length, index * CHUNK);
    const chunk = join(dir, `chunk-${index}`);
    await writeFile(chunk, buffer);
    chunks.push(chunk);
  }
  await input.close();
  return chunks;
}

/**
 * One curl process uploading every chunk (a `next`-separated config, one
 * transfer per chunk), `inFlight` at a time. Its CPU is the children's line
 * of the shell's `times`, printed once curl has exited.
 */
async function curl(inFlight: number): Promise<Sample> {
  const dzuuid = randomUUID();
  const transfer = (index: number) =>
    [
      `url = "${server.baseUrl}/files/upload"`,
      'silent',
      'show-error',
      'fail',
      'output = "/dev/null"',
      ...Object.entries(headers).map(([name, value]) => `header = "${name}: ${value}"`),
      ...Object.entries(chunkFields(dzuuid, index)).map(([name, value]) => `form = "${name}=${value}"`),
      `form = "file=@${parts[index]};filename=one-gigabyte.bin"`,
    ].join('\n');
  const config = join(dir, 'curl.config');
  await writeFile(config, parts.map((_, index) => transfer(index)).join('\nnext\n'), { mode: 0o600 });
  const parallel = inFlight > 1 ? ['--parallel', '--parallel-max', String(inFlight)] : [];
  const sample = await timedProcess('curl', [...parallel, '-K', config]);
  await rm(config);
  return sample;
}

/** The Node floor (upload-floor.ts) sending the file with `inFlight` chunks at a time, in this process. */
async function floor(inFlight: number): Promise<Sample> {
  const dzuuid = randomUUID();
  const started = performance.now();
  const cpu = process.cpuUsage();
  await floorUpload({
    baseUrl: server.baseUrl,
    token: server.token,
    path: source,
    size: SIZE,
    chunkSize: CHUNK,
    inFlight,
    fields: (index) => chunkFields(dzuuid, index),
  });
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: cpuSecondsSince(cpu) };
}

/** The form fields of chunk `index` (the API's chunked upload), as the client sends them. */
function chunkFields(dzuuid: string, index: number): Record<string, string> {
  return {
    dzuuid,
    dzchunkindex: String(index),
    dztotalchunkcount: String(TOTAL),
    dzchunksize: String(CHUNK),
    dztotalfilesize: String(SIZE),
    dzchunkbyteoffset: String(index * CHUNK),
  };
}
