import type { UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import type { UploadState } from '../../src-shared/model/upload-state.js';

type UploadingState = Extract<UploadState, { kind: 'uploading' }>;

/**
 * Rows fetched with one `uploads:list` request: a few screenfuls. The answer
 * is parsed with zod on the main thread (no JIT under the page's CSP), ~80 µs
 * an item here, so a page of 200 took a frame and more to read, at start and
 * while scrolling; 50 keep each page's parse short.
 */
export const QUEUE_PAGE_SIZE = 50;

/**
 * The queue as the view knows it: the pages it has loaded (queue order, the
 * oldest first), kept live from item and progress events. 10,000 items are
 * never asked for at once; a page is fetched when its rows come into view.
 *
 * Mutable on purpose: a progress batch at 10 Hz updates a few entries of a
 * 10,000-row map in place and bumps `version`, instead of copying it.
 *
 * New items always get a higher id than every other, so they belong at the
 * end: when the end is loaded they are appended here at once; when it is not,
 * `applyItem` says so and the view asks again for the total.
 */
export class QueueRows {
  total = 0;
  /** bumped at every change, for React to notice */
  version = 0;
  private readonly byIndex = new Map<number, UploadItemView>();
  private readonly indexById = new Map<number, number>();
  private readonly loaded = new Set<number>();
  private readonly requested = new Set<number>();
  private readonly itemWatchers = new Watchers<undefined>();
  private readonly progressWatchers = new Watchers<UploadingState>();
  private maxId = 0;
  private known = false;

  constructor(readonly pageSize = QUEUE_PAGE_SIZE) {}

  /** True once a first page arrived: until then the view shows "loading", not "empty". */
  get ready(): boolean {
    return this.known;
  }

  at(index: number): UploadItemView | undefined {
    return this.byIndex.get(index);
  }

  indexOf(id: number): number | undefined {
    return this.indexById.get(id);
  }

  /** Loaded items, in queue order (for totals such as the overall speed). */
  loadedItems(): UploadItemView[] {
    return [...this.byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, item]) => item);
  }

  /** Pages over rows `start`…`end` (exclusive) not loaded or on the way; marks them as on the way. */
  takeMissingPages(start: number, end: number): number[] {
    const pages: number[] = [];
    const last = Math.min(end, this.total) - 1;
    for (let page = Math.floor(start / this.pageSize); page <= Math.floor(last / this.pageSize); page++) {
      if (page < 0 || this.loaded.has(page) || this.requested.has(page)) continue;
      this.requested.add(page);
      pages.push(page);
    }
    return pages;
  }

  /** A page request failed: it may be asked for again. */
  pageFailed(page: number): void {
    this.requested.delete(page);
  }

  /** The answer to `uploads:list { offset: page * pageSize, limit: pageSize }`. */
  applyPage(page: number, items: readonly UploadItemView[], total: number): void {
    this.requested.delete(page);
    this.loaded.add(page);
    this.known = true;
    this.total = total;
    items.forEach((item, i) => this.put(page * this.pageSize + i, item));
    // the end of the queue shrank under us (finished items cleared elsewhere): forget rows past it
    for (const index of this.byIndex.keys()) if (index >= total) this.remove(index);
    this.version++;
  }

  /**
   * An item was added or changed state. 'appended' and 'updated' changed the
   * rows; 'unknown' means an item beyond the loaded pages (the view refreshes
   * the total); 'ignored' changed nothing.
   */
  applyItem(item: UploadItemView): 'updated' | 'appended' | 'unknown' | 'ignored' {
    const index = this.indexById.get(item.id);
    if (index !== undefined) {
      this.byIndex.set(index, item);
      this.version++;
      this.itemWatchers.notify(item.id, undefined);
      return 'updated';
    }
    if (!this.known) return 'unknown';
    const endLoaded = this.total === 0 || this.byIndex.has(this.total - 1);
    if (endLoaded && item.id > this.maxId) {
      this.put(this.total, item);
      this.total++;
      this.version++;
      return 'appended';
    }
    return item.id > this.maxId ? 'unknown' : 'ignored';
  }

  /**
   * A progress batch (at most 10 per second): the items' states replaced.
   * Bytes that moved within the same attempt tell only the item's progress
   * watchers (its bar, written straight to the DOM: no render at 10 Hz; the
   * row's text follows at the view's 1 s clock, as Finder and Explorer do);
   * any other change tells its item watchers (the row renders again).
   * Answers whether any loaded item changed.
   */
  applyProgress(batch: readonly { id: number; state: UploadState }[]): boolean {
    let changed = false;
    for (const { id, state } of batch) {
      const index = this.indexById.get(id);
      const item = index === undefined ? undefined : this.byIndex.get(index);
      if (!item || index === undefined) continue;
      this.byIndex.set(index, { ...item, state });
      changed = true;
      if (state.kind === 'uploading' && onlyBytesMoved(item.state, state)) this.progressWatchers.notify(id, state);
      else this.itemWatchers.notify(id, undefined);
    }
    if (changed) this.version++;
    return changed;
  }

  /** Calls `listener` when item `id` changes other than by its bytes moving, until the returned function is called. */
  watchItem(id: number, listener: () => void): () => void {
    return this.itemWatchers.add(id, listener);
  }

  /** Calls `listener` with item `id`'s state each time only its bytes moved, until the returned function is called. */
  watchProgress(id: number, listener: (state: UploadingState) => void): () => void {
    return this.progressWatchers.add(id, listener);
  }

  /** Forgets everything (after "Clear finished"): pages load again as they come into view. */
  reset(): void {
    this.byIndex.clear();
    this.indexById.clear();
    this.loaded.clear();
    this.requested.clear();
    this.total = 0;
    this.maxId = 0;
    this.known = false;
    this.version++;
  }

  /** Marks the loaded pages stale so they are fetched again, keeping the rows shown meanwhile. */
  invalidate(): void {
    this.loaded.clear();
    this.requested.clear();
  }

  private put(index: number, item: UploadItemView): void {
    const previous = this.byIndex.get(index);
    if (previous && previous.id !== item.id) this.indexById.delete(previous.id);
    this.byIndex.set(index, item);
    this.indexById.set(item.id, index);
    if (item.id > this.maxId) this.maxId = item.id;
  }

  private remove(index: number): void {
    const item = this.byIndex.get(index);
    if (item) this.indexById.delete(item.id);
    this.byIndex.delete(index);
  }
}

/** Whether `next` is `previous` with more (or fewer) bytes sent: the same attempt of the same upload. */
function onlyBytesMoved(previous: UploadState, next: UploadingState): boolean {
  return previous.kind === 'uploading' && previous.attempt === next.attempt && previous.totalBytes === next.totalBytes;
}

/** Listeners by item id. */
class Watchers<T> {
  private readonly byId = new Map<number, Set<(value: T) => void>>();

  add(id: number, listener: (value: T) => void): () => void {
    const listeners = this.byId.get(id) ?? new Set();
    this.byId.set(id, listeners);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.byId.delete(id);
    };
  }

  notify(id: number, value: T): void {
    for (const listener of this.byId.get(id) ?? []) listener(value);
  }
}
