import { spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * `npm run bench`: each benchmark in its own process (so one's memory does not
 * count in another's RSS), one after the other (so they do not share the two
 * cores). Each prints one JSON line of figures.
 */
const BENCHES = [
  'upload-throughput.ts',
  'upload-rss.ts',
  'rate-limited-small-files.ts',
  'watcher-scan.ts',
  'queue-render.ts',
];
const only = process.argv.slice(2);

let failed = 0;
for (const bench of BENCHES.filter((name) => only.length === 0 || only.some((o) => name.includes(o)))) {
  const child = spawn(process.execPath, ['--import', 'tsx', `bench/${bench}`], { stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) {
    failed++;
    console.error(`${bench} exited with ${code}`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
