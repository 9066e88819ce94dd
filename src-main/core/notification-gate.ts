import type { Clock } from '../common/clock.js';

/**
 * Gathers what would each be a notification into groups (one per key: a
 * kind, a watched folder) and lets a group out at most once per `spacingMs`
 * (a minute): the first entry waits `gatherMs` for those that come with it;
 * what comes while the group's last notification is younger than a minute
 * waits for that minute to end and is said together, with its count. A
 * storm of 200 failures is one or two notifications, never 200, and every
 * entry is in one of them.
 */
export class NotificationGate<Entry> {
  private readonly held = new Map<string, { entries: Entry[]; timer: AbortController }>();
  /** per key: when its last group was let out (monotonic ms) */
  private readonly lastOut = new Map<string, number>();
  private disposed = false;

  constructor(
    private readonly options: {
      clock: Clock;
      spacingMs: number;
      /** a group's entries, let out together */
      out(key: string, entries: Entry[]): void;
    },
  ) {}

  /** Holds `entry` in the group `key`; `gatherMs`: how long a new group waits for more before it is let out. */
  add(key: string, entry: Entry, gatherMs: number): void {
    if (this.disposed) return;
    const group = this.held.get(key);
    if (group) {
      group.entries.push(entry);
      return;
    }
    const { clock, spacingMs } = this.options;
    const last = this.lastOut.get(key);
    const wait = Math.max(gatherMs, last === undefined ? 0 : last + spacingMs - clock.monotonic());
    const timer = new AbortController();
    this.held.set(key, { entries: [entry], timer });
    clock.sleep(wait, timer.signal).then(
      () => this.letOut(key),
      () => undefined,
    );
  }

  /** Lets out every group now (a quit says what was about to be said). */
  flush(): void {
    for (const key of [...this.held.keys()]) this.letOut(key);
  }

  dispose(): void {
    this.disposed = true;
    for (const { timer } of this.held.values()) timer.abort();
    this.held.clear();
  }

  private letOut(key: string): void {
    const group = this.held.get(key);
    if (!group) return;
    group.timer.abort();
    this.held.delete(key);
    this.lastOut.set(key, this.options.clock.monotonic());
    this.options.out(key, group.entries);
  }
}
