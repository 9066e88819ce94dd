/** The clock's view of time and timers: the browser's, or a test's. */
export interface ClockTimers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

interface Entry {
  tell(): void;
  /** when it was last told (or added) */
  last: number;
}

/**
 * One clock for everything on screen that changes with time (a speed, a
 * time left, a countdown): each listener is told about once a second.
 *
 * While uploads run, progress batches arrive at up to 10 Hz, each drawn in a
 * frame of its own. The clock then ticks on those batches (`beat`), so what
 * a listener changes is drawn in the batch's frame instead of one more
 * frame, and each beat tells only its share of the listeners, the longest
 * waiting first (a tenth of them at 10 Hz): a second's text updates are
 * spread over its frames rather than stacked in one (three rows and the
 * speed at once took 5 ms of the main thread in a frame of their own; one
 * row's words add ~0.8 ms to the bars' frame). Without beats (nothing
 * uploading, or a stalled upload), a timer tells each listener when its
 * second is up.
 *
 * ```
 *   beat ──> the due listeners (told ≥ 0.95 period ago), oldest first, at
 *            most ceil(listeners × time since the last beat / period)
 *   timer ─> beats within the last period: nothing (armed again a period
 *            after the last beat); else every due listener, and armed for
 *            the next listener's second
 * ```
 *
 * The timer is armed once and moves itself on: a beat never touches it,
 * so ten batches a second cost no timer cleared and set again each.
 */
export class SecondClock {
  private readonly entries = new Set<Entry>();
  private timer: unknown = null;
  private lastBeat = -Infinity;

  constructor(
    private readonly timers: ClockTimers,
    readonly periodMs = 1_000,
    /** beats closer than this (batches come at 10 Hz at most) share out as if this far apart */
    readonly shortestBeatMs = 100,
  ) {}

  /** Calls `tell` about once a period until the returned function is called. */
  add(tell: () => void): () => void {
    const entry: Entry = { tell, last: this.timers.now() };
    this.entries.add(entry);
    // an armed timer fires by this one's second: it is armed for another's, or a period after a beat
    if (this.timer === null) this.arm();
    return () => {
      this.entries.delete(entry);
      if (this.entries.size === 0) this.disarm();
    };
  }

  /** A progress batch was just applied: tell the listeners whose turn it is, in this task. */
  beat(): void {
    const now = this.timers.now();
    const sinceLast = Math.min(this.periodMs, Math.max(this.shortestBeatMs, now - this.lastBeat));
    this.lastBeat = now;
    // slower beats tell more at a time, so that each listener is still told about once a period
    const share = Math.ceil((this.entries.size * sinceLast) / this.periodMs);
    const due = this.due(now).sort((a, b) => a.last - b.last);
    for (const entry of due.slice(0, share)) this.tell(entry, now);
    if (this.timer === null) this.arm();
  }

  private due(now: number): Entry[] {
    return [...this.entries].filter((entry) => now - entry.last >= this.periodMs * 0.95);
  }

  private tell(entry: Entry, now: number): void {
    // a listener removed by another one's tell is not told
    if (!this.entries.has(entry)) return;
    entry.last = now;
    entry.tell();
  }

  private arm(): void {
    if (this.entries.size === 0) return;
    const now = this.timers.now();
    // beats are coming: the timer only stands in if they stop; else the oldest listener's second
    const oldest = Math.min(...[...this.entries].map((entry) => entry.last));
    const at = Math.max(this.lastBeat, oldest) + this.periodMs;
    this.timer = this.timers.setTimeout(() => this.fire(), Math.max(0, at - now));
  }

  private fire(): void {
    this.timer = null;
    const now = this.timers.now();
    if (now - this.lastBeat >= this.periodMs) for (const entry of this.due(now)) this.tell(entry, now);
    this.arm();
  }

  private disarm(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}
