import * as z from 'zod';

/**
 * What `npm run bench` keeps of a run: every benchmark's figures (its JSON
 * line), each target held against them, as bench/results.json and as the
 * Markdown table the README embeds between two markers, so the README's
 * figures are always the last run's.
 */

/**
 * A row of the table: a figure held against a target, or, with no `op` and
 * `value`, an information row that shows a figure beside the targets it
 * explains (what Node alone costs beside the app's CPU) and is never missed.
 */
export type Target = {
  bench: string;
  /** a path into the bench's figures: `client_1_vs_curl_1.median` */
  figure: string;
  /** what it means, for the table */
  label: string;
  /** figures shown beside the measured one for scale: what the same work costs without the app, or its parts */
  beside?: readonly { figure: string; label: string }[];
} & ({ op: '>=' | '<=' | '=='; value: number } | { op?: undefined; value?: undefined });

export const TARGETS: readonly Target[] = [
  {
    bench: 'upload-throughput',
    figure: 'client_1_vs_curl_1.median',
    label: 'client ÷ curl, 1 chunk in flight (median of rounds)',
    op: '>=',
    value: 0.95,
  },
  {
    bench: 'upload-throughput',
    figure: 'client_3_vs_curl_3.median',
    label: 'client ÷ curl, 3 chunks in flight (the limit)',
    op: '>=',
    value: 0.92,
  },
  {
    bench: 'upload-throughput',
    figure: 'client_1_cpu_vs_curl_1_cpu.median',
    label: 'client CPU per GB ÷ curl’s, 1 in flight',
    op: '<=',
    value: 1.15,
  },
  {
    bench: 'upload-throughput',
    figure: 'client_3_cpu_vs_curl_3_cpu.median',
    label: 'client CPU per GB ÷ curl’s, 3 in flight',
    op: '<=',
    value: 1.15,
  },
  {
    bench: 'upload-throughput',
    figure: 'floor_1_cpu_vs_curl_1_cpu.median',
    label: 'the Node floor’s CPU per GB ÷ curl’s (no app, no undici: a socket written by hand), 1 in flight',
    beside: [
      { figure: 'floor_1_cpu_s_per_gb.median', label: 'floor s/GB' },
      { figure: 'curl_1_cpu_s_per_gb.median', label: 'curl s/GB' },
    ],
  },
  {
    bench: 'upload-throughput',
    figure: 'floor_3_cpu_vs_curl_3_cpu.median',
    label: 'the same, 3 in flight',
    beside: [
      { figure: 'floor_3_cpu_s_per_gb.median', label: 'floor s/GB' },
      { figure: 'curl_3_cpu_s_per_gb.median', label: 'curl s/GB' },
    ],
  },
  {
    bench: 'upload-throughput',
    figure: 'client_1_cpu_vs_floor_1_cpu.median',
    label: 'client CPU per GB ÷ the Node floor’s, 1 in flight',
    beside: [{ figure: 'client_3_cpu_vs_floor_3_cpu.median', label: '3 in flight' }],
  },
  { bench: 'upload-rss', figure: 'rss_growth_mb', label: 'RSS growth uploading 4 GB (MB)', op: '<=', value: 64 },
  {
    bench: 'rate-limited-small-files',
    figure: 'requests_per_file',
    label: 'requests per small file',
    op: '<=',
    value: 1.0,
  },
  { bench: 'rate-limited-small-files', figure: 'status_429', label: '429 answers', op: '==', value: 0 },
  {
    bench: 'rate-limited-small-files',
    figure: 'vs_ideal',
    label: 'time ÷ what the rate limit allows',
    op: '<=',
    value: 1.05,
  },
  {
    bench: 'many-files',
    figure: 'full_vs_empty.median',
    label: '3,000 files of 8 KB, 100,000 finished in the queue ÷ none, files/s',
    op: '>=',
    value: 0.9,
    beside: [{ figure: 'client_full_files_s.median', label: 'files/s' }],
  },
  {
    bench: 'many-files',
    figure: 'empty_vs_curl.median',
    label: 'the same, client ÷ curl with 3 in flight, files/s',
    op: '>=',
    value: 0.7,
    beside: [{ figure: 'curl_files_s.median', label: 'curl files/s' }],
  },
  {
    bench: 'many-files',
    figure: 'empty_cpu_vs_curl_cpu.median',
    label: 'the same, client CPU per file ÷ curl’s',
    op: '<=',
    value: 4,
    beside: [
      { figure: 'client_empty_cpu_ms_per_file.median', label: 'client ms' },
      { figure: 'curl_cpu_ms_per_file.median', label: 'curl ms' },
    ],
  },
  {
    bench: 'many-files',
    figure: 'empty_cpu_vs_node_floor_cpu.median',
    label: 'the same, client CPU per file ÷ the Node floor’s (a plain Node loop, undici, 3 in flight)',
    beside: [{ figure: 'node_floor_cpu_ms_per_file.median', label: 'floor ms' }],
  },
  {
    bench: 'many-files',
    figure: 'empty_vs_node_floor.median',
    label: 'the same, client ÷ the Node floor, files/s',
    beside: [{ figure: 'node_floor_files_s.median', label: 'floor files/s' }],
  },
  {
    bench: 'many-files',
    figure: 'node_floor_cpu_vs_curl_cpu.median',
    label: 'the same, the Node floor’s CPU per file ÷ curl’s',
  },
  {
    bench: 'many-files',
    figure: 'empty_with_server_cpu_vs_curl_with_server_cpu.median',
    label: 'the same, client + server CPU per file ÷ curl + server’s (both share this machine’s 2 cores)',
    beside: [
      { figure: 'client_empty_server_cpu_ms_per_file.median', label: 'server ms, client’s requests' },
      { figure: 'curl_server_cpu_ms_per_file.median', label: 'curl’s' },
    ],
  },
  {
    bench: 'many-files',
    figure: 'rss_growth_mb',
    label: 'daemon RSS after 12,000 files − after 3,000, each after a full garbage collection (MB)',
    op: '<=',
    value: 20,
    beside: [{ figure: 'rss_growth_before_gc_mb', label: 'read right after the run, garbage included' }],
  },
  { bench: 'watcher-scan', figure: 'seconds', label: '100,000 files reported (s)', op: '<=', value: 30 },
  { bench: 'watcher-scan', figure: 'rss_peak_mb', label: 'RSS peak of that first scan (MB)', op: '<=', value: 250 },
  {
    bench: 'polled-folder',
    figure: 'polled_cpu_pct',
    label: 'a folder of 10,000 files checked by polling (every 60 s), idle: CPU, % of one core',
    op: '<=',
    value: 1,
    beside: [
      { figure: 'events_idle_cpu_pct', label: 'watched by inotify, idle' },
      { figure: 'polls_in_window', label: 'polls in the window' },
    ],
  },
  {
    bench: 'detection-latency',
    figure: 'p95_beyond_settle_ms',
    label: 'new file queued, p95 beyond the settle window (ms)',
    op: '<=',
    value: 250,
  },
  {
    bench: 'big-folder',
    figure: 'big_cpu_ms_per_new_file.median',
    label: 'a new file in a watched folder of 20,000: the watcher’s CPU (ms)',
    beside: [
      { figure: 'empty_cpu_ms_per_new_file.median', label: 'in an empty folder (ms)' },
      { figure: 'big_vs_empty.median', label: 'ratio' },
    ],
  },
  {
    bench: 'queue-render',
    figure: 'main_chunk_kb',
    label: 'the page’s main chunk, minified (kB)',
    op: '<=',
    value: 300,
    beside: [{ figure: 'first_view_script_kb', label: 'with the chunks it preloads' }],
  },
  {
    bench: 'queue-render',
    figure: 'first_rows_ms.median',
    label: 'Queue of 10,000: first rows after navigation, nothing cached (ms)',
    op: '<=',
    value: 300,
  },
  {
    bench: 'queue-render',
    figure: 'first_rows_reopened_ms.median',
    label: 'the same, the page opened again (assets cached) (ms)',
    op: '<=',
    value: 200,
  },
  {
    bench: 'queue-render',
    figure: 'scroll_p95_vs_bare.median',
    label: 'Queue scrolling: frame p95 ÷ a bare page’s of 10,000 static rows (median of rounds)',
    op: '<=',
    value: 1.3,
    beside: [
      { figure: 'frame_ms_p95', label: 'the app (ms)' },
      { figure: 'bare_frame_ms_p95', label: 'the bare page (ms)' },
    ],
  },
  {
    bench: 'queue-render',
    figure: 'progress_app_js_ms_p95',
    label: 'Queue: the app’s own JavaScript per progress batch at 10 Hz, p95 (ms)',
    op: '<=',
    value: 1,
  },
  {
    bench: 'queue-render',
    figure: 'progress_over_floor_ms_p95',
    label: 'Queue: main-thread CPU per progress batch above a bare page’s, p95 (ms)',
    op: '<=',
    value: 1.5,
    beside: [
      { figure: 'progress_update_ms_p95', label: 'the window' },
      { figure: 'progress_floor_ms_p95', label: 'the bare page' },
    ],
  },
  {
    bench: 'queue-render',
    figure: 'progress_batch_only.app_js_ms_p95',
    label: 'the same, the windows of a batch alone (no words drawn again): the app’s JavaScript, p95 (ms)',
    beside: [
      { figure: 'progress_batch_only.over_floor_ms_p95', label: 'main thread above the bare page’s p95 (ms)' },
      { figure: 'progress_batch_only.windows', label: 'windows' },
    ],
  },
  {
    bench: 'queue-render',
    figure: 'progress_with_words.app_js_ms_p95',
    label:
      'the same, the windows in which a row’s words or the speed were drawn again too: the app’s JavaScript, p95 (ms)',
    beside: [
      { figure: 'progress_with_words.over_floor_ms_p95', label: 'main thread above the bare page’s p95 (ms)' },
      { figure: 'progress_with_words.windows', label: 'windows' },
    ],
  },
  {
    bench: 'queue-busy',
    figure: 'page_ms_per_file.median',
    label: 'Queue open while 300 small files upload: the page’s main thread per file (ms)',
    beside: [
      { figure: 'page_script_ms_per_file.median', label: 'its JavaScript (ms)' },
      { figure: 'messages_per_file.median', label: 'socket messages per file' },
    ],
  },
  {
    bench: 'queue-busy',
    figure: 'daemon_page_open_vs_no_page.median',
    label: 'the same, the daemon’s CPU per file with the page open ÷ with none',
    beside: [
      { figure: 'daemon_cpu_ms_per_file_page_open.median', label: 'open (ms)' },
      { figure: 'daemon_cpu_ms_per_file_no_page.median', label: 'none (ms)' },
    ],
  },
  {
    bench: 'cli-start',
    figure: 'help_vs_bare.median',
    label: '`media-sync --help` ÷ `node -e 0`, wall (median of rounds)',
    op: '<=',
    value: 2,
    beside: [{ figure: 'help_cpu_vs_bare.median', label: 'CPU' }],
  },
  {
    bench: 'cli-start',
    figure: 'queue_ls_vs_bare.median',
    label: '`media-sync queue ls`, no owner (its own core) ÷ `node -e 0`',
    op: '<=',
    value: 3,
    beside: [{ figure: 'queue_ls_cpu_vs_bare.median', label: 'CPU' }],
  },
  {
    bench: 'cli-start',
    figure: 'queue_ls_beside_owner_vs_bare.median',
    label: '`media-sync queue ls` beside `media-sync serve` ÷ `node -e 0`',
    op: '<=',
    value: 3,
    beside: [{ figure: 'queue_ls_beside_owner_cpu_vs_bare.median', label: 'CPU' }],
  },
];

