import {
  chmodSync,
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { systemClock, type Clock } from './clock.js';
import { Emitter, type Event } from './disposable.js';
import { scrubSecrets } from './scrub-secrets.js';

/** Where the app says what it did and what went wrong; never a token (every line is scrubbed first). */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
  /** `cause`: an Error (its message, stack and causes are written) or any value */
  error(message: string, cause?: unknown): void;
}

/** Something that must be told each secret the app holds, so it can cut it out of what it writes. */
export interface SecretSink {
  addSecret(secret: string): void;
}

/** A Log written to rotated files in one folder. */
export interface FileLog extends Log, SecretSink {
  /** the folder of the log files */
  readonly dir: string;
  /** the file being written: `<dir>/<name>.log` */
  readonly path: string;
  /** the last `maxLines` lines, oldest first, from the current file and the rotated ones, scrubbed again */
  recent(maxLines: number): Promise<string[]>;
  /** `text` with every secret this log was told cut out, as its lines are (for what leaves the app beside the log) */
  scrub(text: string): string;
  /** writes nothing more; later entries are dropped */
  close(): Promise<void>;
  /** an entry could not be written, with the system's error (ENOSPC: the disk is full); it was dropped and counted */
  readonly onDidFailToWrite: Event<NodeJS.ErrnoException>;
}

export interface FileLogOptions {
  dir: string;
  /** the files are `<name>.log`, `<name>.1.log`, ... ('main') */
  name?: string;
  /** a file is rotated before it would grow past this (1 MiB) */
  maxBytes?: number;
  /** rotated files kept besides the current one (5); older ones are deleted */
  keep?: number;
  clock?: Clock;
}

/** A string shorter than this is not a token any server issues; cutting it everywhere would only garble the log. */
const MIN_SECRET_LENGTH = 8;
/** One entry is cut to this much text (after scrubbing, so the cut never reveals part of a secret). */
const MAX_ENTRY_CHARS = 16_384;
/** How deep an error's `cause` chain is followed. */
const MAX_CAUSES = 5;

type Level = 'INFO' | 'WARN' | 'ERROR';

/**
 * The main process's log (issue 10): one line per entry, `<ISO time>
 * <LEVEL> <message>`, an error's message, stack and causes on the same line
 * (newlines written as `\n`, so a file name cannot forge an entry).
 *
 * - Secrets: each entry goes through `scrubSecrets` with every secret given
 *   to `addSecret` before a byte is written.
 * - Rotation by size: `main.log` → `main.1.log` … `main.<keep>.log`, the
 *   oldest deleted. The size of an existing `main.log` is counted, so a
 *   restart appends to it and rotates at the same point.
 * - Writes are synchronous appends to an open file: each entry is in the
 *   kernel before the call returns, so a crash right after it (the
 *   `uncaughtException` that explains the crash) loses nothing. The app
 *   writes a few lines per upload or event, so the cost is nothing beside
 *   the uploads themselves; a stream would lose its buffer in a crash.
 * - Private: the folder is made 0700 and the files 0600 (tightened if
 *   they already exist), on systems with POSIX permissions.
 * - Never throws: a full disk or a missing folder drops the entry and the
 *   next one tries again; logging must not stop an upload. The entries
 *   dropped are counted, and the first entry written after them says how
 *   many there were and why (`onDidFailToWrite` tells the app at once).
 */
