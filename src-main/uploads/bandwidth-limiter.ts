import { systemClock, type Clock } from '../common/clock.js';

/** How far ahead of the average rate a burst may run, so small writes are not each delayed. */
const BURST_MS = 250;

/**
 * One upload bandwidth limit shared by every upload of the app (bytes per
 * second, null for none). A generic cell-rate algorithm: each `take` moves a
 * theoretical finish time forward by bytes/rate and waits until the caller is
 * no more than `BURST_MS` ahead of it. Callers are served in the order they ask.
 */
export class BandwidthLimiter {
  private bytesPerSecond: number | null;
  private finishAt = 0;

  constructor(
    bytesPerSecond: number | null = null,
    private readonly clock: Clock = systemClock,
  ) {
    this.bytesPerSecond = bytesPerSecond;
  }

  get limit(): number | null {
    return this.bytesPerSecond;
  }

  setLimit(bytesPerSecond: number | null): void {
    this.bytesPerSecond = bytesPerSecond && bytesPerSecond > 0 ? bytesPerSecond : null;
    this.finishAt = 0;
  }

  async take(bytes: number, signal?: AbortSignal): Promise<void> {
    const rate = this.bytesPerSecond;
    if (rate === null) return;
    const now = this.clock.monotonic();
    this.finishAt = Math.max(this.finishAt, now) + (bytes * 1000) / rate;
    const wait = this.finishAt - now - BURST_MS;
    if (wait > 0) await this.clock.sleep(wait, signal);
  }
}
