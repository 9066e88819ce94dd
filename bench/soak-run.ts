import { spawn, type ChildProcess } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import {
  startFaultProxy,
  type Fault,
  type FaultProxy,
  type FaultRule,
  type ProxiedRequestInfo,
} from '../test/helpers/fault-proxy.js';
import { startTestServer, type TestServer } from '../test/helpers/test-server.js';
import { sha256File, sha256Url, tempDir } from '../test/helpers/engine-fixture.js';
import { waitFor } from '../test/helpers/local-http-server.js';

const BIN = resolve(import.meta.dirname, '../bin/media-sync.js');
const UPLOAD = '/api/v1/files/upload';

/** What one soak run does; `npm run soak` and the integration test differ only in these numbers. */
export interface SoakOptions {
  files: number;
  minBytes: number;
  maxBytes: number;
  /** the uploader's `--chunk-size` */
  chunkSize: number;
  /** share of API requests the proxy breaks, 0–1 */
  faultRate: number;
  /** the uploader is killed with SIGKILL once the server holds this share of all bytes */
  killAtFraction: number;
  /** the whole run (files written, uploaded twice, checked) must end by then */
  deadlineMs: number;
  seed: number;
  /** the uploader's `--bandwidth`, e.g. `8MB`, so a small run lasts long enough to be killed mid-way */
  bandwidth?: string;
  /** what the run is doing now, for a person watching */
  progress?: (line: string) => void;
}

export interface SoakFigures {
  files: number;
  bytes: number;
  chunk_size: number;
  fault_rate: number;
  faults: Record<string, number>;
  api_requests: number;
  upload_requests: number;
  /** chunks (a small file is one chunk) the files need: the fewest upload requests that could do */
  chunks_needed: number;
  /** upload requests beyond one per chunk: retries after faults and after the kill */
  retries: number;
  /** chunks the server stored (answered 2xx) more than once */
  chunks_resent: number;
  killed_at_bytes: number | null;
  /** files on the server more than once */
  duplicates: number;
  /** local files missing on the server, or there with other bytes */
  lost: number;
  mismatched: number;
  exit_codes: Array<number | string>;
  deadline_passed: boolean;
  wall_s: number;
}

/** True when the run proved what it set out to: killed mid-way, nothing lost, nothing twice, in time. */
export function soakPassed(figures: SoakFigures): boolean {
  return (
    figures.duplicates === 0 &&
    figures.lost === 0 &&
    !figures.deadline_passed &&
    figures.killed_at_bytes !== null &&
    figures.exit_codes.at(-1) === 0
  );
}

/**
 * The faults the proxy picks from, evenly: a reset mid-body, an answer the
 * server gave but the client never hears (the one that would make duplicates),
 * a stall before forwarding, and gateway 5xx.
 */
function faultMenu(random: () => number): Array<() => Fault> {
  return [
    () => ({ kind: 'reset-mid-body', afterBytes: Math.floor(random() * 1_000_000) }),
    () => ({ kind: 'lose-response' }),
    () => ({ kind: 'stall', ms: 200 + Math.floor(random() * 2_800) }),
    () => ({ kind: 'status', status: 500 }),
    () => ({ kind: 'status', status: 502 }),
    () => ({ kind: 'status', status: 504 }),
  ];
}

/** mulberry32: a small seeded PRNG, so the sizes and faults of a run can be had again. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The sizes of a run's files, from its seed. */
export function soakSizes(options: Pick<SoakOptions, 'files' | 'minBytes' | 'maxBytes' | 'seed'>): number[] {
  const random = seededRandom(options.seed);
  return Array.from({ length: options.files }, () =>
    Math.floor(options.minBytes + random() * (options.maxBytes - options.minBytes + 1)),
  );
}

/**
 * `size` bytes of AES-CTR keystream keyed by `seed`: distinct content per
 * seed at disk speed (gigabytes a second), where a JS PRNG would be the
 * bottleneck of a 20 GB run.
 */
export async function writeSeededFile(path: string, size: number, seed: number): Promise<void> {
  const key = createHash('sha256').update(`soak-${seed}`).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  const zeros = Buffer.alloc(4 * 1024 * 1024);
  const handle = await open(path, 'w');
  try {
    for (let written = 0; written < size;) {
      const length = Math.min(zeros.length, size - written);
      await handle.write(cipher.update(zeros.subarray(0, length)));
      written += length;
    }
  } finally {
    await handle.close();
  }
}

