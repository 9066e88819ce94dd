import { describe, expect, it } from 'vitest';
import type { ScheduleState, UploadSchedule } from '../../../src-shared/model/upload-schedule.js';
import { ScheduleRunner } from '../../../src-main/uploads/schedule-runner.js';
import { uploadPolicy, type UploadPolicyInput } from '../../../src-main/uploads/upload-policy.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const MB = 1_000_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
/** Wednesday 2026-11-25, 08:59 UTC */
const START = Date.UTC(2026, 10, 25, 8, 59);
const WORK_HOURS_PAUSED: UploadSchedule = [
  { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00', action: { kind: 'pause' } },
];

/** A FakeClock whose wall clock can jump while monotonic time stands still, as across a suspend. */
class SleepingClock extends FakeClock {
  private jumped = 0;
  jump(ms: number): void {
    this.jumped += ms;
  }
  override wall(): number {
    return super.wall() + this.jumped;
  }
}

function setup(schedule: UploadSchedule, clock = new SleepingClock({ wallStart: START })) {
  const applied: Array<{ at: string; state: ScheduleState }> = [];
  const runner = new ScheduleRunner({
    clock,
    timeZone: () => 'UTC',
    maxSleepMs: 10 * MINUTE,
    apply: (state) => applied.push({ at: new Date(clock.wall()).toISOString(), state }),
  });
  runner.setSchedule(schedule);
  return { clock, runner, applied };
}

describe('ScheduleRunner', () => {
  it('applies the state at once, then at each edge, with one timer at a time', async () => {
    const { clock, runner, applied } = setup(WORK_HOURS_PAUSED);
    expect(applied).toEqual([
      { at: '2026-11-25T08:59:00.000Z', state: { effect: { kind: 'none' }, until: Date.UTC(2026, 10, 25, 9) } },
    ]);
    expect(clock.pendingSleeps).toBe(1);

    await clock.advance(MINUTE);
    expect(applied.at(-1)).toEqual({
      at: '2026-11-25T09:00:00.000Z',
      state: { effect: { kind: 'paused' }, until: Date.UTC(2026, 10, 25, 18) },
    });
    expect(runner.state.effect).toEqual({ kind: 'paused' });

    // the capped wake-ups in between change nothing and apply nothing
    await clock.advance(9 * HOUR);
    expect(applied).toHaveLength(3);
    expect(applied.at(-1)).toEqual({
      at: '2026-11-25T18:00:00.000Z',
      state: { effect: { kind: 'none' }, until: Date.UTC(2026, 10, 26, 9) },
    });
    expect(clock.pendingSleeps).toBe(1);
    runner.dispose();
    expect(clock.pendingSleeps).toBe(0);
  });

  it('takes a new schedule at once; an empty one sets no timer', async () => {
    const { clock, runner, applied } = setup(WORK_HOURS_PAUSED);
    runner.setSchedule([
      { days: ['wed'], from: '08:00', to: '12:00', action: { kind: 'limit', bytesPerSecond: 2 * MB } },
    ]);
    expect(applied.at(-1)!.state).toEqual({
      effect: { kind: 'limit', bytesPerSecond: 2 * MB },
      until: Date.UTC(2026, 10, 25, 12),
    });
    runner.setSchedule([]);
    expect(applied.at(-1)!.state).toEqual({ effect: { kind: 'none' }, until: null });
    expect(clock.pendingSleeps).toBe(0);
    await clock.advance(24 * HOUR);
    expect(applied).toHaveLength(3);
  });

  it('after a suspend, reevaluate() applies the present at once', async () => {
    const { clock, runner, applied } = setup(WORK_HOURS_PAUSED);
    await clock.advance(MINUTE);
    expect(runner.state.effect.kind).toBe('paused');
    // asleep from 09:00 to 19:00: monotonic time stood still, the timer did not run
    clock.jump(10 * HOUR);
    runner.reevaluate();
    expect(applied.at(-1)).toEqual({
      at: '2026-11-25T19:00:00.000Z',
      state: { effect: { kind: 'none' }, until: Date.UTC(2026, 10, 26, 9) },
    });
    expect(clock.pendingSleeps).toBe(1);
  });

  it('without an event, notices a jump of the wall clock within maxSleepMs', async () => {
    const { clock, runner } = setup(WORK_HOURS_PAUSED);
    await clock.advance(MINUTE);
    clock.jump(10 * HOUR);
    await clock.advance(10 * MINUTE);
    expect(runner.state.effect).toEqual({ kind: 'none' });
  });
});

describe('uploadPolicy', () => {
  const none: ScheduleState = { effect: { kind: 'none' }, until: null };
  const base: UploadPolicyInput = {
    bandwidthBytesPerSecond: 5 * MB,
    schedule: none,
    pauseOnBattery: false,
    onBattery: false,
    meteredUploads: { kind: 'pause' },
    metered: false,
  };

  it('outside every window: the Bandwidth setting, no hold', () => {
    expect(uploadPolicy(base)).toEqual({ limit: 5 * MB, limitBy: 'setting', hold: null });
  });

  it("a window's limit replaces the setting, higher or lower", () => {
    for (const bytesPerSecond of [MB, 10 * MB]) {
      const schedule: ScheduleState = { effect: { kind: 'limit', bytesPerSecond }, until: 1 };
      expect(uploadPolicy({ ...base, schedule })).toEqual({ limit: bytesPerSecond, limitBy: 'schedule', hold: null });
    }
  });

  it('a pause window holds the queue with its end', () => {
    const schedule: ScheduleState = { effect: { kind: 'paused' }, until: 42 };
    expect(uploadPolicy({ ...base, schedule }).hold).toEqual({ reason: 'schedule', until: 42 });
  });

  it('on battery holds only when the switch is on, and is named before the schedule', () => {
    expect(uploadPolicy({ ...base, onBattery: true }).hold).toBeNull();
    expect(uploadPolicy({ ...base, onBattery: true, pauseOnBattery: true }).hold).toEqual({ reason: 'battery' });
    const schedule: ScheduleState = { effect: { kind: 'paused' }, until: 42 };
    expect(uploadPolicy({ ...base, schedule, onBattery: true, pauseOnBattery: true }).hold).toEqual({
      reason: 'battery',
    });
  });

  it('a metered connection holds the queue when the setting says pause, after the battery and before the schedule', () => {
    const schedule: ScheduleState = { effect: { kind: 'paused' }, until: 42 };
    expect(uploadPolicy({ ...base, metered: true }).hold).toEqual({ reason: 'metered' });
    expect(uploadPolicy({ ...base, metered: true, schedule }).hold).toEqual({ reason: 'metered' });
    expect(uploadPolicy({ ...base, metered: true, onBattery: true, pauseOnBattery: true }).hold).toEqual({
      reason: 'battery',
    });
    expect(uploadPolicy({ ...base, metered: true, meteredUploads: { kind: 'normal' } })).toEqual({
      limit: 5 * MB,
      limitBy: 'setting',
      hold: null,
    });
  });

  it("the app's own full disk holds before anything else, with what waits for room, and keeps the limit", () => {
    const dataDiskFull = { since: 7, waiting: 30 };
    const schedule: ScheduleState = { effect: { kind: 'paused' }, until: 42 };
    const everything = { ...base, schedule, onBattery: true, pauseOnBattery: true, metered: true };
    expect(uploadPolicy({ ...everything, dataDiskFull }).hold).toEqual({
      reason: 'dataDiskFull',
      since: 7,
      waiting: 30,
    });
    expect(uploadPolicy({ ...base, dataDiskFull })).toEqual({
      limit: 5 * MB,
      limitBy: 'setting',
      hold: { reason: 'dataDiskFull', since: 7, waiting: 30 },
    });
    expect(uploadPolicy({ ...everything, dataDiskFull: null }).hold).toEqual({ reason: 'battery' });
  });

  it("a metered connection's limit applies only when it is the lower one, and only while metered", () => {
    const meteredUploads = { kind: 'limit', bytesPerSecond: MB } as const;
    expect(uploadPolicy({ ...base, meteredUploads })).toEqual({ limit: 5 * MB, limitBy: 'setting', hold: null });
    expect(uploadPolicy({ ...base, meteredUploads, metered: true })).toEqual({
      limit: MB,
      limitBy: 'metered',
      hold: null,
    });
    const fast = { ...base, meteredUploads: { kind: 'limit', bytesPerSecond: 10 * MB } as const, metered: true };
    expect(uploadPolicy(fast)).toEqual({ limit: 5 * MB, limitBy: 'setting', hold: null });
    expect(uploadPolicy({ ...fast, bandwidthBytesPerSecond: null })).toEqual({
      limit: 10 * MB,
      limitBy: 'metered',
      hold: null,
    });
  });
});
