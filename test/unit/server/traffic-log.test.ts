import { describe, expect, it } from 'vitest';
import { BoundedLog } from '../../../src-server/http/traffic-log.js';

describe('BoundedLog', () => {
  it('keeps entries oldest first', () => {
    const log = new BoundedLog<number>(5);
    [1, 2, 3].forEach((n) => log.push(n));
    expect(log.entries()).toEqual([1, 2, 3]);
  });

  it('keeps only the last `capacity` entries, still oldest first, as it wraps again and again', () => {
    const log = new BoundedLog<number>(3);
    for (let n = 1; n <= 4; n++) log.push(n);
    expect(log.entries()).toEqual([2, 3, 4]);
    for (let n = 5; n <= 9; n++) log.push(n);
    expect(log.entries()).toEqual([7, 8, 9]);
  });

  it('hands out a copy, and starts over after clear', () => {
    const log = new BoundedLog<number>(2);
    log.push(1);
    const before = log.entries();
    log.push(2);
    log.push(3);
    expect(before).toEqual([1]);
    log.clear();
    expect(log.entries()).toEqual([]);
    log.push(4);
    log.push(5);
    log.push(6);
    expect(log.entries()).toEqual([5, 6]);
  });

  it('refuses a capacity that is not a positive whole number', () => {
    expect(() => new BoundedLog(0)).toThrow(RangeError);
    expect(() => new BoundedLog(1.5)).toThrow(RangeError);
  });
});
