import { describe, expect, it } from 'vitest';
import {
  ETA_WARM_UP_MS,
  bytesPerSecond,
  etaSeconds,
  formatDuration,
  formatRate,
  observe,
  type RateMeter,
} from '../../../../src-renderer/model/transfer-rate.js';

/** 1 MB every 100 ms (10 MB/s) from t=0 to `until`. */
function steady(until: number, start = 0): RateMeter {
  let meter: RateMeter | undefined;
  for (let at = start; at <= until; at += 100) meter = observe(meter, at, ((at - start) / 100) * 1_000_000);
  return meter!;
}

describe('transfer rate', () => {
  it('measures the speed over the recent window and falls by itself when nothing moves', () => {
    expect(bytesPerSecond(undefined, 0)).toBeNull();
    expect(bytesPerSecond(observe(undefined, 0, 0), 0)).toBeNull();
    const meter = steady(1_000);
    expect(bytesPerSecond(meter, 1_000)).toBeCloseTo(10_000_000);
    // a stall: no sample for 1 s more, the same bytes over a longer span
    expect(bytesPerSecond(meter, 2_000)).toBeCloseTo(5_000_000);
    // the window keeps about five seconds, so an old burst stops counting
    expect(steady(20_000).samples[0]!.at).toBeGreaterThanOrEqual(15_000 - 100);
  });

  it('gives no time left during the 2 s warm-up, then the bytes left at the current speed', () => {
    const early = steady(1_900);
    expect(etaSeconds(early, 1_900, 100_000_000)).toBeNull();
    const warm = steady(ETA_WARM_UP_MS);
    // 20 MB sent of 100 MB at 10 MB/s
    expect(etaSeconds(warm, ETA_WARM_UP_MS, 100_000_000)).toBe(8);
  });

  it('starts over, warm-up included, when the count goes back (the upload restarted)', () => {
    const meter = observe(steady(3_000), 3_100, 0);
    expect(meter.startedAt).toBe(3_100);
    expect(meter.samples).toEqual([{ at: 3_100, bytes: 0 }]);
    expect(etaSeconds(observe(meter, 3_200, 1_000_000), 3_200, 10_000_000)).toBeNull();
  });

  it('says speeds and durations as people read them', () => {
    expect(formatRate(1_234_567)).toBe('1.23 MB/s');
    expect(formatRate(0)).toBe('0 B/s');
    expect(formatDuration(0.2)).toBe('1 s');
    expect(formatDuration(37)).toBe('37 s');
    expect(formatDuration(120)).toBe('2 min');
    expect(formatDuration(250)).toBe('4 min 10 s');
    expect(formatDuration(7_500)).toBe('2 h 5 min');
    expect(formatDuration(7_200)).toBe('2 h');
  });
});
