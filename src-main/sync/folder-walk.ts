import type { Dirent } from 'node:fs';
import { lstat, opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import { eachAtOnce } from '../common/each-at-once.js';
import type { FolderOptions } from '../../src-shared/model/folder-options.js';
import type { LeftAlone } from '../../src-shared/model/left-alone.js';
import { createIgnoreRules } from './ignore-rules.js';

/** Errors that mean the path is no longer there: a folder gone is empty now, not unreadable. */
const GONE_CODES = new Set(['ENOENT', 'ENOTDIR']);

/** A file in a watched folder that is complete: it stopped changing for the settle window and opens for reading. */
export interface StableFile {
  absPath: string;
  /** Relative to the watched root, '/' separators. */
  relPath: string;
  size: number;
  mtimeMs: number;
}

/** What a watched folder's rules need: whether it goes into subfolders, and what it leaves out. */
export interface PathRuleOptions {
  includeSubfolders: boolean;
  /** User globs (see createIgnoreRules); hidden and partial-download names are always ignored. */
  ignoreGlobs?: string[];
  /** extra relPath prefixes to ignore, e.g. the after-upload 'Uploaded' subfolder */
  ignorePrefixes?: string[];
}

/** A watched folder's path rules from its options: its globs, and the subfolder its files move into after upload. */
export function pathRuleOptions(
  options: Pick<FolderOptions, 'includeSubfolders' | 'ignoreGlobs' | 'afterUpload'>,
): PathRuleOptions {
  const after = options.afterUpload;
  return {
    includeSubfolders: options.includeSubfolders,
    ignoreGlobs: options.ignoreGlobs,
    ignorePrefixes: after.kind === 'move' ? [after.subfolder] : [],
  };
}

/** The folder's ignore rules as the watcher applies them: to folders it would enter, and to files. */
export class PathRules {
  private readonly ignoreRules: (relPath: string) => LeftAlone | null;
  /** as given, and lower-cased like the globs: on Windows and macOS 'uploaded' is the 'Uploaded' folder */
  private readonly ignorePrefixes: { subfolder: string; lower: string }[];
  readonly includeSubfolders: boolean;

  constructor(options: PathRuleOptions) {
    this.includeSubfolders = options.includeSubfolders;
    this.ignoreRules = createIgnoreRules(options.ignoreGlobs ?? []);
    this.ignorePrefixes = (options.ignorePrefixes ?? [])
      .map((prefix) => prefix.replaceAll('\\', '/').replace(/^\/+|\/+$/g, ''))
      .filter((subfolder) => subfolder !== '')
      .map((subfolder) => ({ subfolder, lower: subfolder.toLowerCase() }));
  }

  /** The ignore rule or prefix that leaves the path alone; whether subfolders are entered at all is the caller's call. */
  folderLeftAloneBy(relPath: string): LeftAlone | null {
    const byRule = this.ignoreRules(relPath);
    if (byRule) return byRule;
    const lower = relPath.toLowerCase();
    const moved = this.ignorePrefixes.find((prefix) => lower === prefix.lower || lower.startsWith(`${prefix.lower}/`));
    return moved ? { rule: 'movedInto', subfolder: moved.subfolder } : null;
  }

  /** The rule that leaves a file alone by its path, or null. */
  fileLeftAloneBy(relPath: string): LeftAlone | null {
    if (!this.includeSubfolders && relPath.includes('/')) return { rule: 'inSubfolder' };
    return this.folderLeftAloneBy(relPath);
  }

  isIgnoredFolder(relPath: string): boolean {
    return this.folderLeftAloneBy(relPath) !== null;
  }

  /** Whether a walk (or chokidar) goes into this subfolder. */
  entersFolder(relPath: string): boolean {
    return this.includeSubfolders && !this.isIgnoredFolder(relPath);
  }

  isIgnoredFile(relPath: string): boolean {
    return this.fileLeftAloneBy(relPath) !== null;
  }
}

export interface ListCallbacks {
  onFile: (relPath: string) => void;
  onSubfolder: (relPath: string) => void;
  /** A file a name rule leaves alone (a folder preview counts them by rule). */
  onFileLeftAlone?: (relPath: string, rule: LeftAlone) => void;
  /** A folder that exists but could not be read (EACCES, EIO); may throw to end the walk. */
  onError: (error: unknown) => void;
  signal?: AbortSignal;
}

/**
 * Lists one folder, calling back for each eligible file, and for each
 * subfolder that is not ignored when subfolders are included. Returns false
 * when the folder could not be read completely; a folder that vanished counts
 * as read, since it is empty now. `fs.opendir` streams the entries, so a
 * folder of 100,000 files is never one array.
 */
export async function listFolder(
  root: string,
  relFolder: string,
  rules: PathRules,
  callbacks: ListCallbacks,
): Promise<boolean> {
  const absFolder = relFolder === '' ? root : absPathOf(root, relFolder);
  try {
    const dir = await opendir(absFolder, { bufferSize: 128 });
    for await (const entry of dir) {
      if (callbacks.signal?.aborted) break;
      const relPath = relFolder === '' ? entry.name : `${relFolder}/${entry.name}`;
      const kind = await entryKind(entry, path.join(absFolder, entry.name));
      if (kind === 'folder') {
        if (rules.entersFolder(relPath)) callbacks.onSubfolder(relPath);
      } else if (kind === 'file') {
        const rule = rules.fileLeftAloneBy(relPath);
        if (rule === null) callbacks.onFile(relPath);
        else callbacks.onFileLeftAlone?.(relPath, rule);
      }
    }
    return true;
  } catch (error) {
    if (GONE_CODES.has((error as NodeJS.ErrnoException).code ?? '')) return true;
    callbacks.onError(error);
    return false;
  }
}

/** A path relative to the watched root ('/' separators) as this system's absolute path. */
export function absPathOf(root: string, relPath: string): string {
  return path.join(root, ...relPath.split('/'));
}

/** '/'-separated path relative to `root`, or undefined for the root itself and anything outside it. */
export function relPathOf(root: string, absPath: string): string | undefined {
  const relative = path.relative(root, absPath);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return path.sep === '/' ? relative : relative.split(path.sep).join('/');
}

/** File, folder or neither, without a stat unless the file system left the type unknown (some network mounts). */
async function entryKind(entry: Dirent, absPath: string): Promise<'file' | 'folder' | 'other'> {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  const typed =
    entry.isSymbolicLink() || entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice();
  if (typed) return 'other';
  try {
    const stats = await lstat(absPath);
    return stats.isFile() ? 'file' : stats.isDirectory() ? 'folder' : 'other';
  } catch {
    return 'other';
  }
}

/** Where a bounded walk stops: after this many files counted, or this long. */
export interface WalkBounds {
  files: number;
  ms: number;
  /** monotonic milliseconds */
  now: () => number;
}

/**
 * Counts the files of a folder its rules take and `counts` keeps, without a
 * stat, up to `bounds`: `more` when it stopped before the end. Folders that
 * cannot be read are passed over.
 */
export async function countFiles(
  root: string,
  rules: PathRules,
  counts: (relPath: string) => boolean,
  bounds: WalkBounds,
): Promise<{ files: number; more: boolean }> {
  const stop = new AbortController();
  const until = bounds.now() + bounds.ms;
  let files = 0;
  const folders: string[] = [''];
  while (folders.length > 0 && !stop.signal.aborted) {
    await listFolder(root, folders.pop()!, rules, {
      onFile: (relPath) => {
        if (counts(relPath)) files++;
        if (files >= bounds.files || bounds.now() > until) stop.abort();
      },
      onSubfolder: (relPath) => folders.push(relPath),
      onError: () => undefined,
      signal: stop.signal,
    });
  }
  return { files, more: stop.signal.aborted };
}

/** Stats in flight while listing a baseline: enough to keep libuv's pool busy, far from any descriptor limit. */
export const LIST_STAT_CONCURRENCY = 32;

/**
 * Lists the eligible files of a folder as they are now, without watching or
 * settling: the baseline for a folder whose existing files are not to be
 * uploaded. Subfolders that cannot be read are skipped (their files would
 * then be found, and judged, by the watcher later); an unreadable root rejects.
 */
export async function listStableFiles(options: PathRuleOptions & { root: string }): Promise<StableFile[]> {
  const root = path.resolve(options.root);
  const rules = new PathRules(options);
  const relPaths: string[] = [];
  const folders: string[] = [''];
  while (folders.length > 0) {
    const relFolder = folders.pop()!;
    await listFolder(root, relFolder, rules, {
      onFile: (relPath) => relPaths.push(relPath),
      onSubfolder: (relPath) => folders.push(relPath),
      onError: (error) => {
        if (relFolder === '') throw error;
      },
    });
  }
  const files: StableFile[] = [];
  await eachAtOnce(relPaths, LIST_STAT_CONCURRENCY, async (relPath) => {
    const absPath = absPathOf(root, relPath);
    const stats = await stat(absPath).catch(() => undefined);
    if (stats?.isFile()) files.push({ absPath, relPath, size: stats.size, mtimeMs: stats.mtimeMs });
  });
  return files;
}
