/**
 * Runs background work taken from the database, up to `concurrency` items at
 * once. `claim` must mark the item as taken in the same step that finds it, so
 * an item never runs twice. `kick()` looks for work at once (after a create or
 * retry); a slow interval catches anything else (the admin CLI, restarts).
 */
export interface JobRunnerOptions<T> {
  concurrency: number;
  intervalMs: number;
  claim: () => T | undefined;
  run: (item: T, signal: AbortSignal) => Promise<void>;
  onError: (error: unknown) => void;
}

export class JobRunner<T> {
  private readonly running = new Set<Promise<void>>();
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: JobRunnerOptions<T>) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.options.intervalMs);
    this.timer.unref();
    this.kick();
  }

  kick(): void {
    while (!this.controller.signal.aborted && this.running.size < this.options.concurrency) {
      const item = this.options.claim();
      if (item === undefined) return;
      const task = this.options
        .run(item, this.controller.signal)
        .catch(this.options.onError)
        .finally(() => {
          this.running.delete(task);
          this.kick();
        });
      this.running.add(task);
    }
  }

  /** Stops claiming, aborts what runs and waits for it to wind down. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.controller.abort(new Error('server stopping'));
    await Promise.allSettled([...this.running]);
  }
}
