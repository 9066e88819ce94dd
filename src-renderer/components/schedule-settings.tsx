import { useEffect, useState, type FormEvent } from 'react';
import type { Settings } from '../../src-shared/model/settings.js';
import { WEEKDAYS } from '../../src-shared/model/upload-schedule.js';
import { useAction, useQuery } from '../bridge/bridge-context.js';
import {
  SCHEDULE_MAX_WINDOWS,
  newWindowDraft,
  scheduleChange,
  scheduleForm,
  toggleDay,
  weekdayNames,
  windowTimesText,
  type ScheduleForm,
  type ScheduleWindowDraft,
  type ScheduleWindowErrors,
} from '../model/schedule-form.js';
import { ErrorNote } from './error-note.js';
import { RadioOption } from './radio-option.js';
import { StatusNote } from './status-note.js';

const DAY_NAMES = weekdayNames();

/**
 * Settings → Schedule: windows of the week with a speed limit or a pause,
 * and "Pause while on battery". Saved with its own button; the core applies
 * a change at once and each window at its edges, without a restart.
 */
export function ScheduleSection() {
  const settings = useQuery('settings:get', {});
  const [form, setForm] = useState<ScheduleForm | null>(null);
  const [errors, setErrors] = useState(new Map<number, ScheduleWindowErrors>());
  const [saved, setSaved] = useState('');
  const action = useAction();

  useEffect(() => {
    if (settings.data) setForm(scheduleForm(settings.data));
  }, [settings.data]);

  if (!form) {
    return (
      <section className="settings__section card" aria-labelledby="schedule-title">
        <h2 id="schedule-title">Schedule</h2>
        {settings.error ? <ErrorNote error={settings.error} /> : <p className="muted">Loading…</p>}
      </section>
    );
  }

  const update = (next: ScheduleForm) => {
    setSaved('');
    setForm(next);
  };
  const setWindow = (key: number, change: Partial<ScheduleWindowDraft>) =>
    update({
      ...form,
      windows: form.windows.map((window) => (window.key === key ? { ...window, ...change } : window)),
    });

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    const { change, errors: found } = scheduleChange(form);
    setErrors(found);
    if (!change) return;
    const updated: Settings | undefined = await action.run('settings:update', change);
    if (!updated) return;
    settings.set(updated);
    setSaved('Schedule saved.');
  }

  return (
    <form
      className="settings__section card form"
      aria-labelledby="schedule-title"
      onSubmit={(event) => void save(event)}
      noValidate
    >
      <h2 id="schedule-title">Schedule</h2>
      <p className="muted" id="schedule-hint">
        Limit the speed or pause uploads at set times of the week, in the time zone of the computer running Media Sync.
        Outside every window the Bandwidth setting applies. Where windows overlap, a pause wins, then the lowest limit.
      </p>
      {form.windows.length === 0 && <p>No schedule: uploads run whenever there is something to upload.</p>}
      <ol className="schedule__windows" aria-label="Schedule windows">
        {form.windows.map((window, index) => (
          <WindowEditor
            key={window.key}
            window={window}
            number={index + 1}
            errors={errors.get(window.key) ?? {}}
            onChange={(change) => setWindow(window.key, change)}
            onRemove={() => update({ ...form, windows: form.windows.filter((other) => other.key !== window.key) })}
          />
        ))}
      </ol>
      <div>
        <button
          type="button"
          className="button button--small"
          disabled={form.windows.length >= SCHEDULE_MAX_WINDOWS}
          onClick={() => update({ ...form, windows: [...form.windows, newWindowDraft()] })}
        >
          Add a window
        </button>
      </div>

      <label className="field--inline">
        <input
          type="checkbox"
          checked={form.pauseOnBattery}
          aria-describedby="schedule-battery-hint"
          onChange={(event) => update({ ...form, pauseOnBattery: event.target.checked })}
        />
        <span>Pause while on battery</span>
      </label>
      <small id="schedule-battery-hint" className="muted settings__hint">
        Uploads wait while the computer runs on battery and go on once it is plugged in. A computer without a battery
        never pauses for this.
      </small>

      <ErrorNote error={action.error} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={action.busy}>
          {action.busy ? 'Saving…' : 'Save schedule'}
        </button>
        <StatusNote text={saved} />
      </div>
    </form>
  );
}