export const FiguresSchema = z.looseObject({ bench: z.string() });
export type Figures = z.infer<typeof FiguresSchema>;

export const ResultsSchema = z.object({
  /** per bench: when it last ran and what it printed */
  runs: z.record(z.string(), z.object({ ranAt: z.string(), figures: FiguresSchema })),
  machine: z.object({ cpus: z.number(), node: z.string() }),
});
export type Results = z.infer<typeof ResultsSchema>;

export type Verdict = Target & {
  measured: number | null;
  /** null for an information row */
  met: boolean | null;
  ranAt: string | null;
};

export function figureAt(figures: unknown, path: string): number | null {
  let value: unknown = figures;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'number' ? value : null;
}

export function verdicts(results: Results, targets: readonly Target[] = TARGETS): Verdict[] {
  return targets.map((target) => {
    const run = results.runs[target.bench];
    const measured = run ? figureAt(run.figures, target.figure) : null;
    const met =
      target.op === undefined
        ? null
        : measured !== null &&
          (target.op === '>='
            ? measured >= target.value
            : target.op === '<='
              ? measured <= target.value
              : measured === target.value);
    return { ...target, measured, met, ranAt: run?.ranAt ?? null };
  });
}

/** A spread figure `{median, min, max}` as "median (min–max)"; a number as it is. */
function shown(figures: unknown, path: string): string {
  const parent = path.endsWith('.median') ? path.slice(0, -'.median'.length) : null;
  const measured = figureAt(figures, path);
  if (measured === null) return 'not run';
  if (parent === null) return String(measured);
  const min = figureAt(figures, `${parent}.min`);
  const max = figureAt(figures, `${parent}.max`);
  return min === null || max === null ? String(measured) : `${measured} (${min}–${max})`;
}

