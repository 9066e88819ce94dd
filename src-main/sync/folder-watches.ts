import type * as Chokidar from 'chokidar';
import type { Stats } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

/** chokidar loads with the first folder watched, not with every process that could watch one (bench/cli-start.ts). */
let chokidar: Promise<typeof Chokidar> | undefined;
const loadChokidar = () => (chokidar ??= import('chokidar'));

/**
 * Folders handed to one chokidar instance at a time. chokidar lists every
 * folder it starts watching, and given a whole tree it reads every folder at
 * once: with its own lister (an lstat per entry, files included) that was
 * 100,000 stats in flight and ~260 MB of RSS before the first event, for 100
 * folders of 1,000 files. In batches of 8, at most 8 folders are being
 * listed, and there are few instances (~12 KB each) even for a tree of 10,000
 * folders. (Its lister now stats subfolders only: listSubfoldersOnly.)
 */
export const WATCH_BATCH_FOLDERS = 8;

/** What the watches of a tree report, and ask. */
export interface WatchEvents {
  /** whether chokidar leaves a path out (every file: see FolderWatcher) */
  ignored(absPath: string, stats: Stats | undefined): boolean;
  /** a folder watcher says a child changed; `name` is that child, or missing on platforms that cannot tell */
  raw(event: string, name: string | null | undefined, details: unknown): void;
  folderAdded(absPath: string): void;
  folderRemoved(absPath: string): void;
  error(error: unknown): void;
}

/**
 * The chokidar instances of one watched tree (FolderWatcher): each watches
 * a batch of folders at depth 0, is closed once it watches none, and
 * remembers which folder it watches under each name (folderIdentity), so
 * that another folder under that name is watched afresh.
 */
export class FolderWatches {
  /** each watched folder ('' is the root) and the instance that watches it */
  private readonly folders = new Map<string, Chokidar.FSWatcher>();
  /** each watched folder's identity when its watch began (folderIdentity) */
  private readonly identities = new Map<string, string>();
  /** how many folders each instance still watches */
  private readonly instances = new Map<Chokidar.FSWatcher, number>();

  constructor(
    /** a folder's path as chokidar knows it */
    private readonly pathOf: (relFolder: string) => string,
    private readonly events: WatchEvents,
    private readonly closing: AbortSignal,
  ) {}

  /** Whether `relFolder` is watched, and as the folder `stats` are of. */
  watches(relFolder: string, stats: FolderStats): boolean {
    return this.folders.has(relFolder) && this.identities.get(relFolder) === folderIdentity(stats);
  }

  /**
   * Has chokidar watch those of `relFolders` not watched yet, all in one
   * instance at depth 0, and resolves once it has (chokidar's 'ready') or the
   * watcher closes.
   */
  async watch(relFolders: string[]): Promise<void> {
    const { FSWatcher } = await loadChokidar();
    const fresh = relFolders.filter((relFolder) => !this.folders.has(relFolder));
    if (fresh.length === 0 || this.closing.aborted) return;
    // as chokidar's `watch` makes one, with the lister of subfolders in place before the first listing
    const instance = new FSWatcher({
      ignored: (absPath: string, stats?: Stats) => this.events.ignored(absPath, stats),
      // The walk lists what is there; chokidar is asked only for what changes after.
      ignoreInitial: true,
      awaitWriteFinish: false,
      alwaysStat: true,
      followSymlinks: false,
      depth: 0,
    });
    listSubfoldersOnly(instance);
    instance.add(fresh.map((relFolder) => this.pathOf(relFolder)));
    // Listened for before anything is awaited: chokidar says 'ready' once, and a slow stat below (a busy thread
    // pool) could otherwise let it go unheard and the walk wait for ever.
    const closing = this.closing;
    let onClose = (): void => undefined;
    const ready = new Promise<void>((resolve) => {
      onClose = resolve;
      instance.once('ready', resolve);
      closing.addEventListener('abort', onClose, { once: true });
    });
    for (const relFolder of fresh) this.folders.set(relFolder, instance);
    this.instances.set(instance, fresh.length);
    await Promise.all(
      fresh.map(async (relFolder) => {
        const stats = await stat(this.pathOf(relFolder)).catch(() => undefined);
        if (stats) this.identities.set(relFolder, folderIdentity(stats));
      }),
    );
    instance.on('raw', (event, name, details) => this.events.raw(event, name as string | null | undefined, details));
    instance.on('addDir', (absPath) => this.events.folderAdded(absPath));
    instance.on('unlinkDir', (absPath) => this.events.folderRemoved(absPath));
    instance.on('error', (error) => this.events.error(error));
    await ready;
    // The abort listener goes once ready: a long session adds one batch per new folder tree.
    closing.removeEventListener('abort', onClose);
  }

  /** Drops the watches of `relFolder` and every folder under it. */
  unwatchTree(relFolder: string): void {
    const prefix = `${relFolder}/`;
    for (const relWatched of [...this.folders.keys()]) {
      if (relWatched === relFolder || relWatched.startsWith(prefix)) this.unwatch(relWatched);
    }
  }

  /** Closes every instance. */
  async close(): Promise<void> {
    const instances = [...this.instances.keys()];
    this.instances.clear();
    this.folders.clear();
    await Promise.all(instances.map((instance) => instance.close()));
  }

