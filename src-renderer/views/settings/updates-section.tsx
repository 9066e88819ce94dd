import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { IpcError } from '../../../src-shared/ipc/ipc-contract.js';
import type { Settings } from '../../../src-shared/model/settings.js';
import { DEFAULT_UPDATE_URL, type UpdateStatus } from '../../../src-shared/model/update-status.js';
import { useAction, useBridge, useQuery } from '../../bridge/bridge-context.js';
import { useStore } from '../../store/store.js';
import { useStores } from '../../store/stores.js';
import { codeSpans } from '../../text/code-spans.js';
import { updateUrlChange, updateUrlText } from '../../text/settings-form.js';
import { describeUpdateStatus, updateFormatters } from '../../text/update-status-text.js';
import { useLocale } from '../../i18n/i18n.js';
import { ErrorNote } from '../../components/error-note.js';
import { StatusNote } from '../../components/status-note.js';
import { RestartToUpdateButton } from '../../components/update-banner.js';

/** Settings → Updates, over the contract: the version, the update status, and (desktop) the update address. */
export function UpdatesSection() {
  const stores = useStores();
  const { capabilities } = useBridge();
  const info = useQuery('app:info', {});
  const status = useStore(stores.updates);
  const settings = useStore(stores.settings);
  return (
    <UpdatesCard
      version={info.data?.version}
      status={status.data}
      // the address is the desktop app's: the daemon does not update itself
      settings={capabilities.canUpdateItself ? settings.data : undefined}
      error={info.error ?? status.error ?? settings.error}
    />
  );
}

export interface UpdatesCardProps {
  /** the running version, once read */
  version: string | undefined;
  status: UpdateStatus | undefined;
  /** the desktop app's settings, for the update address; undefined until read, and where the app cannot update itself */
  settings: Pick<Settings, 'updateUrl'> | undefined;
  /** why the version, the status or the settings could not be read */
  error: IpcError | null;
}

/**
 * The running version and where its updates stand, in words, in a polite
 * live region; "Check for updates" (only when a check can start) and
 * "Restart to update" (when an update waits). The update address is the
 * desktop app's: the daemon is updated with its package, so a browser shows
 * the version and the reason only.
 */
export function UpdatesCard({ version, status, settings, error }: UpdatesCardProps) {
  const { updates } = useStores();
  const check = useAction();
  const { t, locale } = useLocale();
  const format = useMemo(() => updateFormatters(locale), [locale]);
  const text = status ? describeUpdateStatus(status, format) : null;

  return (
    <section className="settings__section card settings__updates" aria-labelledby="updates-title">
      <h2 id="updates-title">{t('updates.title')}</h2>
      {version && <p>{t('updates.version', { version })}</p>}
      <div id="update-status" className="settings__update-status" role="status">
        {text ? (
          text.lines.map((line) => (
            <p key={line}>
              {codeSpans(line).map((span, index) => (span.code ? <code key={index}>{span.text}</code> : span.text))}
            </p>
          ))
        ) : (
          <p className="muted">{error ? t('updates.unreadable') : t('common.loading')}</p>
        )}
      </div>
      <div className="form__actions">
        <button
          type="button"
          className="button"
          disabled={!text?.canCheck || check.busy}
          aria-describedby="update-status"
          onClick={() => void check.run(() => updates.check())}
        >
          {t('updates.check')}
        </button>
        {text?.canInstall && <RestartToUpdateButton primary />}
      </div>
      <ErrorNote error={check.error ?? error} />
      {settings && <UpdateAddressForm updateUrl={settings.updateUrl} />}
    </section>
  );
}

/** The folder updates are published in (the `updateUrl` setting), checked as the core checks it; empty for the default. */
function UpdateAddressForm({ updateUrl }: { updateUrl: string }) {
  const { settings } = useStores();
  const [text, setText] = useState(() => updateUrlText({ updateUrl }));
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const { t } = useLocale();

  useEffect(() => setText(updateUrlText({ updateUrl })), [updateUrl]);

  async function save(event: FormEvent) {
    event.preventDefault();
    const { change, error } = updateUrlChange(text);
    setProblem(error);
    if (!change) return;
    if (await action.run(() => settings.update(change))) setSaved(true);
  }

  return (
    <form className="form settings__update-address" onSubmit={(event) => void save(event)} noValidate>
      <label className="field">
        <span>{t('updates.address')}</span>
        <input
          type="url"
          value={text}
          placeholder={DEFAULT_UPDATE_URL}
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={['settings-update-url-hint', problem ? 'settings-update-url-error' : null]
            .filter(Boolean)
            .join(' ')}
          onChange={(event) => {
            setSaved(false);
            setText(event.target.value);
          }}
        />
        <small id="settings-update-url-hint" className="muted">
          {t('updates.addressHint')}
        </small>
        {problem && (
          <span id="settings-update-url-error" className="field__error">
            {problem}
          </span>
        )}
      </label>
      <ErrorNote error={action.error} />
      <div className="form__actions">
        <button type="submit" className="button" disabled={action.busy}>
          {action.busy ? t('fileEdit.saving') : t('updates.saveAddress')}
        </button>
        <StatusNote text={saved ? t('updates.addressSaved') : ''} />
      </div>
    </form>
  );
}
