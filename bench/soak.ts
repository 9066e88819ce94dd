import { statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { API_LIMITS } from '../src-shared/api/index.js';
import { MB } from './bench-support.js';
import { runSoak, soakPassed, soakSizes, type SoakOptions } from './soak-run.js';

/**
 * `npm run soak`: faults at scale, held as numbers (issue 12 §3). Seeded files
 * of 1–200 MB go through a proxy that breaks ~20 % of requests, the uploader
 * is killed with SIGKILL once and started again, and every file must be on
 * the server once and byte-identical, all within a hard deadline. Prints a
 * table and one JSON line, writes bench/soak-results.json, exits 1 when a file
 * is lost or doubled or the deadline passed.
 *
 * SOAK_FILES (200), SOAK_MIN_MB (1), SOAK_MAX_MB (200), SOAK_CHUNK_MB (90),
 * SOAK_FAULT_RATE (0.2), SOAK_DEADLINE_S (600), SOAK_SEED (12).
 */
const EnvSchema = z.object({
  SOAK_FILES: z.coerce.number().int().min(1).default(200),
  SOAK_MIN_MB: z.coerce.number().positive().default(1),
  SOAK_MAX_MB: z.coerce.number().positive().default(200),
  SOAK_CHUNK_MB: z.coerce
    .number()
    .min(1)
    .max(API_LIMITS.chunkSizeBytes / MB)
    .default(API_LIMITS.chunkSizeBytes / MB),
  SOAK_FAULT_RATE: z.coerce.number().min(0).max(0.9).default(0.2),
  SOAK_DEADLINE_S: z.coerce.number().positive().max(600).default(600),
  SOAK_SEED: z.coerce.number().int().default(12),
});
const env = EnvSchema.parse(process.env);

const options: SoakOptions = {
  files: env.SOAK_FILES,
  minBytes: Math.round(env.SOAK_MIN_MB * MB),
  maxBytes: Math.round(Math.max(env.SOAK_MIN_MB, env.SOAK_MAX_MB) * MB),
  chunkSize: Math.round(env.SOAK_CHUNK_MB * MB),
  faultRate: env.SOAK_FAULT_RATE,
  killAtFraction: 0.4,
  deadlineMs: env.SOAK_DEADLINE_S * 1000,
  seed: env.SOAK_SEED,
  progress: (line) => console.error(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`),
};

// each byte lives up to three times at once: the file, the server's chunks, the assembled copy
const free = await freeBytes(tmpdir());
const room = (free - 2e9) / 3;
let total = soakSizes(options).reduce((sum, size) => sum + size, 0);
while (total > room && options.maxBytes > options.minBytes) {
  options.maxBytes = Math.max(options.minBytes, Math.floor(options.maxBytes * 0.8));
  total = soakSizes(options).reduce((sum, size) => sum + size, 0);
}
if (options.maxBytes < env.SOAK_MAX_MB * MB) {
  console.error(
    `Only ${(free / 1e9).toFixed(1)} GB free in ${tmpdir()}: files scaled down to at most ${(options.maxBytes / MB).toFixed(0)} MB.`,
  );
}
if (total > room) throw new Error(`Not enough disk for the soak: ${(total / 1e9).toFixed(1)} GB needed three times.`);
console.error(
  `Soak: ${options.files} files of ${options.minBytes / MB}–${(options.maxBytes / MB).toFixed(0)} MB (${(total / 1e9).toFixed(2)} GB), ` +
    `chunks of ${options.chunkSize / MB} MB${options.chunkSize === API_LIMITS.chunkSizeBytes ? " (the app's own)" : ' (smaller than the app’s 90 MB)'}, ` +
    `${options.faultRate * 100} % of requests broken, deadline ${env.SOAK_DEADLINE_S} s, seed ${options.seed}.`,
);

const figures = await runSoak(options);
const passed = soakPassed(figures);
const rows: Array<[string, string]> = [
  ['files', String(figures.files)],
  ['bytes', `${figures.bytes} (${(figures.bytes / 1e9).toFixed(2)} GB)`],
  ['chunk size', `${figures.chunk_size / MB} MB`],
  [
    'faults injected',
    `${Object.values(figures.faults).reduce((a, b) => a + b, 0)} of ${figures.api_requests} API requests: ` +
      Object.entries(figures.faults)
        .sort()
        .map(([kind, count]) => `${kind} ${count}`)
        .join(', '),
  ],
  ['upload requests', `${figures.upload_requests} for ${figures.chunks_needed} chunks`],
  ['retries', String(figures.retries)],
  ['chunks re-sent', String(figures.chunks_resent)],
  [
    'kill -9',
    figures.killed_at_bytes === null
      ? 'did not happen'
      : `at ${(figures.killed_at_bytes / 1e6).toFixed(0)} MB stored, then restarted`,
  ],
  ['uploader exits', figures.exit_codes.join(', ')],
  ['duplicates', String(figures.duplicates)],
  ['lost', `${figures.lost}${figures.mismatched ? ` (${figures.mismatched} with other bytes)` : ''}`],
  ['wall time', `${figures.wall_s} s${figures.deadline_passed ? ' — DEADLINE PASSED' : ''}`],
  ['result', passed ? 'PASS' : 'FAIL'],
];
const width = Math.max(...rows.map(([name]) => name.length));
for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
console.log(JSON.stringify({ bench: 'soak', ...figures, passed }));

// beside bench/results.json, not in it: the soak is not part of `npm run bench` (it takes ten minutes)
await writeFile(
  join(import.meta.dirname, 'soak-results.json'),
  `${JSON.stringify({ measured_at: new Date().toISOString(), node: process.version, ...figures, passed }, null, 2)}\n`,
);
process.exitCode = passed ? 0 : 1;

async function freeBytes(dir: string): Promise<number> {
  const stats = await statfs(dir);
  return stats.bavail * stats.bsize;
}
