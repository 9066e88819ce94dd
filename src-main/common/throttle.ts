import { systemClock, type Clock } from './clock.js';
import type { Disposable } from './disposable.js';

/**
 * Runs `run` at most once per `ms`, at the end of the window: the first
 * `schedule()` starts it, and every `schedule()` until it ends is merged into
 * that one call (the caller keeps what there is to merge: progress per item,
 * names of finished uploads). Nothing runs on the leading edge, so what
 * arrives together is handled together.
 */
export class Throttle implements Disposable {
  private timer: AbortController | null = null;
  private disposed = false;

  constructor(
    private readonly run: () => void,
    private readonly ms: number,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Asks for a call at the end of the current window, starting one if none is open. */
  schedule(): void {
    if (this.timer || this.disposed) return;
    const timer = new AbortController();
    this.timer = timer;
    this.clock.sleep(this.ms, timer.signal).then(
      () => this.flush(),
      () => undefined,
    );
  }

  /** Runs now the call that is waiting, if one is (a quit shows what was about to be shown). */
  flush(): void {
    if (!this.timer) return;
    this.timer.abort();
    this.timer = null;
    this.run();
  }

  /** Drops the call that is waiting, and any asked for later. */
  dispose(): void {
    this.disposed = true;
    this.timer?.abort();
    this.timer = null;
  }
}
