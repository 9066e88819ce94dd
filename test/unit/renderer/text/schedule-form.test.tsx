import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../../src-renderer/i18n/i18n.js';
import { WindowEditor } from '../../../../src-renderer/views/settings/schedule-section.js';
import {
  newWindowDraft,
  scheduleChange,
  scheduleForm,
  toggleDay,
  timeOfDayFormat,
  weekdayNames,
  windowTimesText,
} from '../../../../src-renderer/text/schedule-form.js';
import { DEFAULT_SETTINGS } from '../../../../src-shared/model/settings.js';

const PAUSE = { kind: 'pause' as const, limitMb: '' };

describe('the schedule form', () => {
  it('turns the saved schedule into drafts and back, unchanged', () => {
    const schedule = [
      {
        days: ['mon', 'tue', 'wed', 'thu', 'fri'] as const,
        from: '09:00',
        to: '18:00',
        action: { kind: 'limit' as const, bytesPerSecond: 2_500_000 },
      },
      { days: ['sat'] as const, from: '22:00', to: '06:00', action: { kind: 'pause' as const } },
    ].map((window) => ({ ...window, days: [...window.days] }));
    const metered = { kind: 'limit' as const, bytesPerSecond: 1_500_000 };
    const form = scheduleForm({ schedule, pauseOnBattery: true, metered });
    expect(form.metered).toEqual({ kind: 'limit', limitMb: '1.5' });
    expect(form.windows.map(({ limitMb, paused }) => ({ limitMb, paused }))).toEqual([
      { limitMb: '2.5', paused: false },
      { limitMb: '', paused: true },
    ]);
    expect(scheduleChange(form)).toEqual({ change: { schedule, pauseOnBattery: true, metered }, errors: new Map() });
  });

  it('starts empty, and a new window is weekdays 09:00–18:00 at 2 MB/s', () => {
    const form = scheduleForm(DEFAULT_SETTINGS);
    expect(form).toEqual({ windows: [], pauseOnBattery: false, metered: { kind: 'pause', limitMb: '2' } });
    const change = scheduleChange({ ...form, windows: [newWindowDraft()] }).change;
    expect(change?.schedule).toEqual([
      {
        days: ['mon', 'tue', 'wed', 'thu', 'fri'],
        from: '09:00',
        to: '18:00',
        action: { kind: 'limit', bytesPerSecond: 2_000_000 },
      },
    ]);
  });

  it('says what is wrong with each window, in sentences, and sends nothing', () => {
    const bad = { ...newWindowDraft(), days: [], from: '', limitMb: '0' };
    const good = newWindowDraft();
    const { change, errors } = scheduleChange({ windows: [good, bad], pauseOnBattery: false, metered: PAUSE });
    expect(change).toBeNull();
    expect(errors.get(good.key)).toBeUndefined();
    expect(errors.get(bad.key)).toEqual({
      days: 'Choose at least one day.',
      from: 'Enter a start time, such as 09:00.',
      limitMb: 'Enter a speed above 0 MB/s, or choose to pause.',
    });
    // a paused window needs no speed
    expect(
      scheduleChange({ windows: [{ ...good, paused: true, limitMb: '' }], pauseOnBattery: false, metered: PAUSE })
        .change,
    ).toEqual({
      schedule: [expect.objectContaining({ action: { kind: 'pause' } })],
      pauseOnBattery: false,
      metered: { kind: 'pause' },
    });
  });

  it('keeps days in the week’s order, and names them with Intl in the locale', () => {
    expect(toggleDay(['fri', 'mon'], 'wed', true)).toEqual(['mon', 'wed', 'fri']);
    expect(toggleDay(['mon', 'wed'], 'mon', false)).toEqual(['wed']);
    expect(weekdayNames('en-GB').mon).toEqual({ long: 'Monday', short: 'Mon' });
    expect(weekdayNames('de-DE').sun.long).toBe('Sonntag');
  });

  it('words the times, across midnight and all day, as the locale writes times', () => {
    const gb = timeOfDayFormat('en-GB');
    expect(windowTimesText('09:00', '18:00', gb)).toBe('From 09:00 to 18:00');
    expect(windowTimesText('22:00', '06:00', gb)).toBe('From 22:00 to 06:00 the next day');
    expect(windowTimesText('00:00', '00:00', gb)).toBe('All day');
    expect(windowTimesText('07:00', '07:00', gb)).toBe('For 24 hours from 07:00');
    expect(windowTimesText('', '07:00', gb)).toBe('Enter both times');
    expect(windowTimesText('22:00', '06:00', timeOfDayFormat('en-US'))).toMatch(
      /^From 10:00\sPM to 06:00\sAM the next day$/,
    );
  });

  it('renders a window with every field named and its errors tied to it', () => {
    const window = { ...newWindowDraft(), days: [] };
    const html = renderToStaticMarkup(
      <WindowEditor
        window={window}
        number={2}
        errors={{ days: 'Choose at least one day.', limitMb: 'Enter a speed above 0 MB/s, or choose to pause.' }}
        onChange={() => {}}
        onRemove={() => {}}
      />,
    );
    expect(html).toContain('aria-label="From (window 2)"');
    expect(html).toContain('aria-label="To (window 2)"');
    expect(html).toContain('aria-label="Speed in MB/s (window 2)"');
    expect(html).toContain('Remove window 2');
    expect(html.match(/type="checkbox"/g)).toHaveLength(7);
    for (const id of [`schedule-${window.key}-days-error`, `schedule-${window.key}-limitMb-error`]) {
      expect(html).toContain(`aria-describedby="${id}"`);
      expect(html).toContain(`id="${id}"`);
    }
  });

  it('words the times, the errors and the fields in the UI’s language', async () => {
    await i18n.changeLanguage('de');
    try {
      const de = timeOfDayFormat('de-DE');
      expect(windowTimesText('22:00', '06:00', de)).toBe('Von 22:00 bis 06:00 am nächsten Tag');
      expect(windowTimesText('00:00', '00:00', de)).toBe('Ganztägig');
      const bad = { ...newWindowDraft(), days: [] };
      expect(scheduleChange({ windows: [bad], pauseOnBattery: false, metered: PAUSE }).errors.get(bad.key)).toEqual({
        days: 'Wählen Sie mindestens einen Tag.',
      });
      const html = renderToStaticMarkup(
        <WindowEditor window={bad} number={3} errors={{}} onChange={() => {}} onRemove={() => {}} />,
      );
      expect(html).toContain('aria-label="Von (Zeitfenster 3)"');
      expect(html).toContain('aria-label="Montag"');
      expect(html).toContain('Zeitfenster 3 entfernen');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('"On a metered connection": a limit needs a speed above 0; pause and as usual need none', () => {
    const form = scheduleForm(DEFAULT_SETTINGS);
    for (const limitMb of ['', '0', 'fast']) {
      expect(scheduleChange({ ...form, metered: { kind: 'limit', limitMb } })).toMatchObject({
        change: null,
        meteredError: 'Enter a speed above 0 MB/s, or choose another option.',
      });
    }
    expect(scheduleChange({ ...form, metered: { kind: 'limit', limitMb: '0,5' } }).change?.metered).toEqual({
      kind: 'limit',
      bytesPerSecond: 500_000,
    });
    expect(scheduleChange({ ...form, metered: { kind: 'normal', limitMb: '' } }).change?.metered).toEqual({
      kind: 'normal',
    });
  });
});
