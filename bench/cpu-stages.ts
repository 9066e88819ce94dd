import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';

/**
 * Where a daemon's CPU went, by stage of a file's way (watch, settle,
 * fingerprint, SQLite, request, …), from a V8 CPU profile (`--cpu-prof`) of
 * the bundle: each sample goes to the stage of the innermost frame of its
 * stack that one of STAGES names, its source found through the bundle's
 * source maps; what no stage names is Node's own work (I/O, timers) or V8's
 * (garbage collection, compiling). Only the samples taken within a window
 * count (the run's, not the daemon's start). A sample is taken whenever the
 * main thread is not idle, so a synchronous call that waits (SQLite syncing
 * at a checkpoint) counts as CPU of its stage: a share, not a measure of CPU.
 */
const STAGES: ReadonlyArray<[stage: string, sources: RegExp]> = [
  ['watch (chokidar, walk)', /node_modules\/(chokidar|readdirp)\/|src-main\/sync\/folder-(watcher|watches|walk)\.ts/],
  ['settle (stat, open)', /src-main\/sync\/stability\.ts/],
  ['fingerprint', /src-main\/common\/file-fingerprint\.ts/],
  ['writers check (/proc)', /src-main\/uploads\/(file-writers|writer-waits)\.ts/],
  ['zod parse', /node_modules\/zod\//],
  [
    'SQLite (store, index)',
    /node_modules\/better-sqlite3\/|src-main\/storage\/|src-main\/uploads\/upload-(store|rows)\.ts|src-main\/sync\/(sync-index|declined-files)\.ts/,
  ],
  ['request (undici, API client)', /node_modules\/undici\/|src-main\/api-client\//],
  ['log', /src-main\/common\/file-log\.ts/],
  [
    'events (emitters, listeners, socket)',
    /src-main\/(core|headless|events)\/|src-main\/common\/disposable\.ts|src-shared\/ipc\/|node_modules\/ws\//,
  ],
  ['queue (worker, states)', /src-main\/uploads\//],
  ['intake, folder status', /src-main\/sync\//],
  // helpers (src-main/common: opening a file, a clock) count in the stage of who called them
  ['other app code', /src-main\/(?!common\/)|src-shared\//],
];
const V8_FRAMES = new Map([
  ['(garbage collector)', 'GC'],
  ['(program)', 'V8 and native (compile, SQLite engine, syscalls)'],
]);
const NODE = 'Node internals (I/O, timers, streams)';

const ProfileSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.int(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.int(), columnNumber: z.int() }),
      children: z.array(z.int()).optional(),
    }),
  ),
  startTime: z.number(),
  samples: z.array(z.int()),
  timeDeltas: z.array(z.number()),
});

export interface StageShare {
  stage: string;
  /** share of the window's busy samples, in percent */
  share: number;
  /** milliseconds per file: the share of `cpuMsPerFile` */
  msPerFile: number;
}

/**
 * The stages' shares of the samples of `profilePath` taken between `fromUs`
 * and `toUs` (CLOCK_MONOTONIC µs, as `process.hrtime` and V8 count), the
 * largest first, each also as milliseconds of `cpuMsPerFile`.
 */
export function cpuStages(profilePath: string, window: { fromUs: number; toUs: number }, cpuMsPerFile: number) {
  const profile = ProfileSchema.parse(JSON.parse(readFileSync(profilePath, 'utf8')));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const sources = new SourceLookup();
  const stageOfNode = new Map<number, string | null>();
  const stageOf = (id: number): string | null => {
    if (stageOfNode.has(id)) return stageOfNode.get(id)!;
    const { callFrame } = byId.get(id)!;
    if (callFrame.functionName === '(idle)') return null;
    let stage = V8_FRAMES.get(callFrame.functionName);
    for (let at: number | undefined = id; stage === undefined && at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const source = sources.of(frame.url, frame.lineNumber, frame.columnNumber);
      stage = source === null ? undefined : STAGES.find(([, pattern]) => pattern.test(source))?.[0];
    }
    stageOfNode.set(id, stage ?? NODE);
    return stage ?? NODE;
  };
  const counts = new Map<string, number>();
  let time = profile.startTime;
  let busy = 0;
  profile.samples.forEach((id, index) => {
    time += profile.timeDeltas[index]!;
    if (time < window.fromUs || time > window.toUs) return;
    const stage = stageOf(id);
    if (stage === null) return;
    counts.set(stage, (counts.get(stage) ?? 0) + 1);
    busy++;
  });
  if (busy === 0) throw new Error(`no busy sample of ${profilePath} in the run's window`);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([stage, count]): StageShare => ({
      stage,
      share: (count / busy) * 100,
      msPerFile: (count / busy) * cpuMsPerFile,
    }));
}

/** The original source file of a bundle's position, through the bundle's linked source map. */
class SourceLookup {
  private readonly maps = new Map<string, SourceMap | null>();

  of(url: string, line: number, column: number): string | null {
    if (!url.startsWith('file://')) return null;
    if (!url.includes('/dist/')) return url;
    if (!this.maps.has(url)) this.maps.set(url, load(url));
    const map = this.maps.get(url)!;
    const entry = map?.findEntry(line, column);
    return entry && 'originalSource' in entry ? entry.originalSource : null;
  }
}

function load(url: string): SourceMap | null {
  try {
    return new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as SourceMapPayload);
  } catch {
    return null;
  }
}
