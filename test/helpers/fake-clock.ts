import type { Clock } from '../../src-main/common/clock.js';

interface Sleeper {
  at: number;
  seq: number;
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/** Lets every promise chain that is not waiting on real I/O or a real timer run to completion. */
export function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A Clock whose time moves only when a test calls `advance(ms)`. Sleepers wake
 * in time order (ties in the order they slept), and pending microtasks are
 * flushed after each wake-up, so code that sleeps again in a loop sees the
 * time of its own wake-up and may wake again within the same advance.
 */
export class FakeClock implements Clock {
  private now: number;
  private readonly wallAtZero: number;
  private readonly sleepers: Sleeper[] = [];
  private seq = 0;

  constructor(options: { monotonicStart?: number; wallStart?: number } = {}) {
    this.now = options.monotonicStart ?? 0;
    this.wallAtZero = (options.wallStart ?? Date.UTC(2025, 0, 1)) - this.now;
  }

  monotonic(): number {
    return this.now;
  }

  wall(): number {
    return this.wallAtZero + this.now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const sleeper: Sleeper = {
        at: this.now + Math.max(0, ms),
        seq: this.seq++,
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.remove(sleeper);
          reject(signal!.reason);
        },
      };
      signal?.addEventListener('abort', sleeper.onAbort, { once: true });
      this.sleepers.push(sleeper);
    });
  }

  /** How many sleeps are waiting, e.g. to show a component stops its timer when idle. */
  get pendingSleeps(): number {
    return this.sleepers.length;
  }

  /** Moves time forward by `ms`, waking due sleepers one at a time in order. */
  async advance(ms: number): Promise<void> {
    const target = this.now + Math.max(0, ms);
    await flushMicrotasks();
    // Bounded so a zero-delay sleep loop fails the test instead of hanging it.
    for (let wakeUps = 0; ; wakeUps++) {
      if (wakeUps > 100_000) throw new Error('FakeClock.advance: more than 100,000 wake-ups; a loop sleeps for 0 ms?');
      const next = this.nextDue(target);
      if (next === undefined) break;
      this.remove(next);
      this.now = Math.max(this.now, next.at);
      next.signal?.removeEventListener('abort', next.onAbort);
      next.resolve();
      await flushMicrotasks();
    }
    this.now = target;
    await flushMicrotasks();
  }

  private nextDue(target: number): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const sleeper of this.sleepers) {
      if (sleeper.at > target) continue;
      if (best === undefined || sleeper.at < best.at || (sleeper.at === best.at && sleeper.seq < best.seq)) {
        best = sleeper;
      }
    }
    return best;
  }

  private remove(sleeper: Sleeper): void {
    const index = this.sleepers.indexOf(sleeper);
    if (index >= 0) this.sleepers.splice(index, 1);
  }
}
