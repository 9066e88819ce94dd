import { describe, expect, it } from 'vitest';
import {
  README_END,
  README_START,
  markdownTable,
  spliceReadme,
  verdicts,
  type Results,
  type Target,
} from '../../../bench/results.js';

const TARGETS: Target[] = [
  { bench: 'upload-throughput', figure: 'client_1_vs_curl_1.median', label: 'client ÷ curl', op: '>=', value: 1 },
  { bench: 'watcher-scan', figure: 'rss_peak_mb', label: 'RSS peak (MB)', op: '<=', value: 250 },
  {
    bench: 'rate-limited-small-files',
    figure: 'status_429',
    label: '429 answers',
    op: '==',
    value: 0,
    beside: [
      { figure: 'requests', label: 'of requests' },
      // a figure the run did not print is left out
      { figure: 'retries', label: 'of retries' },
      { figure: 'files', label: 'of files' },
    ],
  },
  { bench: 'queue-render', figure: 'first_rows_ms', label: 'first rows (ms)', op: '<=', value: 200 },
  // an information row: no target of its own
  { bench: 'upload-throughput', figure: 'node_floor_1_cpu_vs_curl_1_cpu.median', label: 'floor CPU ÷ curl’s' },
];

const results: Results = {
  machine: { cpus: 2, node: 'v20.20.0' },
  runs: {
    'upload-throughput': {
      ranAt: '2026-11-22T10:00:00.000Z',
      figures: {
        bench: 'upload-throughput',
        client_1_vs_curl_1: { median: 0.98, min: 0.9, max: 1.1 },
        node_floor_1_cpu_vs_curl_1_cpu: { median: 3.2, min: 2.9, max: 3.5 },
      },
    },
    'watcher-scan': { ranAt: '2026-11-21T09:00:00.000Z', figures: { bench: 'watcher-scan', rss_peak_mb: 240.5 } },
    'rate-limited-small-files': {
      ranAt: '2026-11-21T09:00:00.000Z',
      figures: { bench: 'rate-limited-small-files', status_429: 0, requests: 200, files: 200 },
    },
  },
};

describe('the benchmark results', () => {
  it('holds each figure against its target, a bench that did not run against none, and an information row not at all', () => {
    expect(verdicts(results, TARGETS).map(({ measured, met }) => [measured, met])).toEqual([
      [0.98, false],
      [240.5, true],
      [0, true],
      [null, false],
      [3.2, null],
    ]);
  });

  it('shows a spread as median (min–max), the target, the verdict and the day of the run', () => {
    const rows = markdownTable(results, TARGETS).split('\n');
    expect(rows[2]).toBe('| `upload-throughput` | client ÷ curl | 0.98 (0.9–1.1) | ≥ 1 | **missed** | 2026-11-22 |');
    expect(rows[3]).toBe('| `watcher-scan` | RSS peak (MB) | 240.5 | ≤ 250 | met | 2026-11-21 |');
    // figures for scale beside the measured one
    expect(rows[4]).toBe(
      '| `rate-limited-small-files` | 429 answers | 0; of requests: 200; of files: 200 | = 0 | met | 2026-11-21 |',
    );
    expect(rows[5]).toBe('| `queue-render` | first rows (ms) | not run | ≤ 200 | – |  |');
    // an information row: its figure, no target, never missed
    expect(rows[6]).toBe('| `upload-throughput` | floor CPU ÷ curl’s | 3.2 (2.9–3.5) | – | information | 2026-11-22 |');
  });

  it('replaces only what is between the README markers, and says so when they are missing', () => {
    const readme = `# Title\n\n${README_START}\nold table\n${README_END}\n\nAfter.\n`;
    expect(spliceReadme(readme, 'new table')).toBe(
      `# Title\n\n${README_START}\n\nnew table\n\n${README_END}\n\nAfter.\n`,
    );
    expect(() => spliceReadme('# Title\n', 'new table')).toThrow('README.md has no <!-- bench-results:start -->');
  });
});
