import { ContractError } from '../../src-shared/ipc/contract-client.js';
import type { UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import { formatDuration, formatRate } from '../../src-shared/model/format.js';
import type { QueueHold } from '../../src-shared/model/queue-hold.js';
import { bytesPerSecond, etaSeconds, observe, type RateMeter } from '../../src-shared/model/transfer-rate.js';

/*
 * What the CLI prints, in English (the catalogs are the UI's). This module and
 * what it imports load without zod: `--help` and `queue ls` beside the app
 * take less than twice a bare Node start (bench/cli-start.ts).
 */

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** the package's version, for app:info of a core this command runs itself */
  version?: string;
}

/** A mistake in how the command was typed: exit code 2 with the usage hint. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** What a person sees for a failure: the message and the request id, never a stack trace. */
export function describeError(error: unknown): string {
  if (error instanceof ContractError && error.requestId) return `${error.message} (request id ${error.requestId})`;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function line(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(`${text}\n`);
}

/** Aligned columns for a list in a terminal. */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '))
    .join('\n');
}

/** What the CLI shows of a queue item. */
export type ShownItem = Pick<UploadItemView, 'id' | 'path' | 'fileName' | 'size' | 'state'>;

export function describeState(item: ShownItem): string {
  const state = item.state;
  switch (state.kind) {
    case 'queued':
      return state.waiting === 'beingWritten' ? 'queued: a program is still writing this file' : 'queued';
    case 'uploading': {
      // what a pause or a quit would keep, when a chunk is on its way
      const confirmed =
        state.ackedBytes < state.sentBytes ? `, ${percent(state.ackedBytes, state.totalBytes)} confirmed` : '';
      const sent = `${percent(state.sentBytes, state.totalBytes)}${confirmed}`;
      return state.pausing ? `pausing after this chunk (${sent})` : `uploading ${sent}`;
    }
    case 'retrying':
      return `retrying at ${new Date(state.retryAt).toLocaleTimeString()} (${state.lastError.message})`;
    case 'paused':
      return state.until === null ? 'paused' : `paused until ${new Date(state.until).toLocaleString()}`;
    case 'done':
      return state.existing ? `already on the service ${state.fileId}` : `done ${state.fileId}`;
    case 'failed':
      return `failed: ${state.reason.message}${state.reason.requestId ? ` (request id ${state.reason.requestId})` : ''}`;
    default:
      return state.kind;
  }
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? '100%' : `${Math.floor((part / whole) * 100)}%`;
}

/** The app's own hold in a sentence, for the terminal. */
export function holdText(hold: QueueHold): string {
  if (hold.reason === 'battery') return 'Paused while on battery (Settings → Schedule).';
  if (hold.reason === 'metered') return 'Paused: metered connection (Settings → Schedule).';
  if (hold.reason === 'dataDiskFull') {
    const files = `${hold.waiting} file${hold.waiting === 1 ? '' : 's'}`;
    return `Media Sync’s disk is full: ${files} wait. Free some space on the disk of its data folder: they go on by themselves.`;
  }
  return hold.until === null
    ? 'Paused by the upload schedule.'
    : `Paused by the upload schedule until ${new Date(hold.until).toLocaleString()}.`;
}

/**
 * Progress of running uploads on stderr: one redrawn line per file in a
 * terminal, a line per 10% otherwise (logs and CI stay readable). Each says
 * the speed over the last seconds and, once measured long enough, the time
 * left (the meter the Queue view uses). The final word on each file is the
 * command's, on stdout: `drop` only takes its bar away.
 */
export class ProgressView {
  private readonly lines = new Map<number, string>();
  private readonly lastDecile = new Map<number, number>();
  private readonly meters = new Map<number, RateMeter>();
  private drawn = 0;

  constructor(
    private readonly stream: CliIo['stderr'],
    private readonly now: () => number = () => performance.now(),
  ) {}

  update(item: ShownItem): void {
    const state = item.state;
    if (state.kind !== 'uploading') return;
    const now = this.now();
    const meter = observe(this.meters.get(item.id), now, state.sentBytes);
    this.meters.set(item.id, meter);
    const ratio = state.totalBytes === 0 ? 1 : state.sentBytes / state.totalBytes;
    const pace = paceText(meter, now, state.totalBytes);
    if (this.stream.isTTY) {
      const width = 24;
      const filled = Math.round(ratio * width);
      const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
      this.lines.set(
        item.id,
        `${bar} ${percent(state.sentBytes, state.totalBytes).padStart(4)} ${item.fileName}${pace}`,
      );
      this.redraw();
      return;
    }
    const decile = Math.floor(ratio * 10);
    if ((this.lastDecile.get(item.id) ?? -1) < decile) {
      this.lastDecile.set(item.id, decile);
      line(this.stream, `${item.fileName}: ${decile * 10}%${pace}`);
    }
  }

  /** A line about an item (a retry, a resume) above the bars. */
  note(text: string): void {
    this.clear();
    line(this.stream, text);
    this.redraw();
  }

  /** Stops drawing an item's bar: it ended, or stopped moving. */
  drop(id: number): void {
    this.meters.delete(id);
    if (!this.lines.delete(id)) return;
    this.clear();
    this.redraw();
  }

  private clear(): void {
    if (!this.stream.isTTY || this.drawn === 0) return;
    this.stream.write(`\x1b[${this.drawn}F\x1b[J`);
    this.drawn = 0;
  }

  private redraw(): void {
    if (!this.stream.isTTY) return;
    this.clear();
    const columns = this.stream.columns ?? 80;
    for (const text of this.lines.values()) this.stream.write(`${text.slice(0, columns - 1)}\n`);
    this.drawn = this.lines.size;
  }
}

/** `  1.20 MB/s, 37 s left`, or less while it is not measured yet. */
function paceText(meter: RateMeter, now: number, totalBytes: number): string {
  const speed = bytesPerSecond(meter, now);
  if (speed === null) return '';
  const eta = etaSeconds(meter, now, totalBytes);
  return `  ${formatRate(speed)}${eta === null ? '' : `, ${formatDuration(eta)} left`}`;
}
