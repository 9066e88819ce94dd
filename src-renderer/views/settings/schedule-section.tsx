import { useMemo, useState, type FormEvent } from 'react';
import { WEEKDAYS } from '../../../src-shared/model/upload-schedule.js';
import { useAction } from '../../bridge/bridge-context.js';
import {
  SCHEDULE_MAX_WINDOWS,
  newWindowDraft,
  scheduleChange,
  scheduleForm,
  toggleDay,
  timeOfDayFormat,
  weekdayNames,
  windowTimesText,
  type ScheduleForm,
  type ScheduleWindowDraft,
  type ScheduleWindowErrors,
} from '../../text/schedule-form.js';
import { useLocale } from '../../i18n/i18n.js';
import { ErrorNote } from '../../components/error-note.js';
import { RadioOption } from '../../components/radio-option.js';
import { StatusNote } from '../../components/status-note.js';
import { useStore } from '../../store/store.js';
import { useStores } from '../../store/stores.js';

/**
 * Settings → Schedule: windows of the week with a speed limit or a pause,
 * and "Pause while on battery". Saved with its own button; the core applies
 * a change at once and each window at its edges, without a restart.
 */
export function ScheduleSection() {
  const stores = useStores();
  const settings = useStore(stores.settings);
  const stored = useMemo(() => settings.data && scheduleForm(settings.data), [settings.data]);
  // the person's changes not saved yet; the saved schedule until the first change
  const [draft, setDraft] = useState<ScheduleForm | null>(null);
  const [errors, setErrors] = useState(new Map<number, ScheduleWindowErrors>());
  const [meteredError, setMeteredError] = useState<string | undefined>();
  const [saved, setSaved] = useState('');
  const action = useAction();
  const { t } = useLocale();
  const form = draft ?? stored;

  if (!form) {
    return (
      <section className="settings__section card" aria-labelledby="schedule-title">
        <h2 id="schedule-title">{t('settings.schedule.title')}</h2>
        {settings.error ? <ErrorNote error={settings.error} /> : <p className="muted">{t('common.loading')}</p>}
      </section>
    );
  }

  const update = (next: ScheduleForm) => {
    setSaved('');
    setDraft(next);
  };
  const setWindow = (key: number, change: Partial<ScheduleWindowDraft>) =>
    update({
      ...form,
      windows: form.windows.map((window) => (window.key === key ? { ...window, ...change } : window)),
    });

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    const { change, errors: found, meteredError: meteredFound } = scheduleChange(form);
    setErrors(found);
    setMeteredError(meteredFound);
    if (!change) return;
    if (!(await action.run(() => stores.settings.update(change)))) return;
    setDraft(null);
    setSaved(t('settings.schedule.saved'));
  }

  return (
    <form
      className="settings__section card form"
      aria-labelledby="schedule-title"
      onSubmit={(event) => void save(event)}
      noValidate
    >
      <h2 id="schedule-title">{t('settings.schedule.title')}</h2>
      <p className="muted" id="schedule-hint">
        {t('settings.schedule.intro')}
      </p>
      {form.windows.length === 0 && <p>{t('settings.schedule.empty')}</p>}
      <ol className="schedule__windows" aria-label={t('settings.schedule.windows')}>
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
          {t('settings.schedule.add')}
        </button>
      </div>

      <label className="field--inline">
        <input
          type="checkbox"
          checked={form.pauseOnBattery}
          aria-describedby="schedule-battery-hint"
          onChange={(event) => update({ ...form, pauseOnBattery: event.target.checked })}
        />
        <span>{t('settings.schedule.battery')}</span>
      </label>
      <small id="schedule-battery-hint" className="muted settings__hint">
        {t('settings.schedule.batteryHint')}
      </small>

      <MeteredChoice
        value={form.metered}
        error={meteredError}
        onChange={(change) => update({ ...form, metered: { ...form.metered, ...change } })}
      />

      <ErrorNote error={action.error} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={action.busy}>
          {action.busy ? t('settings.schedule.saving') : t('settings.schedule.save')}
        </button>
        <StatusNote text={saved} />
      </div>
    </form>
  );
}

