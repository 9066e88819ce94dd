import { useState, type FormEvent } from 'react';
import {
  POLL_INTERVAL_CHOICES,
  REMOVE_FINISHED_DAYS,
  type SettingsChange,
} from '../../../src-shared/model/settings.js';
import { useAction } from '../../bridge/bridge-context.js';
import { ErrorNote } from '../../components/error-note.js';
import { RadioOption } from '../../components/radio-option.js';
import { StatusNote } from '../../components/status-note.js';
import { TextField } from '../../components/text-field.js';
import { useLocale } from '../../i18n/i18n.js';
import { pollIntervalText } from '../../text/file-checks-text.js';
import { settingsChange, settingsForm, type SettingsForm, type SettingsFormErrors } from '../../text/settings-form.js';
import { useStore } from '../../store/store.js';
import { useStores } from '../../store/stores.js';

/** What this form saves: the other sections save theirs, and a draft here never undoes them. */
const FIELDS = [
  'concurrency',
  'bandwidthBytesPerSecond',
  'chunkSizeBytes',
  'removeFinishedAfterDays',
  'pollIntervalSeconds',
  'proxyUrl',
] as const;

/**
 * Settings → Uploads: uploads at once, bandwidth, chunk size, when finished
 * uploads leave the queue, how often folders without change events are checked, proxy.
 */
export function AppSection() {
  const stores = useStores();
  const settings = useStore(stores.settings);
  // the person's changes not saved yet; the saved settings until the first change
  const [draft, setDraft] = useState<SettingsForm | null>(null);
  const [errors, setErrors] = useState<SettingsFormErrors>({});
  const [saved, setSaved] = useState('');
  const action = useAction();
  const { t } = useLocale();
  const form = draft ?? (settings.data && settingsForm(settings.data));

  if (!form) {
    return (
      <section className="settings__section card" aria-labelledby="app-settings-title">
        <h2 id="app-settings-title">{t('settings.app.title')}</h2>
        {settings.error ? <ErrorNote error={settings.error} /> : <p className="muted">{t('common.loading')}</p>}
      </section>
    );
  }

  const set = (change: Partial<SettingsForm>) => {
    setSaved('');
    setDraft({ ...form, ...change });
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    const { change, errors: found } = settingsChange(form);
    setErrors(found);
    if (!change) return;
    const fields = Object.fromEntries(FIELDS.map((field) => [field, change[field]])) as SettingsChange;
    if (!(await action.run(() => stores.settings.update(fields)))) return;
    setDraft(null);
    setSaved(t('settings.app.saved'));
  }

  return (
    <form
      className="settings__section card form"
      aria-labelledby="app-settings-title"
      onSubmit={(event) => void save(event)}
      noValidate
    >
      <h2 id="app-settings-title">{t('settings.app.title')}</h2>
      <label className="field">
        <span>{t('settings.app.concurrency')}</span>
        <select value={form.concurrency} onChange={(event) => set({ concurrency: Number(event.target.value) })}>
          {[1, 2, 3, 4, 5, 6].map((count) => (
            <option key={count} value={count}>
              {count}
            </option>
          ))}
        </select>
      </label>

      <fieldset className="settings__group">
        <legend>{t('settings.app.bandwidth')}</legend>
        <RadioOption
          name="bandwidth"
          checked={!form.bandwidthLimited}
          onSelect={() => set({ bandwidthLimited: false })}
        >
          {t('settings.app.noLimit')}
        </RadioOption>
        <RadioOption name="bandwidth" checked={form.bandwidthLimited} onSelect={() => set({ bandwidthLimited: true })}>
          {t('settings.app.limitAll')}
        </RadioOption>
        {form.bandwidthLimited && (
          <TextField
            className="settings__nested"
            label={t('settings.app.limitMb')}
            inputMode="decimal"
            value={form.bandwidthMb}
            error={errors.bandwidthMb}
            onChange={(bandwidthMb) => set({ bandwidthMb })}
          />
        )}
      </fieldset>

      <TextField
        label={t('settings.app.chunk')}
        inputMode="decimal"
        value={form.chunkMb}
        error={errors.chunkMb}
        hint={t('settings.app.chunkHint')}
        onChange={(chunkMb) => set({ chunkMb })}
      />

      <label className="field">
        <span>{t('settings.app.removeFinished')}</span>
        <select
          value={form.removeFinishedAfterDays ?? 'never'}
          aria-describedby="settings-remove-finished-hint"
          onChange={(event) => {
            const days = REMOVE_FINISHED_DAYS.find((choice) => String(choice) === event.target.value);
            set({ removeFinishedAfterDays: days ?? null });
          }}
        >
          <option value="never">{t('settings.app.removeFinishedNever')}</option>
          {REMOVE_FINISHED_DAYS.map((days) => (
            <option key={days} value={days}>
              {t('settings.app.removeFinishedDays', { count: days })}
            </option>
          ))}
        </select>
        <small id="settings-remove-finished-hint" className="muted">
          {t('settings.app.removeFinishedHint')}
        </small>
      </label>

      <label className="field">
        <span>{t('fileChecks.pollInterval')}</span>
        <select
          value={form.pollIntervalSeconds}
          aria-describedby="settings-poll-interval-hint"
          onChange={(event) => {
            const seconds = POLL_INTERVAL_CHOICES.find((choice) => String(choice) === event.target.value);
            if (seconds !== undefined) set({ pollIntervalSeconds: seconds });
          }}
        >
          {POLL_INTERVAL_CHOICES.map((seconds) => (
            <option key={seconds} value={seconds}>
              {pollIntervalText(seconds)}
            </option>
          ))}
        </select>
        <small id="settings-poll-interval-hint" className="muted">
          {t('fileChecks.pollIntervalHint')}
        </small>
      </label>

      <TextField
        label={t('settings.app.proxy')}
        type="url"
        value={form.proxyUrl}
        placeholder={t('settings.app.proxyPlaceholder')}
        spellCheck={false}
        error={errors.proxyUrl}
        hint={t('settings.app.proxyHint')}
        onChange={(proxyUrl) => set({ proxyUrl })}
      />

      <ErrorNote error={action.error} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={action.busy}>
          {action.busy ? t('settings.app.saving') : t('settings.app.save')}
        </button>
        <StatusNote text={saved} />
      </div>
    </form>
  );
}
