import { describe, expect, it } from 'vitest';
import { LaneGovernor } from '../../../src-main/uploads/lane-governor.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const STEP_MS = 100;

/** bytes per ms of 1 MB/s */
const MB_S = 1_000;

/**
 * Feeds a governor the bytes a link moves with as many chunks in flight as it
 * allows (`rates[lanes - 1]`, bytes per ms), one step of 100 ms at a time for
 * `ms`, and returns the chunks allowed after each second.
 */
async function drive(
  governor: LaneGovernor,
  clock: FakeClock,
  rates: number[],
  ms: number,
  opened: number[] = [],
): Promise<number[]> {
  const seconds: number[] = [];
  for (let t = STEP_MS; t <= ms; t += STEP_MS) {
    await clock.advance(STEP_MS);
    const lanes = governor.allowed();
    if (governor.record(rates[lanes - 1]! * STEP_MS)) opened.push(clock.monotonic());
    if (t % 1_000 === 0) seconds.push(governor.allowed());
  }
  return seconds;
}

describe('LaneGovernor', () => {
  it('opens a second and a third chunk while each raises the rate by 10 %', async () => {
    const clock = new FakeClock();
    const governor = new LaneGovernor({ max: 3, clock, limited: () => false });
    const opened: number[] = [];
    // 100, 125, 150 MB/s: each lane pays
    expect(await drive(governor, clock, [100 * MB_S, 125 * MB_S, 150 * MB_S], 5_000, opened)).toEqual([2, 3, 3, 3, 3]);
    // the first bytes at 100 ms start the window; each decision a window (0.5 s) later, a lane opened at once
    expect(opened).toEqual([600, 1_100]);
  });

  it('goes back to the chunks that paid, and tries one more again only after the hold', async () => {
    const clock = new FakeClock();
    const governor = new LaneGovernor({ max: 3, clock, limited: () => false, holdMs: 5_000 });
    // the second lane adds 25 %, the third only 4 %: not kept
    const seconds = await drive(governor, clock, [100 * MB_S, 125 * MB_S, 130 * MB_S], 10_000);
    // the third is tried at 1.1 s, dropped at 1.6 s, tried again at 6.6 s (hold over), dropped at 7.1 s
    expect(seconds).toEqual([2, 2, 2, 2, 2, 2, 3, 2, 2, 2]);
  });

  it('keeps one chunk when a second does not raise the rate (one connection fills the link)', async () => {
    const clock = new FakeClock();
    const governor = new LaneGovernor({ max: 3, clock, limited: () => false, holdMs: 30_000 });
    const seconds = await drive(governor, clock, [100 * MB_S, 105 * MB_S, 105 * MB_S], 20_000);
    // tried once, for half a second, then one chunk through the 30 s hold
    expect(seconds).toEqual([2, ...Array<number>(19).fill(1)]);
  });

  it('tries again ever more rarely when one chunk fills the link: 30 s, 60 s, 2 min, then every 4 min', async () => {
    const clock = new FakeClock();
    const governor = new LaneGovernor({ max: 3, clock, limited: () => false });
    const opened: number[] = [];
    await drive(governor, clock, [100 * MB_S, 100 * MB_S, 100 * MB_S], 800_000, opened);
    // each try lasts a window (0.5 s) and fails; the hold after it doubles, up to 8×
    expect(opened).toEqual([600, 31_100, 91_600, 212_100, 452_600, 693_100]);
  });

  it('on a slow link measures at least 16 MiB before deciding (bytes move in 1 MiB pieces)', async () => {
    const clock = new FakeClock();
    const governor = new LaneGovernor({ max: 3, clock, limited: () => false });
    const opened: number[] = [];
    // 10 Mbit/s: 16 MiB take 13.4 s
    await drive(governor, clock, [1.25 * MB_S, 1.25 * MB_S, 1.25 * MB_S], 40_000, opened);
    expect(opened).toEqual([13_600]);
    expect(governor.allowed()).toBe(1);
  });

  it('never opens a second chunk under a bandwidth limit, and starts over when the limit is lifted', async () => {
    const clock = new FakeClock();
    let limited = false;
    const governor = new LaneGovernor({ max: 3, clock, limited: () => limited });
    expect(await drive(governor, clock, [100 * MB_S, 150 * MB_S, 200 * MB_S], 3_000)).toEqual([2, 3, 3]);
    limited = true;
    expect(governor.allowed()).toBe(1);
    expect(await drive(governor, clock, [100 * MB_S, 150 * MB_S, 200 * MB_S], 5_000)).toEqual([1, 1, 1, 1, 1]);
    limited = false;
    // measured again from one chunk, then up
    expect(await drive(governor, clock, [100 * MB_S, 150 * MB_S, 200 * MB_S], 3_000)).toEqual([2, 3, 3]);
  });

  it('stays at one chunk when the setting says one', async () => {
    const clock = new FakeClock();
    const governor = new LaneGovernor({ max: 1, clock, limited: () => false });
    expect(await drive(governor, clock, [100 * MB_S, 200 * MB_S, 300 * MB_S], 5_000)).toEqual([1, 1, 1, 1, 1]);
  });
});
