import type * as Chokidar from 'chokidar';
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';

/** chokidar loads with the first folder watched, not with every process that could watch one (bench/cli-start.ts). */
let chokidar: Promise<typeof Chokidar> | undefined;
const loadChokidar = () => (chokidar ??= import('chokidar'));

/**
 * Folders handed to one chokidar instance at a time. chokidar lstats every
 * entry of a folder it starts watching, files included, and given a whole tree
 * it reads every folder at once: for 100 folders of 1,000 files that is
 * 100,000 stats in flight and ~260 MB of RSS before the first event. In
 * batches of 8, at most 8 folders' entries are being stat'ed, and there are
 * few instances (~12 KB each) even for a tree of 10,000 folders.
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
 * remembers the inode each folder had when its watch began, so that another
 * folder under that name is watched afresh.
 */
export class FolderWatches {
  /** each watched folder ('' is the root) and the instance that watches it */
  private readonly folders = new Map<string, Chokidar.FSWatcher>();
  /** the inode each watched folder had when its watch began */
  private readonly inodes = new Map<string, number>();
  /** how many folders each instance still watches */
  private readonly instances = new Map<Chokidar.FSWatcher, number>();

  constructor(
    /** a folder's path as chokidar knows it */
    private readonly pathOf: (relFolder: string) => string,
    private readonly events: WatchEvents,
    private readonly closing: AbortSignal,
  ) {}

  /** Whether `relFolder` is watched, and as the folder of inode `ino`. */
  watches(relFolder: string, ino: number): boolean {
    return this.folders.has(relFolder) && this.inodes.get(relFolder) === ino;
  }

  /**
   * Has chokidar watch those of `relFolders` not watched yet, all in one
   * instance at depth 0, and resolves once it has (chokidar's 'ready') or the
   * watcher closes.
   */
  async watch(relFolders: string[]): Promise<void> {
    const { watch } = await loadChokidar();
    const fresh = relFolders.filter((relFolder) => !this.folders.has(relFolder));
    if (fresh.length === 0 || this.closing.aborted) return;
    const instance = watch(
      fresh.map((relFolder) => this.pathOf(relFolder)),
      {
        ignored: (absPath: string, stats?: Stats) => this.events.ignored(absPath, stats),
        // The walk lists what is there; chokidar is asked only for what changes after.
        ignoreInitial: true,
        awaitWriteFinish: false,
        alwaysStat: true,
        followSymlinks: false,
        depth: 0,
      },
    );
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
        if (stats) this.inodes.set(relFolder, stats.ino);
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
    this.inodes.delete(relFolder);
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
