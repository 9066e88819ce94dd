import type { UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import type { UploadState } from '../../src-shared/model/upload-state.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { toIpcError } from '../bridge/bridge-context.js';
import { LatestRead } from '../bridge/latest-read.js';
import { beatWithProgress } from '../components/use-now.js';
import { bytesPerSecond, etaSeconds, observe, type RateMeter } from '../../src-shared/model/transfer-rate.js';
import { Store } from './store.js';

/**
 * Rows fetched with one `uploads:list` request: a few screenfuls. Pages of
 * 200 came later (the core writes each item) and made the frames that take
 * them longer: scrolling's p95 frame was a quarter worse in the bench.
 */
export const QUEUE_PAGE_SIZE = 50;
/** An item beyond the loaded pages changed: the total is asked for again at most this often. */
const REFRESH_END_MS = 500;

export interface QueueState {
  /** items in the queue, loaded or not */
  total: number;
  /** a first page arrived: until then the view says "loading", not "empty" */
  ready: boolean;
  /** why the last page could not be read */
  error: ReturnType<typeof toIpcError> | null;
  /** bumped by every change of an item, for views that show more than one */
  version: number;
}

/** Running items' states by id, newer than their items: what progress batches (10 Hz) move. */
class LiveStates extends Store<ReadonlyMap<number, UploadState>> {
  change(edit: (states: Map<number, UploadState>) => void): void {
    const states = new Map(this.get());
    edit(states);
    this.set(states);
  }
}

/**
 * The upload queue as the page knows it, for the page's whole life: the
 * pages loaded so far (queue order, the oldest first; a page is asked for
 * when its rows come into view, `show`), kept live from item events, and
 * each running item's speed. Switching views and back shows it at once; a
 * reconnection loads the rows in view again.
 *
 * A progress batch moves `live`, not the items: it tells only the bars that
 * listen there (10 Hz), and the rows read it when they render (each second).
 *
 * New items always get a higher id than every other, so they belong at the
 * end: when the end is loaded they are appended at once; when it is not, the
 * last page is read again to learn the new total.
 *
 * A row's actions answer with its item, which the store takes at once.
 */
export class QueueStore extends Store<QueueState> {
  /** the bytes of running items, as the last batch said; an item event or page replaces its entry */
  readonly live = new LiveStates(new Map());
  private readonly byIndex = new Map<number, UploadItemView>();
  private readonly indexById = new Map<number, number>();
  private readonly meters = new Map<number, RateMeter>();
  private readonly asked = new Set<number>();
  /** rows on screen: what a reload loads again */
  private range = { start: 0, end: 1 };
  private maxId = 0;
  /** each reload reads the queue anew: pages of an older one are dropped */
  private readonly reloads = new LatestRead();
  private isLatestReload = this.reloads.start();
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly bridge: AppBridge,
    private readonly pageSize = QUEUE_PAGE_SIZE,
  ) {
    super({ total: 0, ready: false, error: null, version: 0 });
    this.register(bridge.on('uploads:itemChanged', (item) => this.put(item)));
    this.register(
      bridge.on('uploads:progress', (batch) => {
        this.progress(batch);
        beatWithProgress();
      }),
    );
    // finished items left without an event each (Clear finished, or after the days the settings say)
    this.register(bridge.on('uploads:removed', () => this.reload()));
    this.register(() => clearTimeout(this.refreshTimer));
  }

  at(index: number): UploadItemView | undefined {
    return this.byIndex.get(index);
  }

  /** The item's state as of the last progress batch. */
  stateOf(item: UploadItemView): UploadState {
    return this.live.get().get(item.id) ?? item.state;
  }

  /** Bytes per second of a running item, from its progress so far; null until measured. */
  speedOf(id: number, now: number): number | null {
    return bytesPerSecond(this.meters.get(id), now);
  }

  etaOf(id: number, now: number, totalBytes: number): number | null {
    return etaSeconds(this.meters.get(id), now, totalBytes);
  }

  /** The queue's speed: every running item's summed. */
  speed(now: number): number {
    return [...this.meters.values()].reduce((sum, meter) => sum + (bytesPerSecond(meter, now) ?? 0), 0);
  }

  running(): boolean {
    return this.meters.size > 0;
  }

  /** Rows `start`…`end` (exclusive) are in view: their pages are loaded unless they are, or are on the way. */
  show(start: number, end: number): void {
    this.range = { start, end };
    if (!this.get().ready) return;
    const last = Math.min(end, this.get().total) - 1;
    for (let page = Math.floor(start / this.pageSize); page <= Math.floor(last / this.pageSize); page++) {
      if (!this.asked.has(page)) this.loadPage(page);
    }
  }

  /** Forgets every row and loads the first page and the rows in view again (at start, after a reconnection, a clear). */
  reload(): void {
    this.isLatestReload = this.reloads.start();
    this.byIndex.clear();
    this.indexById.clear();
    this.meters.clear();
    this.live.change((states) => states.clear());
    this.asked.clear();
    this.maxId = 0;
    this.set({ total: 0, ready: false, error: null, version: this.get().version + 1 });
    this.loadPage(0);
  }

  /** Pauses the item now, or once its chunk in flight is confirmed (`afterChunk`), so its bytes are kept. */
  async pause(id: number, options: { afterChunk?: boolean } = {}): Promise<UploadItemView> {
    return this.put(await this.bridge.invoke('uploads:pause', { id, ...options }));
  }

  async resume(id: number): Promise<UploadItemView> {
    return this.put(await this.bridge.invoke('uploads:resume', { id }));
  }

  async cancel(id: number): Promise<UploadItemView> {
    return this.put(await this.bridge.invoke('uploads:cancel', { id }));
  }

  async retry(id: number): Promise<UploadItemView> {
    return this.put(await this.bridge.invoke('uploads:retry', { id }));
  }

  /** Shows the item's file in the system's file manager, where the bridge `canReveal`. */
  reveal(id: number) {
    return this.bridge.invoke('uploads:reveal', { id });
  }

  /**
   * Queues files by their paths (dropped on the desktop app's window); their rows come with the core's events.
   * `force`: again, though uploaded from this computer before ("Upload anyway" of Find a file)
   */
  addPaths(accountId: string, paths: string[], force?: boolean) {
    return this.bridge.invoke('uploads:addPaths', { accountId, paths, force });
  }

  /** Clears the finished items and says how many; the rows are read again on the core's `uploads:removed`. */
  async clearFinished(): Promise<number> {
    return (await this.bridge.invoke('uploads:clearFinished', {})).removed;
  }

  /** An item as the core sent it (an event, or the answer to a row's action); returns it. */
  private put(item: UploadItemView): UploadItemView {
    this.measure(item.id, item.state);
    const index = this.indexById.get(item.id);
    const { total, ready } = this.get();
    if (index !== undefined) {
      this.place(index, item);
      this.changed();
    } else if (ready && item.id > this.maxId && (total === 0 || this.byIndex.has(total - 1))) {
      this.place(total, item);
      this.changed(total + 1);
    } else if (item.id > this.maxId) {
      this.refreshEnd();
    }
    return item;
  }

  /**
   * Moves the running items' bytes. An item the page did not know was
   * running (its event is older than the batch) changes as by an event.
   */
  private progress(batch: readonly { id: number; state: UploadState }[]): void {
    let started = false;
    this.live.change((states) => {
      for (const { id, state } of batch) {
        this.measure(id, state);
        const index = this.indexById.get(id);
        const item = index === undefined ? undefined : this.byIndex.get(index);
        if (index === undefined || !item) continue;
        states.set(id, state);
        if (item.state.kind === state.kind) continue;
        this.byIndex.set(index, { ...item, state });
        started = true;
      }
    });
    if (started) this.changed();
  }

  private loadPage(page: number): void {
    const isLatest = this.isLatestReload;
    this.asked.add(page);
    this.bridge.invoke('uploads:list', { offset: page * this.pageSize, limit: this.pageSize }).then(
      ({ items, total }) => {
        if (!isLatest()) return;
        items.forEach((item, i) => {
          this.measure(item.id, item.state);
          this.place(page * this.pageSize + i, item);
        });
        // the end of the queue shrank (finished items cleared elsewhere): forget rows past it
        for (const [index, item] of this.byIndex) if (index >= total) this.forget(index, item);
        this.set({ ...this.get(), total, ready: true, error: null, version: this.get().version + 1 });
        // the total may have grown into rows already on screen
        this.show(this.range.start, this.range.end);
      },
      (problem: unknown) => {
        if (!isLatest()) return;
        this.asked.delete(page);
        this.set({ ...this.get(), error: toIpcError(problem) });
      },
    );
  }

  /** The last page read again, at most every half second: it says the new total. */
  private refreshEnd(): void {
    if (this.refreshTimer || !this.get().ready) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.loadPage(Math.floor(Math.max(0, this.get().total - 1) / this.pageSize));
    }, REFRESH_END_MS);
  }

  private measure(id: number, state: UploadState): void {
    if (state.kind === 'uploading') this.meters.set(id, observe(this.meters.get(id), Date.now(), state.sentBytes));
    else this.meters.delete(id);
  }

  private place(index: number, item: UploadItemView): void {
    const previous = this.byIndex.get(index);
    if (previous && previous.id !== item.id) this.indexById.delete(previous.id);
    this.byIndex.set(index, item);
    this.indexById.set(item.id, index);
    if (item.id > this.maxId) this.maxId = item.id;
    // what the core sent last is the newest: a batch before it is older
    if (this.live.get().has(item.id)) this.live.change((states) => states.delete(item.id));
  }

  private forget(index: number, item: UploadItemView): void {
    this.indexById.delete(item.id);
    if (this.live.get().has(item.id)) this.live.change((states) => states.delete(item.id));
    this.byIndex.delete(index);
  }

  private changed(total = this.get().total): void {
    this.set({ ...this.get(), total, version: this.get().version + 1 });
  }
}
