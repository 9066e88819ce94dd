/** No time-left estimate before this much measuring: the first seconds of an upload say little about the rest. */
export const ETA_WARM_UP_MS = 2_000;
/** Speed is the bytes moved over about the last five seconds, so one slow chunk does not swing it. */
export const RATE_WINDOW_MS = 5_000;

export interface RateSample {
  /** ms, any monotonic clock the caller uses consistently */
  at: number;
  /** bytes sent so far */
  bytes: number;
}

/** The measurements of one running upload; immutable, replaced at each sample. */
export interface RateMeter {
  /** when measuring started (the first sample, or the restart) */
  startedAt: number;
  samples: readonly RateSample[];
}

/**
 * Adds a sample. A count that went back (the upload started over, or a chunk
 * was sent again) starts the measuring over, warm-up included.
 */
export function observe(meter: RateMeter | undefined, at: number, bytes: number): RateMeter {
  const last = meter?.samples.at(-1);
  if (!meter || !last || bytes < last.bytes) return { startedAt: at, samples: [{ at, bytes }] };
  if (at <= last.at) return meter;
  const samples = [...meter.samples, { at, bytes }];
  // keep one sample at or before the window's start, so the window is always fully covered
  let first = 0;
  while (first + 1 < samples.length && samples[first + 1]!.at <= at - RATE_WINDOW_MS) first++;
  return { startedAt: meter.startedAt, samples: samples.slice(first) };
}

/**
 * Bytes per second over the window up to `now`: it falls by itself when no
 * sample comes (a stalled upload) because the span keeps growing. Null until
 * there are two samples.
 */
export function bytesPerSecond(meter: RateMeter | undefined, now: number): number | null {
  if (!meter || meter.samples.length < 2) return null;
  const first = meter.samples[0]!;
  const last = meter.samples.at(-1)!;
  const span = Math.max(now, last.at) - first.at;
  if (span <= 0) return null;
  return ((last.bytes - first.bytes) * 1000) / span;
}

/** Seconds left at the current speed; null during the warm-up, or while nothing moves. */
export function etaSeconds(meter: RateMeter | undefined, now: number, totalBytes: number): number | null {
  if (!meter || now - meter.startedAt < ETA_WARM_UP_MS) return null;
  const speed = bytesPerSecond(meter, now);
  if (!speed || speed <= 0) return null;
  const left = Math.max(0, totalBytes - meter.samples.at(-1)!.bytes);
  return Math.ceil(left / speed);
}