/** "On a metered connection": pause uploads, limit their speed, or upload as usual. */
function MeteredChoice(props: {
  value: ScheduleForm['metered'];
  error: string | undefined;
  onChange(change: Partial<ScheduleForm['metered']>): void;
}) {
  const { value, error, onChange } = props;
  const { t } = useLocale();
  const choices = [
    ['pause', t('settings.schedule.meteredPause')],
    ['limit', t('settings.schedule.meteredLimit')],
    ['normal', t('settings.schedule.meteredNormal')],
  ] as const;
  return (
    <fieldset className="settings__group" aria-describedby="schedule-metered-hint">
      <legend>{t('settings.schedule.metered')}</legend>
      {choices.map(([kind, label]) => (
        <RadioOption
          key={kind}
          name="schedule-metered"
          checked={value.kind === kind}
          onSelect={() => onChange({ kind })}
        >
          {label}
        </RadioOption>
      ))}
      {value.kind === 'limit' && (
        <label className="field settings__nested">
          <span>{t('settings.schedule.meteredSpeed')}</span>
          <input
            type="text"
            inputMode="decimal"
            value={value.limitMb}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'schedule-metered-error' : undefined}
            onChange={(event) => onChange({ limitMb: event.target.value })}
          />
          {error && (
            <span id="schedule-metered-error" className="field__error">
              {error}
            </span>
          )}
        </label>
      )}
      <small id="schedule-metered-hint" className="muted settings__hint">
        {t('settings.schedule.meteredHint')}
      </small>
    </fieldset>
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
  const { t, locale } = useLocale();
  const dayNames = useMemo(() => weekdayNames(locale), [locale]);
  const format = useMemo(() => timeOfDayFormat(locale), [locale]);
  const id = (field: string) => `schedule-${window.key}-${field}`;
  const errorId = (field: keyof ScheduleWindowErrors) => (errors[field] ? id(`${field}-error`) : undefined);
  return (
    <li className="schedule__window">
      <fieldset className="settings__group">
        <legend>{t('settings.schedule.window', { number })}</legend>
        <fieldset className="schedule__days" aria-describedby={errorId('days')}>
          <legend className="visually-hidden">{t('settings.schedule.days', { number })}</legend>
          {WEEKDAYS.map((day) => (
            <label key={day} className="field--inline schedule__day">
              <input
                type="checkbox"
                checked={window.days.includes(day)}
                aria-label={dayNames[day].long}
                onChange={(event) => onChange({ days: toggleDay(window.days, day, event.target.checked) })}
              />
              <span aria-hidden="true">{dayNames[day].short}</span>
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
            <span>{t('settings.schedule.from')}</span>
            <input
              type="time"
              value={window.from}
              aria-label={t('settings.schedule.fromLabel', { number })}
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
            <span>{t('settings.schedule.to')}</span>
            <input
              type="time"
              value={window.to}
              aria-label={t('settings.schedule.toLabel', { number })}
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
          {windowTimesText(window.from, window.to, format)}.
        </small>
        <RadioOption name={id('action')} checked={!window.paused} onSelect={() => onChange({ paused: false })}>
          {t('settings.schedule.limit')}
        </RadioOption>
        {!window.paused && (
          <label className="field settings__nested">
            <span>{t('settings.schedule.speed')}</span>
            <input
              type="text"
              inputMode="decimal"
              value={window.limitMb}
              aria-label={t('settings.schedule.speedLabel', { number })}
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
          {t('settings.schedule.pause')}
        </RadioOption>
        <div>
          <button type="button" className="button button--small button--danger" onClick={props.onRemove}>
            {t('settings.schedule.remove', { number })}
          </button>
        </div>
      </fieldset>
    </li>
  );
}
