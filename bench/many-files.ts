import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { WebSocket } from 'ws';
import { promisify } from 'node:util';
import { buildCli } from '../scripts/build-cli.js';
import { Engine } from '../src-main/core/engine.js';
import { fillFinishedUploads } from '../test/helpers/queue-history.js';
import {
  MEDIA_SYNC_BIN,
  MEMORY_DIR,
  buildNodeFloor,
  cpuSecondsOf,
  filesArrived,
  filesOn,
  round,
  roundedSpread,
  serveArgs,
  startServerProcess,
  timedProcess,
} from './bench-support.js';
import { cpuStages } from './cpu-stages.js';
import { interleave, roundRatios, spread, type Sample } from './interleave.js';

const run = promisify(execFile);

/**
 * Many small files (issue 26): FILES files of 8 KB dropped at once into a
 * watched folder of `media-sync serve` (a process of its own, from the
 * bundle, as a person runs it), against the reference server with no rate
 * limit, interleaved in rounds (interleave.ts) with one
 * `curl --parallel --parallel-max 3` sending the same files, the limit,
 * and the Node floor (node-floor.ts): a plain Node process, no app code,
 * that reads each file and sends it through undici's `dispatch` as the
 * client does, the same form as the client's, 3 in flight. Profiling showed
 * much of the client's cost per file is Node's before any app code
 * (0.33-0.37 ms per file by hand with undici's `request`, 0.30 with its
 * `dispatch`; 3-4× curl's); beside the others in the same rounds, the
 * figures say what is the app's (`empty_cpu_vs_node_floor_cpu`) and what is Node's
 * (`node_floor_cpu_vs_curl_cpu`).
 * Two daemons: one whose queue is emptied of finished items before each
 * run (`media-sync queue clear`), and one with HISTORY finished uploads in
 * its queue, written straight into its database before it starts
 * (test/helpers/queue-history.ts: the rows and followed files as the app
 * leaves them, not 100,000 uploads), which keeps every run's items too.
 *
 * - files/s: FILES over the time from the first file on the server to the
 *   last (the server's count, polled every 100 ms). The daemon's 3 s settle
 *   window is a latency before the first upload, not a throughput, and is
 *   left out; curl's and the floor's are their whole process's run.
 * - CPU per file: the daemon's user + system time over the run (from the
 *   drop to the last file, plus 0.5 s for what it does after), from
 *   /proc/<pid>/stat, so watching, settling, fingerprints, SQLite, events
 *   and the log line all count; curl's and the floor's from their shell's
 *   `times` (their process's start included).
 * - the server's CPU per file over each contender's run (its
 *   /proc/<pid>/stat): on a machine of 2 cores the client's CPU and the
 *   server's share the cores, curl's hardly any: client + server beside
 *   curl + server says how much of the machine a file takes with each.
 * - RSS: each daemon's after each run; growth of the one with the history
 *   from its first run (FILES files) to its last ((BENCH_ROUNDS + 1) × FILES:
 *   12,000 by default), garbage included (`rss_growth_before_gc_mb`, which
 *   moved by 20 MB and more from run to run with V8's uncollected garbage),
 *   and what a daemon keeps (`rss_growth_mb`): after the rounds, one more
 *   daemon with the history takes the files as many times, its RSS read
 *   after each run once a full garbage collection ran (asked through its
 *   inspector on loopback; an inspector enabled costs ~12 % more CPU per
 *   file, so the timed daemons have none).
 * - stages: where one file's CPU goes (watch, settle, fingerprint, SQLite,
 *   the request, …), from a V8 CPU profile (cpu-stages.ts) of a third
 *   daemon, with an empty queue, that takes FILES files twice after the
 *   rounds; its second run's samples count, as shares, and as ms of the
 *   empty daemon's CPU per file. Not beside the others: the profiler costs
 *   CPU of its own. BENCH_PROFILE_DIR keeps its profile there.
 * Linux only (/proc). Files, the daemons' data and the server's files in
 * memory (MEMORY_DIR).
 */