interface Uploader {
  child: ChildProcess;
  exited: Promise<number | string>;
  output(): string;
}

function startCli(args: string[], home: string, input = ''): Uploader {
  const child = spawn(process.execPath, [BIN, ...args], {
    // the token goes in on stdin only: never in argv or the environment of a child
    env: { ...process.env, MEDIA_SYNC_HOME: home, MEDIA_SYNC_TOKEN: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (piece: Buffer) => (text = (text + piece.toString()).slice(-20_000)));
  child.stderr!.on('data', (piece: Buffer) => (text = (text + piece.toString()).slice(-20_000)));
  child.stdin!.end(input);
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal ?? 'unknown') as number | string);
  return { child, exited, output: () => text };
}

const ListedFilesSchema = z.object({
  data: z.array(z.object({ id: z.string(), filename: z.string(), size_bytes: z.number() })),
  meta: z.object({ last_page: z.number() }).optional(),
});

async function listAllFiles(server: TestServer): Promise<z.infer<typeof ListedFilesSchema>['data']> {
  const all: z.infer<typeof ListedFilesSchema>['data'] = [];
  for (let page = 1; page <= 10_000; page++) {
    const response = await server.api(`/files?per_page=100&page=${page}`);
    const parsed = ListedFilesSchema.parse(JSON.parse(response.body.toString()));
    all.push(...parsed.data);
    if (parsed.data.length === 0 || page >= (parsed.meta?.last_page ?? page)) break;
  }
  return all;
}

/**
 * One soak run: seeded files uploaded by the real `media-sync upload` (a child
 * process) through a fault proxy in front of the reference server, the
 * uploader killed with SIGKILL part-way and started again on the same data
 * folder, then every file checked on the server: once, byte for byte.
 */
