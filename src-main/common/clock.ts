/**
 * Time for the engine, injectable so tests can run a day of backoff in a millisecond.
 * `monotonic()` drives every timer and delay (it never jumps when the wall clock is
 * set); `wall()` is only for what a person reads or what survives a restart.
 */
export interface Clock {
  /** milliseconds, monotonic, arbitrary origin */
  monotonic(): number;
  /** milliseconds since the epoch */
  wall(): number;
  /** resolves after `ms` of monotonic time, or rejects with the signal's reason */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  monotonic: () => performance.now(),
  wall: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason as Error);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
