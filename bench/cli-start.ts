import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildCli } from '../scripts/build-cli.js';
import { Engine } from '../src-main/core/engine.js';
import { MEDIA_SYNC_BIN, roundedSpread, serveArgs, startServerProcess } from './bench-support.js';
import { interleave, roundRatios, spread, type Sample } from './interleave.js';

/**
 * How long `media-sync` takes to start and answer, as a person runs it
 * (bin/media-sync.js on the bundle `npm ci` builds), beside a bare
 * `node -e 0` measured in the same rounds: `--help`, and `queue ls` on a data
 * folder with a signed-in account and ITEMS items in its queue, first with no
 * owner (the command takes the folder and opens its own core), then beside a
 * running `media-sync serve` (the command asks it over its socket). Each run
 * is a whole process under GNU time: wall seconds as this process sees them,
 * user + system CPU and peak RSS as the kernel counted them. Contenders are
 * interleaved in rotated rounds (interleave.ts); ratios are taken within each
 * round. Targets (issue 22): `--help` at most 2×, `queue ls` at most 3× a bare
 * Node start.
 */
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 15);
const ITEMS = 20;
const TIME = '/usr/bin/time';

interface RunSample extends Sample {
  rssMb: number;
}

if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed to read each run's CPU and peak memory.`);
await buildCli();
const server = await startServerProcess();
const dataDir = await mkdtemp(join(tmpdir(), 'bench-cli-start-'));
try {
  await fillDataFolder();
  const env = { ...process.env, MEDIA_SYNC_HOME: dataDir, MEDIA_SYNC_TOKEN: '' };
  const contender = (name: string, command: string[]) => ({ name, run: () => timed(command, env) });
  const bare = contender('bare', [process.execPath, '-e', '0']);
  const alone = await interleave(
    [
      bare,
      contender('help', [process.execPath, MEDIA_SYNC_BIN, '--help']),
      contender('ls', [process.execPath, MEDIA_SYNC_BIN, 'queue', 'ls']),
    ],
    ROUNDS,
  );
  const owner = await startOwner(env);
  let beside: Map<string, RunSample[]>;
  try {
    beside = await interleave([bare, contender('ls', [process.execPath, MEDIA_SYNC_BIN, 'queue', 'ls'])], ROUNDS);
  } finally {
    owner.kill('SIGTERM');
    await once(owner, 'exit');
  }
  const ratios = (samples: Map<string, RunSample[]>, name: string) => ({
    wall: roundedSpread(roundRatios(seconds(samples, name), seconds(samples, 'bare')), 2),
    cpu: roundedSpread(roundRatios(cpu(samples, name), cpu(samples, 'bare')), 2),
  });
  const help = ratios(alone, 'help');
  const ls = ratios(alone, 'ls');
  const lsBeside = ratios(beside, 'ls');
  console.log(
    JSON.stringify({
      bench: 'cli-start',
      rounds: ROUNDS,
      queue_items: ITEMS,
      bare: figures(alone.get('bare')!),
      help: figures(alone.get('help')!),
      queue_ls: figures(alone.get('ls')!),
      bare_beside_owner: figures(beside.get('bare')!),
      queue_ls_beside_owner: figures(beside.get('ls')!),
      help_vs_bare: help.wall,
      help_cpu_vs_bare: help.cpu,
      queue_ls_vs_bare: ls.wall,
      queue_ls_cpu_vs_bare: ls.cpu,
      queue_ls_beside_owner_vs_bare: lsBeside.wall,
      queue_ls_beside_owner_cpu_vs_bare: lsBeside.cpu,
    }),
  );
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}

/** A signed-in account and ITEMS small files waiting in a paused queue, as the engine keeps them. */
async function fillDataFolder(): Promise<void> {
  const engine = await Engine.open({ dataDir });
  try {
    const { account } = await engine.signIn(server.baseUrl, server.token);
    await engine.queue.pauseAll(null);
    for (let i = 0; i < ITEMS; i++) {
      const path = join(dataDir, `clip-${i}.mp4`);
      await writeFile(path, `clip ${i} `.repeat(100));
      await engine.queue.enqueue({ accountId: account.id, path });
    }
  } finally {
    await engine.close();
  }
}

/** `media-sync serve` on the data folder, once it listens: the owner `queue ls` asks beside it. */
async function startOwner(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, serveArgs(dataDir), {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith('Media Sync is running at')) break;
  }
  return child;
}

/** One whole run of `command` under GNU time: wall seconds from here, CPU and peak RSS from the kernel. */
async function timed(command: string[], env: NodeJS.ProcessEnv): Promise<RunSample> {
  const started = performance.now();
  const child = spawn(TIME, ['-f', '%U %S %M', ...command], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (piece: Buffer) => (stderr += piece.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  const [user, system, rssKb] = (stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  if (code !== 0 || rssKb === undefined || Number.isNaN(rssKb)) {
    throw new Error(`${command.join(' ')} exited with ${code}: ${stderr}`);
  }
  return { seconds, cpuSeconds: user! + system!, rssMb: rssKb / 1024 };
}

function seconds(samples: Map<string, RunSample[]>, name: string): number[] {
  return samples.get(name)!.map((sample) => sample.seconds);
}

function cpu(samples: Map<string, RunSample[]>, name: string): number[] {
  return samples.get(name)!.map((sample) => sample.cpuSeconds);
}

function figures(samples: RunSample[]) {
  const ms = (values: number[]) => roundedSpread(spread(values.map((value) => value * 1000)), 0);
  return {
    wall_ms: ms(samples.map((s) => s.seconds)),
    cpu_ms: ms(samples.map((s) => s.cpuSeconds)),
    rss_mb: roundedSpread(spread(samples.map((s) => s.rssMb)), 1),
  };
}