export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const started = performance.now();
  const deadline = started + options.deadlineMs;
  const left = () => deadline - performance.now();
  const say = options.progress ?? (() => undefined);
  const work = await tempDir('media-sync-soak-');
  let server: TestServer | undefined;
  let proxy: FaultProxy | undefined;
  let running: Uploader | undefined;
  try {
    const sizes = soakSizes(options);
    const bytes = sizes.reduce((sum, size) => sum + size, 0);
    const filesDir = join(work.path, 'files');
    const home = join(work.path, 'client');
    await mkdir(filesDir);
    say(`writing ${sizes.length} files, ${(bytes / 1e6).toFixed(0)} MB`);
    const paths: string[] = [];
    for (const [index, size] of sizes.entries()) {
      const path = join(filesDir, `soak-${String(index).padStart(4, '0')}.bin`);
      await writeSeededFile(path, size, options.seed * 100_003 + index);
      paths.push(path);
    }

    // the faults are what is tested, not the rate limit (its own benchmark); no HLS work either
    server = await startTestServer({ rateLimit: 1_000_000, conversions: false });
    proxy = await startFaultProxy(new URL(server.baseUrl).origin);
    const random = seededRandom(options.seed ^ 0x5eed);
    const menu = faultMenu(random);
    const picked = new Map<number, number>();
    let armed = false;
    const pick = (request: ProxiedRequestInfo) => {
      if (!armed || !request.path.startsWith('/api/v1/')) return -1;
      if (!picked.has(request.index))
        picked.set(request.index, random() < options.faultRate ? Math.floor(random() * menu.length) : -1);
      return picked.get(request.index)!;
    };
    menu.forEach((make, slot) => {
      // the proxy reads a rule's fault after its match said yes: each use gets fresh details (bytes, ms)
      const rule: FaultRule = {
        match: (request) => {
          if (pick(request) !== slot) return false;
          rule.fault = make();
          return true;
        },
        fault: make(),
        times: Infinity,
      };
      proxy!.addRule(rule);
    });

    const login = startCli(['login', '--base-url', `${proxy.url}/api/v1`], home, server.token);
    if ((await login.exited) !== 0) throw new Error(`login failed: ${login.output()}`);
    armed = true;

    const args = ['upload', ...paths, '--chunk-size', String(options.chunkSize), '--json'];
    if (options.bandwidth) args.push('--bandwidth', options.bandwidth);
    const exitCodes: Array<number | string> = [];
    const storedBytes = () =>
      server!.server.uploadLog
        .entries()
        .filter((entry) => entry.status >= 200 && entry.status < 300)
        .reduce((sum, entry) => sum + entry.bytes, 0);

    say('uploading; the uploader is killed with SIGKILL part-way');
    running = startCli(args, home);
    const first = running;
    const killAt = Math.floor(bytes * options.killAtFraction);
    let killedAtBytes: number | null = null;
    const ended = await waitFor(
      async () => {
        if (first.child.exitCode !== null) return 'exited';
        return storedBytes() >= killAt ? 'reached' : undefined;
      },
      Math.max(0, left()),
      'the kill point',
      20,
    ).catch(() => 'deadline');
    if (ended === 'reached') {
      killedAtBytes = storedBytes();
      first.child.kill('SIGKILL');
    } else if (ended === 'deadline') {
      first.child.kill('SIGKILL');
    }
    exitCodes.push(await first.exited);
    say(killedAtBytes === null ? `the uploader ended before the kill (${ended})` : 'killed; starting it again');

    let deadlinePassed = left() <= 0;
    if (!deadlinePassed) {
      running = startCli(args, home);
      const second = running;
      const timer = setTimeout(() => second.child.kill('SIGKILL'), Math.max(0, left()));
      const code = await second.exited;
      clearTimeout(timer);
      exitCodes.push(code);
      deadlinePassed = left() <= 0;
      if (code !== 0) say(`the second run ended with ${code}: ${second.output().slice(-2_000)}`);
    }
    running = undefined;
    armed = false;

    say('checking every file on the server');
    const listed = await listAllFiles(server);
    const byName = new Map<string, typeof listed>();
    for (const file of listed) byName.set(file.filename, [...(byName.get(file.filename) ?? []), file]);
    let duplicates = 0;
    let lost = 0;
    let mismatched = 0;
    for (const copies of byName.values()) duplicates += Math.max(0, copies.length - 1);
    for (const path of paths) {
      const copies = byName.get(path.split('/').at(-1)!) ?? [];
      if (copies.length === 0) {
        lost++;
        continue;
      }
      const local = await sha256File(path);
      for (const copy of copies) {
        if ((await sha256Url(`${server.fileHost}/${copy.id}/file`)) !== local) mismatched++;
      }
    }
    lost += mismatched;
    deadlinePassed ||= left() <= 0;

    const faults: Record<string, number> = {};
    for (const request of proxy.requests) {
      if (request.fault === null) continue;
      const kind = request.fault === 'status' ? `http-${request.status}` : request.fault;
      faults[kind] = (faults[kind] ?? 0) + 1;
    }
    const chunksNeeded = sizes.reduce((sum, size) => sum + Math.ceil(size / options.chunkSize), 0);
    const uploadRequests = proxy.requests.filter((request) => request.path === UPLOAD).length;
    const stored = new Map<string, number>();
    for (const entry of server.server.uploadLog.entries()) {
      if (entry.status < 200 || entry.status >= 300) continue;
      const key = `${entry.dzuuid ?? entry.fileName}#${entry.chunkIndex ?? 0}`;
      stored.set(key, (stored.get(key) ?? 0) + 1);
    }
    return {
      files: sizes.length,
      bytes,
      chunk_size: options.chunkSize,
      fault_rate: options.faultRate,
      faults,
      api_requests: proxy.requests.filter((request) => request.path.startsWith('/api/v1/')).length,
      upload_requests: uploadRequests,
      chunks_needed: chunksNeeded,
      retries: uploadRequests - chunksNeeded,
      chunks_resent: [...stored.values()].reduce((sum, count) => sum + count - 1, 0),
      killed_at_bytes: killedAtBytes,
      duplicates,
      lost,
      mismatched,
      exit_codes: exitCodes,
      deadline_passed: deadlinePassed,
      wall_s: Math.round((performance.now() - started) / 100) / 10,
    };
  } finally {
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    await proxy?.close();
    await server?.close();
    await work.remove();
  }
}
