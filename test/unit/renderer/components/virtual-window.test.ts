import { describe, expect, it } from 'vitest';
import { virtualWindow } from '../../../../src-renderer/components/virtual-window.js';

describe('virtual window', () => {
  it('renders the rows in view plus the overscan, never past either end', () => {
    expect(virtualWindow({ scrollTop: 0, viewportHeight: 440, rowHeight: 88, count: 10_000, overscan: 4 })).toEqual({
      start: 0,
      end: 9,
      offsetTop: 0,
      totalHeight: 880_000,
    });
    expect(virtualWindow({ scrollTop: 8_800, viewportHeight: 440, rowHeight: 88, count: 10_000, overscan: 4 })).toEqual(
      { start: 96, end: 109, offsetTop: 96 * 88, totalHeight: 880_000 },
    );
    // scrolled past the end (the list shrank): clamped to the last rows
    const end = virtualWindow({ scrollTop: 10_000_000, viewportHeight: 440, rowHeight: 88, count: 10_000 });
    expect(end.end).toBe(10_000);
    expect(end.start).toBe(10_000 - 5 - 4);
  });

  it('renders nothing for an empty list, and every row of a short one', () => {
    expect(virtualWindow({ scrollTop: 0, viewportHeight: 500, rowHeight: 88, count: 0 })).toEqual({
      start: 0,
      end: 0,
      offsetTop: 0,
      totalHeight: 0,
    });
    expect(virtualWindow({ scrollTop: 0, viewportHeight: 500, rowHeight: 88, count: 3 })).toMatchObject({
      start: 0,
      end: 3,
    });
  });

  it('keeps the rendered rows to a screenful however long the list is', () => {
    for (const count of [100, 10_000, 1_000_000]) {
      const range = virtualWindow({ scrollTop: 44_000, viewportHeight: 800, rowHeight: 88, count, overscan: 4 });
      expect(range.end - range.start).toBeLessThanOrEqual(Math.ceil(800 / 88) + 1 + 8);
    }
  });
});
