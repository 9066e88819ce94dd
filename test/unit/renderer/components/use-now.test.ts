import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onTick } from '../../../../src-renderer/components/use-now.js';

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
});
