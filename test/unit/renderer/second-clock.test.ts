import { describe, expect, it } from 'vitest';
import { SecondClock, type ClockTimers } from '../../../src-renderer/model/second-clock.js';

/** A clock on fake time: `advance` runs the timers that come due, in order. */
function fakeTimers() {
  let now = 0;
  let next = 1;
  let cleared = 0;
  const pending = new Map<number, { at: number; run: () => void }>();
  const timers: ClockTimers = {
    now: () => now,
    setTimeout(run, ms) {
      const id = next++;
      pending.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (id) => {
      cleared++;
      pending.delete(id as number);
    },
  };
  return {
    timers,
    pending: () => pending.size,
    /** timers set and cleared so far */
    churn: () => ({ set: next - 1, cleared }),
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = [...pending.entries()]
          .filter(([, timer]) => timer.at <= until)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = until;
    },
  };
}

/** Listeners that record when they were told. */
function listeners(clock: SecondClock, count: number, time: () => number) {
  const told: number[][] = Array.from({ length: count }, () => []);
  const stops = told.map((list) => clock.add(() => list.push(time())));
  return { told, stops };
}

/** `count` progress batches `everyMs` apart, each beating the clock; `after` runs after each beat. */
function beats(
  fake: ReturnType<typeof fakeTimers>,
  clock: SecondClock,
  everyMs: number,
  count: number,
  after = () => {},
) {
  for (let beat = 0; beat < count; beat++) {
    fake.advance(everyMs);
    clock.beat();
    after();
  }
}

describe('SecondClock', () => {
  it('tells each listener once a second by its timer while nothing beats, and stops when the last one leaves', () => {
    const fake = fakeTimers();
    const clock = new SecondClock(fake.timers);
    const { told, stops } = listeners(clock, 2, fake.timers.now);
    fake.advance(3_500);
    expect(told).toEqual([
      [1_000, 2_000, 3_000],
      [1_000, 2_000, 3_000],
    ]);
    stops[0]!();
    fake.advance(1_000);
    expect(told[0]).toHaveLength(3);
    expect(told[1]).toEqual([1_000, 2_000, 3_000, 4_000]);
    stops[1]!();
    expect(fake.pending()).toBe(0);
  });

  it('at 10 Hz of batches tells one listener in four per beat, each about once a second, and its timer tells none meanwhile', () => {
    const fake = fakeTimers();
    const clock = new SecondClock(fake.timers);
    const { told } = listeners(clock, 4, fake.timers.now);
    const toldPerBeat: number[] = [];
    let before = 0;
    beats(fake, clock, 100, 50, () => {
      toldPerBeat.push(told.flat().length - before);
      before = told.flat().length;
    });
    // the four listeners' seconds are spread over four beats, never stacked in one
    expect(Math.max(...toldPerBeat)).toBe(1);
    for (const times of told) {
      expect(times.length).toBeGreaterThanOrEqual(4);
      const gaps = times.slice(1).map((at, i) => at - times[i]!);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(950);
      for (const gap of gaps) expect(gap).toBeLessThanOrEqual(1_400);
    }
    // every tell came from a beat (at a multiple of 100 ms), none from the timer between them
    expect(told.flat().every((at) => at % 100 === 0)).toBe(true);
    // the stand-in timer moves itself on about once a second, not at every beat
    expect(fake.churn()).toEqual({ set: expect.any(Number), cleared: 0 });
    expect(fake.churn().set).toBeLessThanOrEqual(6);
  });

  it('at slower beats tells more listeners per beat, so that each is still told about once a second', () => {
    const fake = fakeTimers();
    const clock = new SecondClock(fake.timers);
    const { told } = listeners(clock, 4, fake.timers.now);
    beats(fake, clock, 500, 10);
    // 5 s at 2 Hz: two listeners a beat, each told every second
    for (const times of told) expect(times.length).toBeGreaterThanOrEqual(4);
  });

  it('falls back to its timer a second after the beats stop (a stalled upload), so the speed still falls', () => {
    const fake = fakeTimers();
    const clock = new SecondClock(fake.timers);
    const { told } = listeners(clock, 1, fake.timers.now);
    beats(fake, clock, 100, 15);
    expect(told[0]).toEqual([1_000]);
    fake.advance(2_600);
    // the last beat was at 1.5 s: the timer tells at 2.5 s, then each second
    expect(told[0]).toEqual([1_000, 2_500, 3_500]);
  });
});
