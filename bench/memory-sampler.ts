/** Peaks of `process.memoryUsage()` fields, in bytes. */
export interface MemoryPeaks {
  rss: number;
  heapUsed: number;
  external: number;
}

/**
 * Samples this process's memory every `everyMs` until `stop()`, which takes a
 * last sample and returns the peaks. Its own file, free of the engine's
 * imports, so a bench that loads only a watcher does not pay for SQLite and
 * undici in its baseline. A sample can only land between two turns of the
 * event loop: a peak inside one long synchronous stretch is seen only if it
 * lasts until the loop comes round.
 */
export function sampleMemory(everyMs = 50): { stop(): MemoryPeaks } {
  const peaks: MemoryPeaks = { rss: 0, heapUsed: 0, external: 0 };
  const sample = (): void => {
    const usage = process.memoryUsage();
    peaks.rss = Math.max(peaks.rss, usage.rss);
    peaks.heapUsed = Math.max(peaks.heapUsed, usage.heapUsed);
    peaks.external = Math.max(peaks.external, usage.external);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { ...peaks };
    },
  };
}
