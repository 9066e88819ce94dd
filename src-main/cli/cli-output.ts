import type { UploadItem } from '../../src-shared/model/upload-state.js';
import { ApiError } from '../api-client/api-error.js';
import { formatBytes } from '../../src-shared/model/format.js';

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
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
  if (error instanceof ApiError) return error.describe();
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

/** What the CLI shows of a queue item: the app's own, or the view a running app sends (without its secrets). */
export type ShownItem = Pick<UploadItem, 'id' | 'path' | 'fileName' | 'size' | 'state'>;

export function describeState(item: ShownItem): string {
  const state = item.state;
  switch (state.kind) {
    case 'uploading':
      return `uploading ${percent(state.sentBytes, state.totalBytes)}`;
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

/**
 * Progress of running uploads on stderr: one redrawn line per file in a
 * terminal, a line per 10% otherwise (logs and CI stay readable).
 */
export class ProgressView {
  private readonly lines = new Map<number, string>();
  private readonly lastDecile = new Map<number, number>();
  private readonly started = new Map<number, { at: number; bytes: number }>();
  private drawn = 0;

  constructor(private readonly stream: CliIo['stderr']) {}

  update(item: ShownItem): void {
    const state = item.state;
    if (state.kind !== 'uploading') return;
    const start = this.started.get(item.id) ?? { at: performance.now(), bytes: state.sentBytes };
    this.started.set(item.id, start);
    const seconds = (performance.now() - start.at) / 1000;
    const speed = seconds > 0.5 ? ` ${formatBytes((state.sentBytes - start.bytes) / seconds)}/s` : '';
    const ratio = state.totalBytes === 0 ? 1 : state.sentBytes / state.totalBytes;
    if (this.stream.isTTY) {
      const width = 24;
      const filled = Math.round(ratio * width);
      const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
      this.lines.set(
        item.id,
        `${bar} ${percent(state.sentBytes, state.totalBytes).padStart(4)} ${item.fileName}${speed}`,
      );
      this.redraw();
      return;
    }
    const decile = Math.floor(ratio * 10);
    if ((this.lastDecile.get(item.id) ?? -1) < decile) {
      this.lastDecile.set(item.id, decile);
      line(this.stream, `${item.fileName}: ${decile * 10}%${speed}`);
    }
  }

  /** Prints a final line for an item and stops drawing its bar. */
  finish(item: ShownItem, text: string): void {
    this.lines.delete(item.id);
    this.started.delete(item.id);
    this.clear();
    line(this.stream, text);
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
