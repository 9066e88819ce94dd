import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Visibility } from '../../src-shared/model/visibility.js';
import { UsageError } from './cli-output.js';

const OPTIONS = {
  json: { type: 'boolean' },
  'data-dir': { type: 'string' },
  'base-url': { type: 'string' },
  plan: { type: 'string' },
  public: { type: 'boolean' },
  private: { type: 'boolean' },
  name: { type: 'string' },
  description: { type: 'string' },
  'allow-online-watch': { type: 'boolean' },
  'no-online-watch': { type: 'boolean' },
  force: { type: 'boolean' },
  once: { type: 'boolean' },
  'only-new': { type: 'boolean' },
  'skip-existing': { type: 'boolean' },
  'no-subfolders': { type: 'boolean' },
  after: { type: 'string' },
  ignore: { type: 'string', multiple: true },
  settle: { type: 'string' },
  poll: { type: 'boolean' },
  notify: { type: 'string' },
  'dry-run': { type: 'boolean' },
  types: { type: 'string' },
  ext: { type: 'string' },
  'min-size': { type: 'string' },
  'max-size': { type: 'string' },
  'modified-after': { type: 'string' },
  for: { type: 'string' },
  'after-chunk': { type: 'boolean' },
  search: { type: 'string' },
  page: { type: 'string' },
  'per-page': { type: 'string' },
  'password-stdin': { type: 'boolean' },
  'remove-password': { type: 'boolean' },
  'folder-id': { type: 'string' },
  'blocked-countries': { type: 'string' },
  wait: { type: 'boolean' },
  yes: { type: 'boolean' },
  days: { type: 'string' },
  'include-names': { type: 'boolean' },
  out: { type: 'string' },
  bandwidth: { type: 'string' },
  'chunk-size': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

export type Flags = ReturnType<typeof parseCommandLine>['values'];

export function parseCommandLine(args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

const UNITS: Record<string, number> = { '': 1, K: 1e3, KB: 1e3, M: 1e6, MB: 1e6, G: 1e9, GB: 1e9 };

/** `5MB`, `500K`, `90000000`: decimal units, like the spec's "90 MB". */
export function byteSize(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([KMG]B?)?$/i.exec(value.trim());
  const unit = UNITS[(match?.[2] ?? '').toUpperCase()];
  if (!match || unit === undefined) throw new UsageError(`--${flag} must be a size like 5MB or 500000.`);
  const bytes = Math.floor(Number(match[1]) * unit);
  if (bytes < 1) throw new UsageError(`--${flag} must be at least 1 byte.`);
  return bytes;
}

/** The chunk sizes the settings allow (1 MB to the spec's 90 MB: larger ones would not pass the edge proxy). */
const CHUNK_SIZE = { min: 1_000_000, max: 90_000_000 };

export function chunkSizeFlag(value: string | undefined): number | undefined {
  const bytes = byteSize(value, 'chunk-size');
  if (bytes !== undefined && (bytes < CHUNK_SIZE.min || bytes > CHUNK_SIZE.max)) {
    throw new UsageError('--chunk-size must be from 1MB to 90MB.');
  }
  return bytes;
}

export function visibilityFlag(flags: Flags): Visibility | undefined {
  if (flags.public && flags.private) throw new UsageError('Choose one of --public and --private.');
  return flags.public ? 'public' : flags.private ? 'private' : undefined;
}

export function onlineWatchFlag(flags: Flags): boolean | undefined {
  if (flags['allow-online-watch'] && flags['no-online-watch'])
    throw new UsageError('Choose one of --allow-online-watch and --no-online-watch.');
  return flags['allow-online-watch'] ? true : flags['no-online-watch'] ? false : undefined;
}

export function intFlag(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new UsageError(`--${name} must be a whole number of at least 1.`);
  return parsed;
}

/** An id on the command line: the queue's are whole numbers. */
export function itemId(text: string | undefined, usage: string): number {
  if (text === undefined) throw new UsageError(`${usage} needs an item ID (see media-sync queue ls).`);
  const id = Number(text);
  if (!Number.isInteger(id) || id < 1) throw new UsageError(`Not an item id: ${text}`);
  return id;
}
