import { build } from 'esbuild';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import * as z from 'zod';
import { NODE_REQUIRE_BANNER } from '../scripts/build-cli.js';
import { Engine, type EngineOptions } from '../src-main/core/engine.js';
import type { Sample, Spread } from './interleave.js';
import { sampleMemory } from './memory-sampler.js';
import type { NodeFloorJob } from './node-floor.js';

export interface ServerProcess {
  baseUrl: string;
  token: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Where a bench keeps files it does not measure the disk with: memory
 * (tmpfs) where there is one. Uploading a GB writes two (the chunks, then the
 * file put together); on disk, the kernel's writeback of those gigabytes
 * stalls whichever upload runs when it starts, and decides a ratio between
 * senders more than the senders do.
 */
export const MEMORY_DIR = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/**
 * The reference server in its own process (as `npm run server` starts it), so
 * the client's figures are the bench process's alone; its files under `root`.
 */
export async function startServerProcess(extra: string[] = [], root = tmpdir()): Promise<ServerProcess> {
  const dataDir = await mkdtemp(join(root, 'bench-server-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src-server/cli.ts', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn', ...extra],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await once(lines, 'line')) as [string];
  const { base_url: baseUrl, token } = JSON.parse(first) as { base_url: string; token: string };
  return {
    baseUrl,
    token,
    child,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** An Engine in a temp data folder, signed in; removed by `close`. */
export async function benchEngine(baseUrl: string, token: string, options: Partial<EngineOptions> = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-client-'));
  const engine = await Engine.open({ dataDir, ...options });
  const { account } = await engine.signIn(baseUrl, token);
  return {
    engine,
    accountId: account.id,
    async close() {
      await engine.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Uploads one file with the engine and returns the seconds it took. */
export async function timeUpload(
  engine: Engine,
  accountId: string,
  path: string,
): Promise<{ seconds: number; state: string }> {
  const started = performance.now();
  const { item } = await engine.queue.enqueue({ accountId, path, force: true });
  engine.queue.start();
  await engine.queue.whenIdle();
  const seconds = (performance.now() - started) / 1000;
  return { seconds, state: engine.queue.get(item.id)!.state.kind };
}

/** Samples this process's RSS every `everyMs`; `stop()` returns the peak in bytes. */
export function sampleRss(everyMs = 50): { stop(): number } {
  const sampler = sampleMemory(everyMs);
  return { stop: () => sampler.stop().rss };
}

export const MB = 1_000_000;

/** The bundled CLI as a person runs it (`buildCli` makes what it loads). */
export const MEDIA_SYNC_BIN = join(import.meta.dirname, '../bin/media-sync.js');

/** The arguments of a bench's `media-sync serve` after node's: any free port, no demo account, `dataDir`'s data. */
export function serveArgs(dataDir: string, ...extra: string[]): string[] {
  return [MEDIA_SYNC_BIN, 'serve', '--port', '0', '--no-demo', '--data-dir', dataDir, ...extra];
}

/**
 * Runs `command` to its end under a shell: its wall seconds, and its user and
 * system CPU seconds (with its children's) from the shell's `times` once it
 * exited, so a process's CPU counts whole, its start included.
 */
export async function timedProcess(command: string, args: string[]): Promise<Sample> {
  const started = performance.now();
  const { stderr } = await promisify(execFile)('sh', [
    '-c',
    '"$@"; code=$?; times >&2; exit $code',
    'sh',
    command,
    ...args,
  ]);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: childCpuSeconds(stderr) };
}

/**
 * Bundles bench/node-floor.ts with undici into `dir` (as the CLI is bundled:
 * one file to load, and no tsx whose start would count in its CPU), and
 * answers a function that runs it on a job, timed as curl is.
 */
export async function buildNodeFloor(dir: string): Promise<(job: NodeFloorJob) => Promise<Sample>> {
  const script = join(dir, 'node-floor.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'node-floor.ts')],
    outfile: script,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    banner: { js: NODE_REQUIRE_BANNER },
  });
  const jobFile = join(dir, 'node-floor-job.json');
  return async (job) => {
    await writeFile(jobFile, JSON.stringify(job), { mode: 0o600 });
    return timedProcess(process.execPath, [script, jobFile]);
  };
}

/** The children's user and system time from the last line of a shell's `times` (`0m1.230000s 0m0.450000s`). */
function childCpuSeconds(timesOutput: string): number {
  const last = timesOutput.trim().split('\n').at(-1) ?? '';
  const values = [...last.matchAll(/(\d+)m([\d.]+)s/g)].map((match) => Number(match[1]) * 60 + Number(match[2]));
  if (values.length !== 2) throw new Error(`could not read the CPU time from the shell's times: ${timesOutput}`);
  return values[0]! + values[1]!;
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** A spread as a bench prints it: median, min and max each to `digits` places. */
export function roundedSpread(value: Spread, digits: number): Spread {
  return { median: round(value.median, digits), min: round(value.min, digits), max: round(value.max, digits) };
}

const FilesPageSchema = z.object({ meta: z.object({ total: z.int() }) });

/** How many files the server holds for its token. */
export async function filesOn(server: Pick<ServerProcess, 'baseUrl' | 'token'>): Promise<number> {
  const response = await fetch(`${server.baseUrl}/files?per_page=1`, {
    headers: { Authorization: `Bearer ${server.token}`, Accept: 'application/json' },
  });
  return FilesPageSchema.parse(await response.json()).meta.total;
}

/** Waits until the server holds `count` more files than `before`; the seconds from the first of them to the last. */
export async function filesArrived(
  server: Pick<ServerProcess, 'baseUrl' | 'token'>,
  before: number,
  count: number,
): Promise<{ seconds: number }> {
  const deadline = performance.now() + 10 * 60_000;
  let first: number | null = null;
  for (;;) {
    const arrived = (await filesOn(server)) - before;
    const now = performance.now();
    if (arrived > 0) first ??= now;
    if (arrived >= count) return { seconds: (now - first!) / 1000 };
    if (now > deadline) throw new Error(`only ${arrived} of ${count} files arrived in 10 min`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** user + system CPU seconds of a process and its threads, from /proc (clock ticks of 10 ms). */
export async function cpuSecondsOf(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  // after the command's closing parenthesis: utime and stime are the 12th and 13th fields
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The address `media-sync serve` prints (with its session key), once it does. */
export async function daemonAddress(child: ChildProcess): Promise<string> {
  let output = '';
  const deadline = Date.now() + 30_000;
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  while (Date.now() < deadline) {
    const match = /running at (http:\/\/127\.0\.0\.1:\d+\/\?key=[\w-]+)/.exec(output);
    if (match) return match[1]!;
    if (child.exitCode !== null) throw new Error(`media-sync serve exited: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('media-sync serve printed no address in 30 s');
}
