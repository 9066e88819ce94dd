import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { format, resolveConfig } from 'prettier';
import { parseJsonOrUndefined } from '../src-main/common/parse-json.js';
import { FiguresSchema, ResultsSchema, markdownTable, spliceReadme, verdicts, type Results } from './results.js';

/**
 * `npm run bench`: each benchmark in its own process (so one's memory does not
 * count in another's RSS), one after the other (so they do not share the two
 * cores). Each prints one JSON line of figures; they are kept in
 * bench/results.json (a partial run, `npm run bench -- rss`, replaces only
 * what it ran), and the table of targets is written into the README.
 */
const BENCHES = [
  'upload-throughput.ts',
  'upload-rss.ts',
  'rate-limited-small-files.ts',
  'many-files.ts',
  'watcher-scan.ts',
  'big-folder.ts',
  'polled-folder.ts',
  'detection-latency.ts',
  'queue-render.ts',
  'queue-busy.ts',
  'cli-start.ts',
];
const RESULTS = 'bench/results.json';
const README = 'README.md';
const only = process.argv.slice(2);

const results: Results = existsSync(RESULTS)
  ? ResultsSchema.parse(JSON.parse(await readFile(RESULTS, 'utf8')))
  : { runs: {}, machine: { cpus: 0, node: '' } };
results.machine = { cpus: availableParallelism(), node: process.version };

let failed = 0;
for (const bench of BENCHES.filter((name) => only.length === 0 || only.some((o) => name.includes(o)))) {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', `bench/${bench}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout })) {
    console.log(line);
    const figures = FiguresSchema.safeParse(parseJsonOrUndefined(line));
    if (figures.success) results.runs[figures.data.bench] = { ranAt: new Date().toISOString(), figures: figures.data };
  }
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) {
    failed++;
    console.error(`${bench} exited with ${code}`);
  }
}

await writeFile(RESULTS, await pretty(JSON.stringify(results), RESULTS));
const table = markdownTable(results);
await writeFile(README, await pretty(spliceReadme(await readFile(README, 'utf8'), table), README));
console.log(`\n${table}\n`);
const missed = verdicts(results).filter((verdict) => verdict.measured !== null && verdict.met === false);
console.log(`${missed.length} of the measured targets missed; figures in ${RESULTS} and ${README}.`);
process.exitCode = failed === 0 ? 0 : 1;

/** As the repository's Prettier would write it, so `npm run lint` stays clean after a run. */
async function pretty(text: string, path: string): Promise<string> {
  return format(text, { ...(await resolveConfig(path)), filepath: path });
}
