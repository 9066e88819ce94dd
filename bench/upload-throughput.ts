import { execFile } from 'node:child_process';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { writeRandomFile } from '../test/helpers/engine-fixture.js';
import { API_LIMITS } from '../src-shared/api/index.js';
import { MB, benchEngine, round, startServerProcess, timeUpload } from './bench-support.js';

const run = promisify(execFile);

/**
 * (a) A 1 GB file to the reference server: MB/s of the client with 1 and with
 * 3 chunks in flight, and of curl sending the same 90 MB chunks one after the
 * other to the same server. Each sender uploads the file twice and keeps its
 * best run, so a cold page cache does not decide the comparison.
 */
const SIZE = Number(process.env['BENCH_SIZE'] ?? 1_000_000_000);
const CHUNK = API_LIMITS.chunkSizeBytes;

const dir = join(tmpdir(), `bench-throughput-${process.pid}`);
await run('mkdir', ['-p', dir]);
const source = join(dir, 'one-gigabyte.bin');
await writeRandomFile(source, SIZE, 11);
const server = await startServerProcess();
try {
  const client = async (chunksPerFile: number) => {
    const { engine, accountId, close } = await benchEngine(server.baseUrl, server.token, { chunksPerFile });
    try {
      const runs = [await timeUpload(engine, accountId, source), await timeUpload(engine, accountId, source)];
      if (runs.some((r) => r.state !== 'done')) throw new Error(`client upload ended ${runs.map((r) => r.state)}`);
      return Math.min(...runs.map((r) => r.seconds));
    } finally {
      await close();
    }
  };
  const curl = async () => {
    // the chunks as files, made before the clock starts: curl -F sends whole files
    const total = Math.ceil(SIZE / CHUNK);
    const parts: string[] = [];
    const input = await open(source, 'r');
    for (let index = 0; index < total; index++) {
      const part = join(dir, `chunk-${index}`);
      const length = Math.min(CHUNK, SIZE - index * CHUNK);
      const buffer = Buffer.alloc(length);
      await input.read(buffer, 0, length, index * CHUNK);
      const output = await open(part, 'w');
      await output.write(buffer);
      await output.close();
      parts.push(part);
    }
    await input.close();
    const once = async () => {
      const dzuuid = randomUUID();
      const started = performance.now();
      for (let index = 0; index < total; index++) {
        await run('curl', [
          '-sS',
          '--fail',
          '-o',
          '/dev/null',
          '-H',
          `Authorization: Bearer ${server.token}`,
          '-H',
          'Accept: application/json',
          '-F',
          `dzuuid=${dzuuid}`,
          '-F',
          `dzchunkindex=${index}`,
          '-F',
          `dztotalchunkcount=${total}`,
          '-F',
          `dzchunksize=${CHUNK}`,
          '-F',
          `dztotalfilesize=${SIZE}`,
          '-F',
          `dzchunkbyteoffset=${index * CHUNK}`,
          '-F',
          `file=@${parts[index]};filename=one-gigabyte.bin`,
          `${server.baseUrl}/files/upload`,
        ]);
      }
      return (performance.now() - started) / 1000;
    };
    const seconds = Math.min(await once(), await once());
    await Promise.all(parts.map((part) => rm(part)));
    return seconds;
  };

  const curlSeconds = await curl();
  const oneSeconds = await client(1);
  const threeSeconds = await client(3);
  const mbps = (seconds: number) => round(SIZE / MB / seconds, 1);
  console.log(
    JSON.stringify({
      bench: 'upload-throughput',
      file_mb: SIZE / MB,
      chunk_mb: CHUNK / MB,
      client_1_in_flight_mb_s: mbps(oneSeconds),
      client_3_in_flight_mb_s: mbps(threeSeconds),
      curl_sequential_mb_s: mbps(curlSeconds),
      client_1_vs_curl: round(curlSeconds / oneSeconds, 2),
      client_3_vs_curl: round(curlSeconds / threeSeconds, 2),
    }),
  );
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
