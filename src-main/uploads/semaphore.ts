/** At most `capacity` holders at once; waiters are served first come, first served. */
export class Semaphore {
  private available: number;
  private readonly waiters: Array<{ grant: () => void; signal: AbortSignal | undefined }> = [];

  constructor(capacity: number) {
    this.available = capacity;
  }

  /** Resolves with a release function; rejects with the signal's reason if aborted while waiting. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.available > 0) {
      this.available--;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        signal,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(signal!.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next.grant();
      else this.available++;
    };
  }
}
