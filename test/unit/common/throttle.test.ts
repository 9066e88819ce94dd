import { describe, expect, it } from 'vitest';
import { Throttle } from '../../../src-main/common/throttle.js';
import { FakeClock } from '../../helpers/fake-clock.js';

function setup(ms = 100) {
  const clock = new FakeClock();
  const calls: number[] = [];
  const throttle = new Throttle(() => calls.push(clock.monotonic()), ms, clock);
  return { clock, calls, throttle };
}

describe('Throttle', () => {
  it('merges the calls of one window into one at its end, and runs at most once per window', async () => {
    const { clock, calls, throttle } = setup();
    for (let i = 0; i < 50; i++) throttle.schedule();
    await clock.advance(99);
    expect(calls).toEqual([]);
    await clock.advance(1);
    expect(calls).toEqual([100]);
    // asked for all along, as progress is: one call per window, never two within 100 ms
    for (let t = 0; t < 500; t += 10) {
      throttle.schedule();
      await clock.advance(10);
    }
    expect(calls).toEqual([100, 200, 300, 400, 500, 600]);
    await clock.advance(1_000);
    expect(calls).toHaveLength(6);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('runs what waits at once on flush, and nothing more at the end of that window', async () => {
    const { clock, calls, throttle } = setup();
    throttle.flush();
    expect(calls).toEqual([]);
    throttle.schedule();
    await clock.advance(40);
    throttle.flush();
    expect(calls).toEqual([40]);
    await clock.advance(100);
    expect(calls).toEqual([40]);
    throttle.schedule();
    await clock.advance(100);
    expect(calls).toEqual([40, 240]);
  });

  it('drops what waits once disposed, and what is asked for after', async () => {
    const { clock, calls, throttle } = setup();
    throttle.schedule();
    throttle.dispose();
    throttle.schedule();
    throttle.flush();
    await clock.advance(1_000);
    expect(calls).toEqual([]);
    expect(clock.pendingSleeps).toBe(0);
  });
});