const FILES = Number(process.env['BENCH_FILES'] ?? 3_000);
const FILE_BYTES = 8 * 1024;
const HISTORY = Number(process.env['BENCH_HISTORY'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const PROFILE_DIR = process.env['BENCH_PROFILE_DIR'];

interface RunSample extends Sample {
  rssMb: number;
  /** when the run started and ended, CLOCK_MONOTONIC µs (as the daemon's CPU profile counts) */
  fromUs: number;
  toUs: number;
}

await buildCli();
const root = join(MEMORY_DIR, `bench-many-files-${process.pid}`);
const names = Array.from({ length: FILES }, (_, i) => `photo-${String(i).padStart(5, '0')}.jpg`);
/**
 * A daemon's run k drops the photos of `sources[k - 1]`: new ones at each of
 * its runs (warm-up, rounds), as a camera's are, not the same bytes again,
 * which its folder index would find at an earlier run's path still there (a
 * copy), one more query row and stat per file and run. curl and the floor
 * send the first.
 */
const sources: string[] = [];
for (let run = 1; run <= ROUNDS + 1; run++) {
  const folder = join(root, `source-${run}`);
  await mkdir(folder, { recursive: true });
  for (const [i, name] of names.entries()) {
    const bytes = Buffer.alloc(FILE_BYTES, i % 251);
    bytes.writeUInt32LE(i, 0);
    bytes.writeUInt32LE(run, 4);
    await writeFile(join(folder, name), bytes);
  }
  sources.push(folder);
}
const source = sources[0]!;
const nodeFloor = await buildNodeFloor(root);
const server = await startServerProcess(['--rate-limit', '100000000'], MEMORY_DIR);
const headers = { Authorization: `Bearer ${server.token}`, Accept: 'application/json' };
const filesOnServer = () => filesOn(server);
const uploaded = (before: number) => filesArrived(server, before, FILES);
const daemons: Daemon[] = [];

try {
  const empty = await startDaemon('empty', 0);
  const full = await startDaemon('full', HISTORY);
  daemons.push(empty, full);
  const samples = await interleave(
    [
      { name: 'client_empty', run: withServerCpu(() => empty.run()) },
      { name: 'client_full', run: withServerCpu(() => full.run()) },
      { name: 'curl', run: withServerCpu(() => curl()) },
      { name: 'node_floor', run: withServerCpu(() => floor()) },
    ],
    ROUNDS,
  );
  const filesPerSecond = (name: string) => samples.get(name)!.map((sample) => FILES / sample.seconds);
  const cpuPerFile = (name: string) => samples.get(name)!.map((sample) => sample.cpuSeconds / FILES);
  const serverCpuPerFile = (name: string) => samples.get(name)!.map((sample) => sample.serverCpuSeconds / FILES);
  const bothCpuPerFile = (name: string) =>
    samples.get(name)!.map((sample) => (sample.cpuSeconds + sample.serverCpuSeconds) / FILES);
  const figures: Record<string, unknown> = {
    bench: 'many-files',
    files: FILES,
    file_kb: FILE_BYTES / 1024,
    history: HISTORY,
    rounds: ROUNDS,
  };
  for (const name of samples.keys()) {
    figures[`${name}_files_s`] = roundedSpread(spread(filesPerSecond(name)), 1);
    figures[`${name}_cpu_ms_per_file`] = roundedSpread(spread(cpuPerFile(name).map((seconds) => seconds * 1000)), 3);
    figures[`${name}_server_cpu_ms_per_file`] = roundedSpread(
      spread(serverCpuPerFile(name).map((seconds) => seconds * 1000)),
      3,
    );
  }
  const ratio = (a: number[], b: number[]) => roundedSpread(roundRatios(a, b), 2);
  figures['full_vs_empty'] = ratio(filesPerSecond('client_full'), filesPerSecond('client_empty'));
  figures['empty_vs_curl'] = ratio(filesPerSecond('client_empty'), filesPerSecond('curl'));
  figures['full_vs_curl'] = ratio(filesPerSecond('client_full'), filesPerSecond('curl'));
  figures['empty_cpu_vs_curl_cpu'] = ratio(cpuPerFile('client_empty'), cpuPerFile('curl'));
  figures['full_cpu_vs_curl_cpu'] = ratio(cpuPerFile('client_full'), cpuPerFile('curl'));
  figures['empty_vs_node_floor'] = ratio(filesPerSecond('client_empty'), filesPerSecond('node_floor'));
  figures['empty_cpu_vs_node_floor_cpu'] = ratio(cpuPerFile('client_empty'), cpuPerFile('node_floor'));
  figures['node_floor_cpu_vs_curl_cpu'] = ratio(cpuPerFile('node_floor'), cpuPerFile('curl'));
  figures['empty_with_server_cpu_vs_curl_with_server_cpu'] = ratio(
    bothCpuPerFile('client_empty'),
    bothCpuPerFile('curl'),
  );
  // the warm-up run counts here: it is the first FILES files the daemon took
  figures['empty_rss_mb'] = empty.rssAfterRuns.map((mb) => round(mb, 1));
  figures['full_rss_mb'] = full.rssAfterRuns.map((mb) => round(mb, 1));
  figures['rss_growth_files'] = [FILES, FILES * full.rssAfterRuns.length];
  figures['rss_growth_before_gc_mb'] = round(full.rssAfterRuns.at(-1)! - full.rssAfterRuns[0]!, 1);
  const kept = await memoryAfterCollections(full.rssAfterRuns.length);
  figures['memory_rss_after_gc_mb'] = kept.map((mb) => round(mb, 1));
  figures['rss_growth_mb'] = round(kept.at(-1)! - kept[0]!, 1);
  figures['stages'] = await stages(spread(cpuPerFile('client_empty')).median * 1000);
  console.log(JSON.stringify(figures));
} finally {
  for (const daemon of daemons) await daemon.stop();
  await server.stop();
  await rm(root, { recursive: true, force: true });
}

interface Daemon {
  run(): Promise<RunSample>;
  rssAfterRuns: number[];
  /** the same once a full garbage collection ran: what the daemon keeps, not the garbage it has not collected yet */
  rssAfterGcRuns: number[];
  stop(): Promise<void>;
}

/**
 * `media-sync serve` on a data folder of its own, signed in, one watched
 * folder, and `history` finished uploads in its queue. Each run copies the
 * FILES files into a new subfolder of the watched folder and ends once the
 * server has them all; the empty one's finished items are cleared first.
 */
async function startDaemon(
  name: string,
  history: number,
  node: { profileDir?: string; inspector?: boolean } = {},
): Promise<Daemon> {
  const dataDir = join(root, `${name}-data`);
  const watched = join(root, `${name}-watched`);
  await mkdir(watched, { recursive: true });
  const engine = await Engine.open({ dataDir });
  try {
    const { account } = await engine.signIn(server.baseUrl, server.token);
    await engine.sync.addFolder(account.id, watched);
    // finished within the last two days: the pruning (7 days by default) keeps them
    fillFinishedUploads(engine.db, history, { accountId: account.id, finishedFrom: Date.now() - 2 * 86_400_000 });
  } finally {
    await engine.close();
  }
  const env = { ...process.env, MEDIA_SYNC_HOME: dataDir, MEDIA_SYNC_TOKEN: '' };
  const flags = [
    ...(node.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${node.profileDir}`] : []),
    // on loopback, only to ask for a full garbage collection before RSS is read: enabled, it costs ~12 % more CPU
    // per file, so only the daemon that measures memory has it
    ...(node.inspector ? ['--inspect=127.0.0.1:0'] : []),
  ];
  const child = spawn(process.execPath, [...flags, ...serveArgs(dataDir)], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const inspector = new Promise<string>((resolve) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      const url = /^Debugger listening on (ws:\/\/\S+)/.exec(line)?.[1];
      if (url) resolve(url);
      else if (!/^(Debugger attached|Waiting for the debugger|For help, see)/.test(line)) console.error(line);
    });
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('Media Sync is running at')) break;
  }
  child.stdout!.resume();
  let runs = 0;
  const rssAfterRuns: number[] = [];
  const rssAfterGcRuns: number[] = [];
  return {
    rssAfterRuns,
    rssAfterGcRuns,
    async run() {
      if (history === 0) await run(process.execPath, [MEDIA_SYNC_BIN, 'queue', 'clear'], { env });
      const before = await filesOnServer();
      const cpuBefore = await cpuSecondsOf(child.pid!);
      const fromUs = monotonicUs();
      runs += 1;
      await cp(sources[(runs - 1) % sources.length]!, join(watched, `run-${runs}`), { recursive: true });
      const { seconds } = await uploaded(before);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const cpuSeconds = (await cpuSecondsOf(child.pid!)) - cpuBefore;
      const toUs = monotonicUs();
      const rssMb = await rssMbOf(child);
      rssAfterRuns.push(rssMb);
      if (node.inspector) {
        await collectGarbage(await inspector);
        rssAfterGcRuns.push(await rssMbOf(child));
      }
      return { seconds, cpuSeconds, rssMb, fromUs, toUs };
    },
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/**
 * `run` with the server's CPU over it. On this 2-core machine the client's
 * CPU and the server's share the cores (curl's hardly takes any): beside
 * curl's, the two together say how much of the machine a file takes.
 */
function withServerCpu(run: () => Promise<RunSample>): () => Promise<RunSample & { serverCpuSeconds: number }> {
  return async () => {
    const before = await cpuSecondsOf(server.child.pid!);
    const sample = await run();
    return { ...sample, serverCpuSeconds: (await cpuSecondsOf(server.child.pid!)) - before };
  };
}

/** One curl process sending the FILES files, 3 at a time, one request each as the API takes a small file. */
async function curl(): Promise<RunSample> {
  const transfer = (name: string) =>
    [
      `url = "${server.baseUrl}/files/upload"`,
      'silent',
      'show-error',
      'fail',
      'output = "/dev/null"',
      ...Object.entries(headers).map(([header, value]) => `header = "${header}: ${value}"`),
      `form = "file=@${join(source, name)}"`,
    ].join('\n');
  const config = join(root, 'curl.config');
  await writeFile(config, names.map(transfer).join('\nnext\n'), { mode: 0o600 });
  return counted(() => timedProcess('curl', ['--parallel', '--parallel-max', '3', '-K', config]));
}

/** The Node floor (node-floor.ts) sending the FILES files, 3 at a time, as the client sends a small file. */
async function floor(): Promise<RunSample> {
  const uploads = names.map((name) => ({ path: join(source, name), fileName: name, fields: {} }));
  return counted(() => nodeFloor({ url: `${server.baseUrl}/files/upload`, token: server.token, inFlight: 3, uploads }));
}

/** A run of a process that sends the FILES files itself; an error unless the server then holds FILES more. */
async function counted(send: () => Promise<Sample>): Promise<RunSample> {
  const before = await filesOnServer();
  const { seconds, cpuSeconds } = await send();
  const after = await filesOnServer();
  if (after - before !== FILES) throw new Error(`${after - before} files were made, not ${FILES}`);
  return { seconds, cpuSeconds, rssMb: 0, fromUs: 0, toUs: 0 };
}

/**
 * What a daemon with the history keeps: one more such daemon, with the
 * inspector (not in the timed rounds: it costs CPU), takes the files as many
 * times as the one in the rounds did, and its RSS is read after each run
 * once a full garbage collection ran.
 */
async function memoryAfterCollections(runs: number): Promise<number[]> {
  const daemon = await startDaemon('memory', HISTORY, { inspector: true });
  daemons.push(daemon);
  for (let i = 0; i < runs; i++) await daemon.run();
  await daemon.stop();
  return daemon.rssAfterGcRuns;
}

/**
 * A file's CPU by stage: a profiled daemon (empty queue) takes FILES files
 * twice, the first to warm up; the samples of the second count, the table
 * printed to stderr and answered for the figures, in ms of `cpuMsPerFile`.
 */
async function stages(cpuMsPerFile: number) {
  const dir = PROFILE_DIR ?? join(root, 'profile');
  const daemon = await startDaemon('profiled', 0, { profileDir: dir });
  daemons.push(daemon);
  await daemon.run();
  const { fromUs, toUs } = await daemon.run();
  await daemon.stop();
  const written = (await readdir(dir)).filter((name) => name.endsWith('.cpuprofile')).sort();
  const rows = cpuStages(join(dir, written.at(-1)!), { fromUs, toUs }, cpuMsPerFile);
  console.error(`\nOne file's CPU by stage (${round(cpuMsPerFile, 3)} ms per file, the empty daemon's median):`);
  for (const row of rows) {
    console.error(`${row.share.toFixed(1).padStart(6)} %  ${row.msPerFile.toFixed(3).padStart(6)} ms  ${row.stage}`);
  }
  return rows.map((row) => ({ stage: row.stage, share: round(row.share, 1), ms_per_file: round(row.msPerFile, 3) }));
}

function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * A full garbage collection in the daemon, asked through its inspector
 * (HeapProfiler.collectGarbage): right after a run, its RSS holds garbage V8
 * has not collected yet, and went up and down by 20 MB and more between runs
 * while the live heap after a collection grew 3.5 MB over 15,000 files.
 */
async function collectGarbage(inspectorUrl: string): Promise<void> {
  const socket = new WebSocket(inspectorUrl);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the daemon did not collect its garbage within 30 s')), 30_000);
      socket.once('error', reject);
      socket.once('open', () => socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' })));
      socket.on('message', (data: Buffer) => {
        if ((JSON.parse(data.toString()) as { id?: number }).id !== 1) return;
        clearTimeout(timer);
        resolve();
      });
    });
  } finally {
    socket.close();
  }
}

async function rssMbOf(child: ChildProcess): Promise<number> {
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}