  /** A folder went away: its watch goes (a folder created again under that name is watched afresh). */
  private unwatch(relFolder: string): void {
    const instance = this.folders.get(relFolder);
    if (instance === undefined) return;
    this.folders.delete(relFolder);
    this.identities.delete(relFolder);
    const left = (this.instances.get(instance) ?? 1) - 1;
    if (left > 0) {
      this.instances.set(instance, left);
      instance.unwatch(this.pathOf(relFolder));
      return;
    }
    this.instances.delete(instance);
    instance.close().catch((error: unknown) => this.events.error(error));
  }
}

type FolderStats = Pick<Stats, 'ino' | 'birthtimeMs'>;

/**
 * Which folder is under a name: its inode and, where the file system keeps
 * it, when it was made. The inode alone is not enough: ext4 gives a folder
 * deleted and made again at once the inode it had, and the new folder was
 * then taken for the one watched (its files never heard) unless chokidar's
 * listing happened to fall between the two and say the old one gone.
 */
function folderIdentity(stats: FolderStats): string {
  return `${stats.ino}:${stats.birthtimeMs}`;
}

/** What chokidar's listing of a folder yields (readdirp's entries) and is filtered by. */
export interface ListedEntry {
  path: string;
  fullPath: string;
  basename: string;
  stats: Stats;
}
/** chokidar's lister, as it calls it: its filter of subfolders is always a function */
type ChokidarListing = (
  root: string,
  options?: { directoryFilter?: (entry: ListedEntry) => boolean },
) => Readable | undefined;

/**
 * How often chokidar lists one watched folder at most: once a second, as
 * its own throttle of listings (1 s) suggests. That throttle lasts only as
 * long as the listing it guards: when one ends and anything changed in the
 * folder meanwhile, chokidar lists it again at once, so while files keep
 * arriving it lists the folder back to back. 3,000 files copied into a
 * folder were ~2,000 listings, 2.3 million entries read (`getdents64`,
 * libuv sorting the names, an object per entry). Paced, a burst costs one
 * listing a second and one after, and the daemon's CPU per file in
 * bench/many-files.ts fell by a third. What waits is chokidar's `addDir`
 * and `unlinkDir`, at most a second: FolderWatcher sees a new folder from
 * the change event naming it (checkFolder) without waiting for either.
 */
const LIST_INTERVAL_MS = 1_000;

/**
 * Has `instance` list a folder with its entries' types and lstat only the
 * subfolders, instead of lstat'ing every entry, and at most once a second
 * (LIST_INTERVAL_MS). chokidar lists a watched folder when it starts
 * watching it and again whenever anything in it changes, and asks its lister
 * for every entry's stats (`_readdirp`: `alwaysStat`, `lstat`) before its
 * `ignored` drops the files and links, which ours always does (FolderWatcher
 * hears each file by name from the raw events). So a new file in a folder of
 * 20,000 cost 20,000 lstats, ~310 ms of CPU (bench/big-folder.ts). What
 * chokidar does with the listing (a new subfolder's `addDir`, a gone one's
 * `unlinkDir`) only ever sees subfolders, so it is unchanged.
 * `_readdirp` is chokidar's own (in its typings, not its documented API):
 * the version is pinned, and a chokidar without it fails here at once
 * rather than going back to the cost unseen.
 */
function listSubfoldersOnly(instance: Chokidar.FSWatcher): void {
  const own = instance as unknown as { _readdirp?: ChokidarListing };
  if (typeof own._readdirp !== 'function') {
    throw new Error('chokidar no longer lists folders through _readdirp: see listSubfoldersOnly in folder-watches.ts');
  }
  /** when each folder's last listing began (performance.now()) */
  const listedAt = new Map<string, number>();
  async function* paced(root: string, keep: (entry: ListedEntry) => boolean): AsyncGenerator<ListedEntry> {
    const wait = (listedAt.get(root) ?? -Infinity) + LIST_INTERVAL_MS - performance.now();
    // unref'd: a listing waiting holds no process open; one closed meanwhile lists nothing (chokidar ignores
    // what a closed instance lists, so no subfolder is taken for gone)
    if (wait > 0) await sleep(wait, undefined, { ref: false });
    if (instance.closed) return;
    listedAt.set(root, performance.now());
    yield* subfolders(root, keep);
  }
  own._readdirp = (root, options) => {
    if (instance.closed) return undefined;
    return Readable.from(paced(root, options?.directoryFilter ?? (() => true)));
  };
}

const LISTS_EMPTY = new Set(['ENOENT', 'EPERM', 'EACCES', 'ELOOP']);

/** The subfolders of `root` that `keep` lets through, each with its lstat (links are not subfolders). */
export async function* subfolders(root: string, keep: (entry: ListedEntry) => boolean): AsyncGenerator<ListedEntry> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    // as chokidar's own lister: a folder gone or not readable lists empty (its subfolders went), anything else fails
    if (LISTS_EMPTY.has((error as NodeJS.ErrnoException).code ?? '')) return;
    throw error;
  }
  for (const dirent of entries) {
    if (!dirent.isDirectory()) continue;
    const fullPath = join(root, dirent.name);
    const stats = await lstat(fullPath).catch(() => undefined);
    if (!stats?.isDirectory()) continue;
    const entry = { path: dirent.name, fullPath, basename: dirent.name, stats };
    if (keep(entry)) yield entry;
  }
}