export function createFileLog(options: FileLogOptions): FileLog {
  const name = options.name ?? 'main';
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const keep = Math.max(0, options.keep ?? 5);
  const clock = options.clock ?? systemClock;
  const dir = options.dir;
  const path = join(dir, `${name}.log`);
  const rotated = (index: number) => join(dir, `${name}.${index}.log`);
  const secrets = new Set<string>();
  let fd: number | null = null;
  let size = 0;
  let closed = false;
  /** entries dropped since the last one written, and the first one's reason */
  let dropped: { count: number; reason: string } | null = null;
  const failures = new Emitter<NodeJS.ErrnoException>();

  function open(): number {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const opened = openSync(path, 'a', 0o600);
    try {
      const stat = fstatSync(opened);
      if (!stat.isFile()) throw new Error(`${path} is not a file.`);
      if ((stat.mode & 0o777) !== 0o600) chmodSync(path, 0o600);
      size = stat.size;
      return opened;
    } catch (error) {
      closeSync(opened);
      throw error;
    }
  }

  function rotate(): void {
    closeFile();
    rmSync(keep > 0 ? rotated(keep) : path, { force: true });
    for (let index = keep - 1; index >= 1; index--) {
      try {
        renameSync(rotated(index), rotated(index + 1));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    if (keep > 0) renameSync(path, rotated(1));
  }

  function closeFile(): void {
    if (fd === null) return;
    const closing = fd;
    fd = null;
    closeSync(closing);
  }

  function write(level: Level, message: string, cause?: unknown): void {
    if (closed) return;
    try {
      const text = cause === undefined ? message : `${message} ${describeCause(cause)}`;
      const entry = oneLine(scrubSecrets(text, secrets)).slice(0, MAX_ENTRY_CHARS);
      const time = new Date(clock.wall()).toISOString();
      const lost = dropped && `${time} WARN  ${droppedText(dropped.count, dropped.reason)}\n`;
      const line = Buffer.from(`${lost ?? ''}${time} ${level.padEnd(5)} ${entry}\n`);
      fd ??= open();
      if (size > 0 && size + line.length > maxBytes) {
        rotate();
        fd = open();
      }
      if (writeSync(fd, line) < line.length) {
        // a part of the line only: the disk filled up. Cut it off, so the next entry starts a line of its own
        ftruncateSync(fd, size);
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
      size += line.length;
      dropped = null;
    } catch (error) {
      // dropped: the next entry opens the file again (the disk may have room by then)
      try {
        closeFile();
      } catch {
        // the descriptor is gone either way
      }
      dropped = { count: (dropped?.count ?? 0) + 1, reason: dropped?.reason ?? (error as Error).message };
      failures.fire(error as NodeJS.ErrnoException);
    }
  }

  return {
    dir,
    path,
    info: (message) => write('INFO', message),
    warn: (message) => write('WARN', message),
    error: (message, cause) => write('ERROR', message, cause),
    addSecret(secret) {
      if (secret.length >= MIN_SECRET_LENGTH) secrets.add(secret);
    },
    async recent(maxLines) {
      const lines: string[] = [];
      for (let index = 0; index <= keep && lines.length < maxLines; index++) {
        const text = await readFile(index === 0 ? path : rotated(index), 'utf8').catch(() => '');
        lines.unshift(...text.split('\n').filter((line) => line !== ''));
      }
      // a token signed in after a line was written is cut out of that line now
      return lines.slice(-maxLines).map((line) => scrubSecrets(line, secrets));
    },
    scrub: (text) => scrubSecrets(text, secrets),
    onDidFailToWrite: failures.event,
    async close() {
      closed = true;
      failures.dispose();
      try {
        closeFile();
      } catch {
        // nothing more will be written either way
      }
    },
  };
}

/** An error as one piece of text: name, message and stack, then each cause; any other value as JSON. */
function describeCause(cause: unknown): string {
  const parts: string[] = [];
  let current: unknown = cause;
  for (let depth = 0; depth <= MAX_CAUSES && current !== undefined; depth++) {
    parts.push(depth === 0 ? describeOne(current) : `caused by ${describeOne(current)}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(' ');
}

function describeOne(value: unknown): string {
  if (value instanceof Error) {
    const head = `${value.name}: ${value.message}`;
    // ApiError's and Node's system errors' code, and the request id support asks for
    const { code, requestId } = value as { code?: unknown; requestId?: unknown };
    const labels = [code, requestId && `request id ${String(requestId)}`].filter((label) => typeof label === 'string');
    // a stack starts with `name: message`: written once
    const stack = value.stack ?? '';
    const frames = stack.startsWith(head) ? stack.slice(head.length) : stack && `\n${stack}`;
    return `(${head}${labels.length > 0 ? ` [${labels.join(', ')}]` : ''}${frames})`;
  }
  try {
    return `(${JSON.stringify(value) ?? String(value)})`;
  } catch {
    return `(${String(value)})`;
  }
}

/** The line that stands for the entries a failure dropped. */
function droppedText(count: number, reason: string): string {
  return `${count} log ${count === 1 ? 'entry' : 'entries'} could not be written before this one (${reason}).`;
}

function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\\n');
}
