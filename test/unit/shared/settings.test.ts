import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, readSettings } from '../../../src-shared/model/settings.js';

describe('readSettings', () => {
  it('keeps every setting of a file whose one field is broken, and names that field', () => {
    const { settings, dropped } = readSettings({
      concurrency: 5,
      bandwidthBytesPerSecond: 'fast',
      language: 'de',
      pauseOnBattery: true,
      notifications: { uploadsDone: false, importFailed: 'no' },
    });
    expect(settings).toEqual({
      ...DEFAULT_SETTINGS,
      concurrency: 5,
      language: 'de',
      pauseOnBattery: true,
      notifications: { ...DEFAULT_SETTINGS.notifications, uploadsDone: false },
    });
    expect(dropped).toEqual(['bandwidthBytesPerSecond', 'notifications.importFailed']);
  });

  it('removes finished uploads after 7 days unless told never, 1 or 30; another value keeps to itself', () => {
    expect(DEFAULT_SETTINGS.removeFinishedAfterDays).toBe(7);
    for (const days of [null, 1, 30] as const) {
      expect(readSettings({ removeFinishedAfterDays: days }).settings.removeFinishedAfterDays).toBe(days);
    }
    const { settings, dropped } = readSettings({ removeFinishedAfterDays: 3, concurrency: 2 });
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, concurrency: 2 });
    expect(dropped).toEqual(['removeFinishedAfterDays']);
  });

  it('reads what is no object of fields as no settings: the defaults, nothing named', () => {
    for (const raw of [undefined, null, 'x', 3, ['a']]) {
      expect(readSettings(raw)).toEqual({ settings: DEFAULT_SETTINGS, dropped: [] });
    }
  });

  it('keeps fields it does not know out, and reads a whole valid file as it is', () => {
    const whole = { ...DEFAULT_SETTINGS, concurrency: 2, chunkSizeBytes: 5_000_000 };
    expect(readSettings({ ...whole, removedLongAgo: true })).toEqual({ settings: whole, dropped: [] });
  });
});
