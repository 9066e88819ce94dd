import type { Clock } from './clock.js';

/** Runs a task every `everyMs` until `signal` aborts: the wait, then the task, again. */
export class Repeater {
  /** ends the wait under way when the interval changes */
  private wake = new AbortController();

  constructor(
    private interval: number,
    private readonly clock: Clock,
    private readonly signal: AbortSignal,
  ) {}

  get everyMs(): number {
    return this.interval;
  }

  /** The interval from now on: the wait under way starts again, that long. */
  setEvery(ms: number): void {
    this.interval = ms;
    const wake = this.wake;
    this.wake = new AbortController();
    wake.abort();
  }

  /** Resolves once `signal` aborts; a task that throws ends the loop with its error. */
  async run(task: () => Promise<unknown>): Promise<void> {
    while (!this.signal.aborted) {
      try {
        await this.clock.sleep(this.interval, AbortSignal.any([this.signal, this.wake.signal]));
      } catch {
        // aborted (the loop ends), or a new interval (it waits again, that long)
        continue;
      }
      await task();
    }
  }
}
