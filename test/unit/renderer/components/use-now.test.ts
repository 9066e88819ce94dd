import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { beatWithProgress, onTick } from '../../../../src-renderer/components/use-now.js';

describe('the clock of useNow', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('tells each listener once a period, on the moment of its key, and stops its timer when none listens', () => {
    const told: string[] = [];
    const at = (name: string) => () => told.push(`${name}@${Date.now() % 1_000}`);
    vi.setSystemTime(0);
    const stops = [onTick(1_000, 3, at('row 3')), onTick(1_000, 13, at('row 13')), onTick(1_000, 7, at('row 7'))];
    vi.advanceTimersByTime(2_000);
    // rows 3 and 13 share a moment; row 7 ticks apart from them, each once a second
    expect(told).toEqual(['row 3@300', 'row 13@300', 'row 7@700', 'row 3@300', 'row 13@300', 'row 7@700']);
    for (const stop of stops) stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('beats with a progress batch that comes half a beat or more after its last, then on its timer', () => {
    const told: string[] = [];
    const at = (name: string) => () => told.push(`${name}@${Date.now()}`);
    vi.setSystemTime(0);
    const stops = [onTick(1_000, 3, at('row 3')), onTick(1_000, 4, at('row 4'))];
    // the timer beats at 100 and 200 (slots 1 and 2); a batch 90 ms after that brings slot 3's in
    vi.advanceTimersByTime(290);
    beatWithProgress();
    // a batch right after it is too soon: no beat
    beatWithProgress();
    // the next batch, 2 ms later than a beat: the timer waited for it (a beat and a half), slot 4's comes with it
    vi.advanceTimersByTime(102);
    beatWithProgress();
    // no more batches: the timer beats 150 ms after, at 542, then each 100 ms: slot 3's at 1,342
    vi.advanceTimersByTime(1_000);
    expect(told).toEqual(['row 3@290', 'row 4@392', 'row 3@1342']);
    for (const stop of stops) stop();
  });
});
