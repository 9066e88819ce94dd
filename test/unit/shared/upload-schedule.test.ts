import { describe, expect, it } from 'vitest';
import {
  scheduleStateAt,
  UploadScheduleSchema,
  type ScheduleWindow,
  type UploadSchedule,
} from '../../../src-shared/model/upload-schedule.js';

const MB = 1_000_000;
const BERLIN = 'Europe/Berlin';
const WEEKDAYS: ScheduleWindow['days'] = ['mon', 'tue', 'wed', 'thu', 'fri'];
const utc = (iso: string) => Date.parse(iso.endsWith('Z') ? iso : `${iso}Z`);

function limit(days: ScheduleWindow['days'], from: string, to: string, bytesPerSecond: number): ScheduleWindow {
  return { days, from, to, action: { kind: 'limit', bytesPerSecond } };
}
function pause(days: ScheduleWindow['days'], from: string, to: string): ScheduleWindow {
  return { days, from, to, action: { kind: 'pause' } };
}
function at(schedule: UploadSchedule, iso: string, zone = BERLIN) {
  const state = scheduleStateAt(schedule, utc(iso), zone);
  return { effect: state.effect, until: state.until === null ? null : new Date(state.until).toISOString() };
}

describe('scheduleStateAt', () => {
  it('has no effect, ever, when the schedule is empty', () => {
    expect(at([], '2026-11-25T10:00:00Z')).toEqual({ effect: { kind: 'none' }, until: null });
  });

  describe('weekdays 09:00–18:00: 2 MB/s; otherwise no limit (Berlin, winter: UTC+1)', () => {
    const schedule = [limit(WEEKDAYS, '09:00', '18:00', 2 * MB)];

    it('limits inside the window until its end', () => {
      // Wednesday 10:00 in Berlin
      expect(at(schedule, '2026-11-25T09:00:00')).toEqual({
        effect: { kind: 'limit', bytesPerSecond: 2 * MB },
        until: '2026-11-25T17:00:00.000Z',
      });
    });

    it('starts exactly at 09:00 and ends exactly at 18:00 local time', () => {
      expect(at(schedule, '2026-11-25T07:59:59').effect).toEqual({ kind: 'none' });
      expect(at(schedule, '2026-11-25T08:00:00').effect.kind).toBe('limit');
      expect(at(schedule, '2026-11-25T16:59:59').effect.kind).toBe('limit');
      expect(at(schedule, '2026-11-25T17:00:00').effect).toEqual({ kind: 'none' });
    });

    it('outside, says when the next window starts: the next morning, or Monday after a Friday', () => {
      expect(at(schedule, '2026-11-25T18:00:00')).toEqual({
        effect: { kind: 'none' },
        until: '2026-11-26T08:00:00.000Z',
      });
      // Friday 19:00 → Monday 09:00
      expect(at(schedule, '2026-11-27T18:00:00').until).toBe('2026-11-30T08:00:00.000Z');
    });

    it('follows summer time: 09:00 in July is 07:00 UTC', () => {
      expect(at(schedule, '2026-07-01T06:59:00').until).toBe('2026-07-01T07:00:00.000Z');
      expect(at(schedule, '2026-07-01T07:00:00').until).toBe('2026-07-01T16:00:00.000Z');
    });
  });

  it('reads the window in the zone it is given: the same instant differs by zone', () => {
    const schedule = [pause(['wed'], '09:00', '18:00')];
    const instant = '2026-11-25T15:00:00';
    // 16:00 in Berlin, 10:00 in New York, 00:00 Thursday in Tokyo
    expect(at(schedule, instant, BERLIN)).toEqual({ effect: { kind: 'paused' }, until: '2026-11-25T17:00:00.000Z' });
    expect(at(schedule, instant, 'America/New_York')).toEqual({
      effect: { kind: 'paused' },
      until: '2026-11-25T23:00:00.000Z',
    });
    expect(at(schedule, instant, 'Asia/Tokyo')).toEqual({
      effect: { kind: 'none' },
      until: '2026-12-02T00:00:00.000Z',
    });
    expect(at(schedule, instant, 'UTC').until).toBe('2026-11-25T18:00:00.000Z');
    // half-hour zones too: 20:30 in Kolkata
    expect(at(schedule, instant, 'Asia/Kolkata').effect).toEqual({ kind: 'none' });
  });

  describe('windows crossing midnight', () => {
    const schedule = [pause(['mon'], '22:00', '06:00')];

    it('run from the listed day into the next', () => {
      // Monday 23:00 Berlin
      expect(at(schedule, '2026-11-23T22:00:00')).toEqual({
        effect: { kind: 'paused' },
        until: '2026-11-24T05:00:00.000Z',
      });
      // Tuesday 03:00 Berlin: still Monday's window
      expect(at(schedule, '2026-11-24T02:00:00').effect).toEqual({ kind: 'paused' });
      // Monday 03:00: Sunday is not listed
      expect(at(schedule, '2026-11-23T02:00:00')).toEqual({
        effect: { kind: 'none' },
        until: '2026-11-23T21:00:00.000Z',
      });
    });

    it('a window ending at 00:00 ends at midnight; from equal to to is a whole day', () => {
      expect(at([pause(['wed'], '18:00', '00:00')], '2026-11-25T18:00:00').until).toBe('2026-11-25T23:00:00.000Z');
      expect(at([pause(['wed'], '00:00', '00:00')], '2026-11-25T12:00:00').until).toBe('2026-11-25T23:00:00.000Z');
    });

    it('a pause every day, all day, is paused for good', () => {
      const always = [pause(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], '00:00', '00:00')];
      expect(at(always, '2026-11-25T12:00:00')).toEqual({ effect: { kind: 'paused' }, until: null });
      // even across a change of clocks
      expect(at(always, '2026-03-29T00:30:00')).toEqual({ effect: { kind: 'paused' }, until: null });
    });
  });

  describe('spring forward: Berlin, Sunday 2026-03-29, 02:00 CET → 03:00 CEST (01:00 UTC)', () => {
    it('a window starting in the skipped hour starts when the clock jumps', () => {
      const schedule = [pause(['sun'], '02:30', '04:00')];
      expect(at(schedule, '2026-03-29T00:59:59')).toEqual({
        effect: { kind: 'none' },
        until: '2026-03-29T01:00:00.000Z',
      });
      // 04:00 CEST is 02:00 UTC: the window lasts one hour of real time
      expect(at(schedule, '2026-03-29T01:00:00')).toEqual({
        effect: { kind: 'paused' },
        until: '2026-03-29T02:00:00.000Z',
      });
    });

    it('a window ending in the skipped hour ends at the jump', () => {
      const schedule = [pause(['sun'], '01:00', '02:30')];
      expect(at(schedule, '2026-03-29T00:30:00')).toEqual({
        effect: { kind: 'paused' },
        until: '2026-03-29T01:00:00.000Z',
      });
    });

    it('a window wholly inside the skipped hour does not happen that day', () => {
      const schedule = [pause(['sun'], '02:10', '02:50')];
      // 01:30 CET: next is the following Sunday's 02:10 CEST (00:10 UTC)
      expect(at(schedule, '2026-03-29T00:30:00')).toEqual({
        effect: { kind: 'none' },
        until: '2026-04-05T00:10:00.000Z',
      });
    });

    it('a window across the night is one hour shorter in real time', () => {
      const schedule = [limit(['sat'], '22:00', '08:00', MB)];
      // Saturday 22:00 CET = 21:00 UTC → Sunday 08:00 CEST = 06:00 UTC: 9 hours
      expect(at(schedule, '2026-03-28T21:00:00').until).toBe('2026-03-29T06:00:00.000Z');
    });
  });

  describe('fall back: Berlin, Sunday 2026-10-25, 03:00 CEST → 02:00 CET (01:00 UTC); 02:00–03:00 happens twice', () => {
    it('a window ending in the repeated hour ends at its first pass and does not start again at the second', () => {
      const schedule = [pause(['sun'], '01:00', '02:30')];
      // 01:30 CEST
      expect(at(schedule, '2026-10-24T23:30:00')).toEqual({
        effect: { kind: 'paused' },
        until: '2026-10-25T00:30:00.000Z',
      });
      // 02:45 CEST (first pass) and 02:15 CET (second pass): over
      expect(at(schedule, '2026-10-25T00:45:00').effect).toEqual({ kind: 'none' });
      expect(at(schedule, '2026-10-25T01:15:00')).toEqual({
        effect: { kind: 'none' },
        until: '2026-11-01T00:00:00.000Z',
      });
    });

    it('a window starting in the repeated hour starts at its first pass and lasts an hour longer', () => {
      const schedule = [pause(['sun'], '02:30', '03:30')];
      expect(at(schedule, '2026-10-25T00:00:00').until).toBe('2026-10-25T00:30:00.000Z');
      // 02:30 CEST (00:30 UTC) → 03:30 CET (02:30 UTC)
      expect(at(schedule, '2026-10-25T00:30:00')).toEqual({
        effect: { kind: 'paused' },
        until: '2026-10-25T02:30:00.000Z',
      });
    });

    it('works the same way in New York (2026-11-01, 02:00 EDT → 01:00 EST)', () => {
      const schedule = [pause(['sun'], '00:30', '01:30')];
      // 00:30 EDT = 04:30 UTC → first 01:30, EDT = 05:30 UTC
      expect(at(schedule, '2026-11-01T04:30:00', 'America/New_York').until).toBe('2026-11-01T05:30:00.000Z');
      // 01:15 EST, the second pass: not again
      expect(at(schedule, '2026-11-01T06:15:00', 'America/New_York').effect).toEqual({ kind: 'none' });
    });
  });

  describe('other changes of clocks', () => {
    it('Santiago skips midnight (2026-09-06, 00:00 → 01:00): a window from 00:30 starts at 01:00', () => {
      const schedule = [pause(['sun'], '00:30', '02:00')];
      expect(at(schedule, '2026-09-06T03:00:00', 'America/Santiago')).toEqual({
        effect: { kind: 'none' },
        until: '2026-09-06T04:00:00.000Z',
      });
      // 02:00 at UTC−3
      expect(at(schedule, '2026-09-06T04:00:00', 'America/Santiago').until).toBe('2026-09-06T05:00:00.000Z');
    });

    it('Lord Howe moves by half an hour (2026-10-04, 02:00 → 02:30)', () => {
      const schedule = [pause(['sun'], '02:10', '03:00')];
      expect(at(schedule, '2026-10-03T15:00:00', 'Australia/Lord_Howe').until).toBe('2026-10-03T15:30:00.000Z');
      expect(at(schedule, '2026-10-03T15:30:00', 'Australia/Lord_Howe')).toEqual({
        effect: { kind: 'paused' },
        until: '2026-10-03T16:00:00.000Z',
      });
    });
  });

  describe('overlapping windows', () => {
    it('a pause wins over a limit, whatever the order', () => {
      const windows = [limit(WEEKDAYS, '09:00', '18:00', 2 * MB), pause(['wed'], '12:00', '13:00')];
      for (const schedule of [windows, [...windows].reverse()]) {
        // Wednesday 12:30 Berlin
        expect(at(schedule, '2026-11-25T11:30:00')).toEqual({
          effect: { kind: 'paused' },
          until: '2026-11-25T12:00:00.000Z',
        });
        // after the pause the limit is back, until 18:00
        expect(at(schedule, '2026-11-25T12:00:00')).toEqual({
          effect: { kind: 'limit', bytesPerSecond: 2 * MB },
          until: '2026-11-25T17:00:00.000Z',
        });
      }
    });

    it('the lowest limit wins', () => {
      const schedule = [limit(['wed'], '09:00', '18:00', 5 * MB), limit(['wed'], '10:00', '11:00', MB)];
      expect(at(schedule, '2026-11-25T09:30:00')).toEqual({
        effect: { kind: 'limit', bytesPerSecond: MB },
        until: '2026-11-25T10:00:00.000Z',
      });
    });

    it('an edge where nothing changes is not an edge: adjacent windows of one limit', () => {
      const schedule = [limit(['wed'], '09:00', '12:00', MB), limit(['wed'], '12:00', '18:00', MB)];
      expect(at(schedule, '2026-11-25T09:00:00').until).toBe('2026-11-25T17:00:00.000Z');
    });
  });
});

describe('UploadScheduleSchema', () => {
  it('takes windows as a person sets them', () => {
    expect(UploadScheduleSchema.safeParse([limit(WEEKDAYS, '09:00', '18:00', 2 * MB)]).success).toBe(true);
    expect(UploadScheduleSchema.safeParse([]).success).toBe(true);
  });

  it.each([
    ['a time past 23:59', [pause(['mon'], '09:00', '24:00')]],
    ['a time without minutes', [pause(['mon'], '9', '18:00')]],
    ['no day', [pause([], '09:00', '18:00')]],
    ['a day twice', [pause(['mon', 'mon'], '09:00', '18:00')]],
    ['a limit of 0', [limit(['mon'], '09:00', '18:00', 0)]],
    ['an unknown action', [{ days: ['mon'], from: '09:00', to: '18:00', action: { kind: 'slow' } }]],
  ])('refuses %s', (_, schedule) => {
    expect(UploadScheduleSchema.safeParse(schedule).success).toBe(false);
  });
});