const OP_SIGN = { '>=': '≥', '<=': '≤', '==': '=' } as const;

export function markdownTable(results: Results, targets: readonly Target[] = TARGETS): string {
  const rows = verdicts(results, targets).map((verdict) => {
    const figures = results.runs[verdict.bench]?.figures;
    const measured = figures ? shown(figures, verdict.figure) : 'not run';
    const scale = (verdict.beside ?? [])
      .map(({ figure, label }) => [label, figures ? figureAt(figures, figure) : null] as const)
      .filter(([, value]) => value !== null)
      .map(([label, value]) => `; ${label}: ${value}`)
      .join('');
    const met =
      verdict.met === null ? 'information' : verdict.measured === null ? '–' : verdict.met ? 'met' : '**missed**';
    const target = verdict.op === undefined ? '–' : `${OP_SIGN[verdict.op]} ${verdict.value}`;
    const ranOn = verdict.ranAt?.slice(0, 10) ?? '';
    return `| \`${verdict.bench}\` | ${verdict.label} | ${measured}${scale} | ${target} | ${met} | ${ranOn} |`;
  });
  return [
    '| benchmark | figure | last run: median (min–max) | target | | run on |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

export const README_START = '<!-- bench-results:start -->';
export const README_END = '<!-- bench-results:end -->';

/** The README with the text between the two markers replaced; an error if they are missing. */
export function spliceReadme(readme: string, table: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${README_START} … ${README_END} section.`);
  return `${readme.slice(0, start + README_START.length)}\n\n${table}\n\n${readme.slice(end)}`;
}
