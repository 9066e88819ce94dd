import { toIpcError } from '../bridge/bridge-context.js';
import { Store, type Read } from './store.js';

/**
 * A list the core adds to by events, newest first: the notifications, the
 * files followed after their upload. Read at start and after a
 * reconnection; each event's entry goes on top, in place of the one with
 * the same key. What events added while a read was on its way is put on
 * top of its answer, so nothing that arrived meanwhile is lost.
 */
export class FeedStore<T> extends Store<Read<T[]>> {
  /** what events added since the last read was sent */
  private since: T[] = [];
  private readonly added = new Set<(entry: T) => void>();

  constructor(
    private readonly feed: {
      read(): Promise<T[]>;
      /** subscribes to the event that adds an entry; returns the unsubscribe */
      onAdded(add: (entry: T) => void): () => void;
      key(entry: T): string;
      limit: number;
      /** empties the list in the core: a feed without it is only ever added to */
      clear?(): Promise<unknown>;
    },
  ) {
    super({ data: undefined, error: null });
    this.register(feed.onAdded((entry) => this.add(entry)));
  }

  load(): void {
    this.since = [];
    this.feed.read().then(
      (list) => this.set({ data: this.since.reduce((all, entry) => this.top(entry, all), list), error: null }),
      (problem: unknown) => this.set({ ...this.get(), error: toIpcError(problem) }),
    );
  }

  /** Empties the list, in the core first (the person's Clear). */
  async clear(): Promise<void> {
    await this.feed.clear?.();
    this.since = [];
    this.set({ data: [], error: null });
  }

  /** Calls `listener` with each entry an event adds (toasts); returns the unsubscribe. */
  onDidAdd(listener: (entry: T) => void): () => void {
    this.added.add(listener);
    return () => this.added.delete(listener);
  }

  private add(entry: T): void {
    this.since.push(entry);
    this.set({ data: this.top(entry, this.get().data ?? []), error: null });
    for (const listener of this.added) listener(entry);
  }

  private top(entry: T, list: readonly T[]): T[] {
    const key = this.feed.key(entry);
    return [entry, ...list.filter((other) => this.feed.key(other) !== key)].slice(0, this.feed.limit);
  }
}