/** One window: its days, times and limit or pause, each field named with the window's number. */
export function WindowEditor(props: {
  window: ScheduleWindowDraft;
  number: number;
  errors: ScheduleWindowErrors;
  onChange(change: Partial<ScheduleWindowDraft>): void;
  onRemove(): void;
}) {
  const { window, number, errors, onChange } = props;
  const id = (field: string) => `schedule-${window.key}-${field}`;
  const errorId = (field: keyof ScheduleWindowErrors) => (errors[field] ? id(`${field}-error`) : undefined);
  return (
    <li className="schedule__window">
      <fieldset className="settings__group">
        <legend>Window {number}</legend>
        <fieldset className="schedule__days" aria-describedby={errorId('days')}>
          <legend className="visually-hidden">Days of window {number}</legend>
          {WEEKDAYS.map((day) => (
            <label key={day} className="field--inline schedule__day">
              <input
                type="checkbox"
                checked={window.days.includes(day)}
                aria-label={DAY_NAMES[day].long}
                onChange={(event) => onChange({ days: toggleDay(window.days, day, event.target.checked) })}
              />
              <span aria-hidden="true">{DAY_NAMES[day].short}</span>
            </label>
          ))}
        </fieldset>
        {errors.days && (
          <span id={id('days-error')} className="field__error">
            {errors.days}
          </span>
        )}
        <div className="schedule__times">
          <label className="field">
            <span>From</span>
            <input
              type="time"
              value={window.from}
              aria-label={`From (window ${number})`}
              aria-invalid={errors.from ? true : undefined}
              aria-describedby={errorId('from')}
              onChange={(event) => onChange({ from: event.target.value })}
            />
            {errors.from && (
              <span id={id('from-error')} className="field__error">
                {errors.from}
              </span>
            )}
          </label>
          <label className="field">
            <span>To</span>
            <input
              type="time"
              value={window.to}
              aria-label={`To (window ${number})`}
              aria-invalid={errors.to ? true : undefined}
              aria-describedby={[id('times'), errorId('to')].filter(Boolean).join(' ')}
              onChange={(event) => onChange({ to: event.target.value })}
            />
            {errors.to && (
              <span id={id('to-error')} className="field__error">
                {errors.to}
              </span>
            )}
          </label>
        </div>
        <small id={id('times')} className="muted">
          {windowTimesText(window.from, window.to)}.
        </small>
        <RadioOption name={id('action')} checked={!window.paused} onSelect={() => onChange({ paused: false })}>
          Limit the speed
        </RadioOption>
        {!window.paused && (
          <label className="field settings__nested">
            <span>Speed in MB/s</span>
            <input
              type="text"
              inputMode="decimal"
              value={window.limitMb}
              aria-label={`Speed in MB/s (window ${number})`}
              aria-invalid={errors.limitMb ? true : undefined}
              aria-describedby={errorId('limitMb')}
              onChange={(event) => onChange({ limitMb: event.target.value })}
            />
            {errors.limitMb && (
              <span id={id('limitMb-error')} className="field__error">
                {errors.limitMb}
              </span>
            )}
          </label>
        )}
        <RadioOption name={id('action')} checked={window.paused} onSelect={() => onChange({ paused: true })}>
          Pause uploads
        </RadioOption>
        <div>
          <button type="button" className="button button--small button--danger" onClick={props.onRemove}>
            Remove window {number}
          </button>
        </div>
      </fieldset>
    </li>
  );
}
