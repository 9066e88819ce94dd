/** At most `capacity` holders at once; waiters are served first come, first served. */
export class Semaphore {
  private available: number;
  private capacity: number;
  private readonly waiters: Array<{ grant: () => void; signal: AbortSignal | undefined }> = [];

  constructor(capacity: number) {
    this.capacity = capacity;
    this.available = capacity;
  }

  /** Changes the capacity now; holders above a lowered capacity keep their slot until they release it. */
  setCapacity(capacity: number): void {
    this.available += capacity - this.capacity;
    this.capacity = capacity;
    while (this.available > 0 && this.waiters.length > 0) {
      this.available--;
      this.waiters.shift()!.grant();
    }
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

  /** Runs `task` holding a slot, released however it ends. */
  async run<T>(signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // below zero after a lowered capacity: this slot is gone, not handed on
      if (this.available < 0) {
        this.available++;
        return;
      }
      const next = this.waiters.shift();
      if (next) next.grant();
      else this.available++;
    };
  }
}
