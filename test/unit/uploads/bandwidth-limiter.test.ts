import { describe, expect, it } from 'vitest';
import { BandwidthLimiter } from '../../../src-main/uploads/bandwidth-limiter.js';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';

const MB = 1_000_000;
const PIECE = 64 * 1024;

/** Takes `total` bytes in 64 KiB pieces; resolves with the fake time at which each piece was let through. */
async function upload(limiter: BandwidthLimiter, clock: FakeClock, total: number): Promise<number[]> {
  const times: number[] = [];
  for (let sent = 0; sent < total; sent += PIECE) {
    await limiter.take(Math.min(PIECE, total - sent));
    times.push(clock.monotonic());
  }
  return times;
}

describe('BandwidthLimiter', () => {
  it('lets 5 MB through at 1 MB/s in about 5 s, at most 250 ms ahead of the average rate', async () => {
    const clock = new FakeClock();
    const limiter = new BandwidthLimiter(MB, clock);
    const run = upload(limiter, clock, 5 * MB);
    await clock.advance(10_000);
    const times = await run;
    expect(times).toHaveLength(77);
    const doneAt = times.at(-1)!;
    expect(doneAt).toBeGreaterThanOrEqual(4_750);
    expect(doneAt).toBeLessThanOrEqual(5_000);
    // the burst allowance: 3 pieces (196,608 bytes) go at once, the 4th (262,144 bytes in all) waits 12.144 ms
    expect(times.slice(0, 3)).toEqual([0, 0, 0]);
    expect(times[3]).toBeCloseTo(12.144, 6);
  });

  it('never waits without a limit', async () => {
    const clock = new FakeClock();
    const limiter = new BandwidthLimiter(null, clock);
    const run = upload(limiter, clock, 50 * MB);
    await flushMicrotasks();
    expect(clock.pendingSleeps).toBe(0);
    expect((await run).every((time) => time === 0)).toBe(true);
  });

  it('treats a limit of 0 as none, and applies a new limit from the next piece', async () => {
    const clock = new FakeClock();
    const limiter = new BandwidthLimiter(MB, clock);
    limiter.setLimit(0);
    expect(limiter.limit).toBeNull();
    expect(await upload(limiter, clock, 5 * MB)).toHaveLength(77);
    limiter.setLimit(2 * MB);
    expect(limiter.limit).toBe(2 * MB);
    const run = upload(limiter, clock, 5 * MB);
    await clock.advance(10_000);
    const doneAt = (await run).at(-1)!;
    expect(doneAt).toBeGreaterThanOrEqual(2_250);
    expect(doneAt).toBeLessThanOrEqual(2_500);
  });

  it('shares the rate between two uploads', async () => {
    const clock = new FakeClock();
    const limiter = new BandwidthLimiter(MB, clock);
    const first = upload(limiter, clock, 2.5 * MB);
    const second = upload(limiter, clock, 2.5 * MB);
    await clock.advance(10_000);
    const done = [(await first).at(-1)!, (await second).at(-1)!];
    // alone, each would be done after 2.25 s
    expect(Math.min(...done)).toBeGreaterThan(4_500);
    expect(Math.max(...done)).toBeGreaterThanOrEqual(4_750);
    expect(Math.max(...done)).toBeLessThanOrEqual(5_000);
  });

  it('stops waiting when the upload is cancelled', async () => {
    const clock = new FakeClock();
    const limiter = new BandwidthLimiter(MB, clock);
    await limiter.take(250_000);
    const controller = new AbortController();
    const waiting = limiter.take(PIECE, controller.signal);
    const outcome = waiting.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await flushMicrotasks();
    expect(clock.pendingSleeps).toBe(1);
    const reason = new Error('cancelled');
    controller.abort(reason);
    expect(await outcome).toBe(reason);
    expect(clock.monotonic()).toBe(0);
  });
});
