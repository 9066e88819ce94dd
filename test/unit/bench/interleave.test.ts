import { describe, expect, it } from 'vitest';
import { interleave, roundOrder, roundRatios, spread } from '../../../bench/interleave.js';

describe('interleaved benchmark rounds', () => {
  it('rotates the order each round, so no contender always goes first', () => {
    expect([0, 1, 2, 3].map((round) => roundOrder(['a', 'b', 'c'], round).join(''))).toEqual([
      'abc',
      'bca',
      'cab',
      'abc',
    ]);
  });

  it('warms each contender up once, uncounted, then runs each once per round in that order, keeping its samples in round order', async () => {
    const ran: string[] = [];
    const contender = (name: string) => ({
      name,
      run: async () => {
        ran.push(name);
        return { seconds: ran.length, cpuSeconds: 0 };
      },
    });
    const samples = await interleave([contender('a'), contender('b')], 3, async () => void ran.push('|'));
    expect(ran.join('')).toBe('a|b|a|b|b|a|a|b|');
    expect(samples.get('a')!.map((sample) => sample.seconds)).toEqual([5, 11, 13]);
  });

  it('takes medians, and ratios within each round', () => {
    expect(spread([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3 });
    expect(spread([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4 });
    // a slow second round slows both: the ratio within the round holds
    expect(roundRatios([100, 50, 110], [100, 50, 100])).toEqual({ median: 1, min: 1, max: 1.1 });
    expect(() => roundRatios([1], [1, 2])).toThrow();
  });
});
