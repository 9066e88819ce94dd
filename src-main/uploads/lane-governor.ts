import type { Clock } from '../common/clock.js';

export interface LaneGovernorOptions {
  /** chunks of the file in flight at most (the setting, 1–3) */
  max: number;
  clock: Clock;
  /** true while a bandwidth limit is in force: one chunk fills it alone */
  limited(): boolean;
  /** how long the file's rate is measured before a decision */
  windowMs?: number;
  /**
   * and how many bytes at least: bytes are counted as the body's pieces
   * (256 KiB) handed to the network, so on a slow link a second holds a few of
   * them, and 64 make a rate good to about 2 %
   */
  windowBytes?: number;
  /** how much faster one more chunk in flight must make the file to be kept (0.1: 10 %) */
  gain?: number;
  /** after a chunk in flight more did not pay, how long before it is tried again; doubled after each such try, to 8× */
  holdMs?: number;
}

/**
 * How many chunks of one file may be in flight: one, and another only while
 * it raises the file's throughput, so a pause, a quit or a dropped
 * connection loses at most about one chunk. It measures the file's rate over
 * a window, then tries one chunk more for the next window and keeps it only
 * if the rate rose by `gain`; otherwise it goes back and does not try again
 * for `holdMs`, twice that after a second such try, and so on: a chunk opened
 * for a try that did not pay runs to its end, so on a slow link, where one
 * chunk fills the link, tries must grow rare. Under a bandwidth limit,
 * always one.
 *
 * ```
 *   measure n ──window──▶ probe n+1 ──window, rate ≥ (1+gain)·rate(n)──▶ probe n+2 … (up to max)
 *                             └──────── otherwise: back to n, hold (30 s, 60 s … 4 min) ──▶ measure n
 * ```
 */
export class LaneGovernor {
  private readonly windowMs: number;
  private readonly windowBytes: number;
  private readonly gain: number;
  private readonly holdMs: number;
  /** tries that did not pay in a row */
  private misses = 0;
  private lanes = 1;
  private moved = 0;
  private window: { from: number; moved: number } | null = null;
  /** while probing: the rate with one chunk in flight fewer, bytes per ms */
  private baseline: number | null = null;
  private holdUntil = -Infinity;

  constructor(private readonly options: LaneGovernorOptions) {
    this.windowMs = options.windowMs ?? 500;
    this.windowBytes = options.windowBytes ?? 16 * 1024 * 1024;
    this.gain = options.gain ?? 0.1;
    this.holdMs = options.holdMs ?? 30_000;
  }

  /** The chunks of the file that may be in flight now. */
  allowed(): number {
    return this.options.limited() ? 1 : this.lanes;
  }

  /** Bytes of the file handed to the network; true when one more chunk may be opened now. */
  record(bytes: number): boolean {
    const now = this.options.clock.monotonic();
    if (this.options.limited()) {
      // what was measured without the limit says nothing under it: start over once it is lifted
      this.lanes = 1;
      this.baseline = null;
      this.window = null;
      return false;
    }
    this.moved += bytes;
    if (!this.window) {
      this.window = { from: now, moved: this.moved };
      return false;
    }
    const elapsed = now - this.window.from;
    const windowed = this.moved - this.window.moved;
    if (elapsed < this.windowMs || windowed < this.windowBytes) return false;
    const rate = windowed / elapsed;
    this.window = { from: now, moved: this.moved };
    if (this.baseline !== null && rate < this.baseline * (1 + this.gain)) {
      this.lanes--;
      this.baseline = null;
      this.holdUntil = now + this.holdMs * 2 ** Math.min(this.misses, 3);
      this.misses++;
      return false;
    }
    if (this.baseline !== null) this.misses = 0;
    this.baseline = null;
    if (this.lanes >= this.options.max || now < this.holdUntil) return false;
    this.baseline = rate;
    this.lanes++;
    return true;
  }
}
