import { useEffect, useState, type FormEvent } from 'react';
import { Trans } from 'react-i18next';
import { isFolderPathProblem, type AccountView } from '../../src-shared/ipc/ipc-contract.js';
import type { WatchedFolder } from '../../src-shared/model/folder-options.js';
import { NOTIFICATION_KINDS, type Settings } from '../../src-shared/model/settings.js';
import { useAction, useBridge, useEvent, useQuery } from '../bridge/bridge-context.js';
import { writeClipboard } from '../bridge/clipboard.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { ErrorNote } from '../components/error-note.js';
import { LanguageSetting } from '../components/language-setting.js';
import { StatusNote } from '../components/status-note.js';
import { FolderPathField } from '../components/folder-path-field.js';
import {
  FolderOptionsForm,
  draftFromOptions,
  optionsFromDraft,
  type FolderOptionsDraft,
} from '../components/folder-options-form.js';
import { accountLabel } from '../model/account-label.js';
import {
  folderOptionsSummary,
  notificationLabel,
  settingsChange,
  settingsForm,
  tokenStorageEncrypted,
  type SettingsForm,
  type SettingsFormErrors,
} from '../model/settings-form.js';
import { RadioOption } from '../components/radio-option.js';
import { ScheduleSection } from '../components/schedule-settings.js';
import { UpdatesSection } from '../components/update-settings.js';
import { useLocale } from '../i18n/i18n.js';
import { errorText, translate } from '../i18n/translate.js';
import './settings-view.css';

const NEW_FOLDER_OPTIONS = draftFromOptions({
  visibility: 'private',
  allowOnlineWatch: null,
  includeSubfolders: true,
  uploadExisting: true,
  skipExisting: false,
  afterUpload: { kind: 'keep' },
  ignoreGlobs: [],
});

/** Watched folders, app settings, the upload schedule, how tokens are kept, updates, the diagnostics export and the logs. */
export function SettingsView({ account, accounts }: { account: AccountView; accounts: AccountView[] }) {
  const { t } = useLocale();
  return (
    <div className="settings">
      <h1>{t('settings.title')}</h1>
      <LanguageSetting />
      <WatchedFolders account={account} accounts={accounts} />
      <AppSettings />
      <ScheduleSection />
      <TokenStorage accounts={accounts} />
      <UpdatesSection />
      <Support />
    </div>
  );
}

function WatchedFolders({ account, accounts }: { account: AccountView; accounts: AccountView[] }) {
  const folders = useQuery('folders:list', {});
  useEvent('folders:changed', folders.set);
  const [editing, setEditing] = useState<number | null>(null);
  const [removing, setRemoving] = useState<WatchedFolder | null>(null);
  const remove = useAction();
  const { t } = useLocale();
  const labels = new Map(accounts.map((candidate) => [candidate.id, accountLabel(candidate)]));

  async function confirmRemove() {
    if (!removing) return;
    const done = await remove.run('folders:remove', { id: removing.id });
    if (done) {
      setRemoving(null);
      folders.reload();
    }
  }

  return (
    <section className="settings__section card" aria-labelledby="folders-title">
      <h2 id="folders-title">{t('settings.folders.title')}</h2>
      <p className="muted">{t('settings.folders.intro')}</p>
      <ErrorNote error={folders.error} />
      {folders.data && folders.data.length === 0 && <p>{t('settings.folders.empty')}</p>}
      {folders.data && folders.data.length > 0 && (
        <ul className="settings__folders" aria-label={t('settings.folders.title')}>
          {folders.data.map((folder) => (
            <li key={folder.id} className="settings__folder">
              {editing === folder.id ? (
                <EditFolder
                  folder={folder}
                  onDone={() => {
                    setEditing(null);
                    folders.reload();
                  }}
                />
              ) : (
                <>
                  <div className="settings__folder-text">
                    <code className="settings__path">{folder.path}</code>
                    <span className="muted">
                      {labels.get(folder.accountId) ?? t('settings.folders.unknownAccount')} ·{' '}
                      {folderOptionsSummary(folder.options)}
                    </span>
                  </div>
                  <div className="settings__folder-actions">
                    <button
                      type="button"
                      className="button button--small"
                      aria-label={t('settings.folders.editLabel', { path: folder.path })}
                      onClick={() => setEditing(folder.id)}
                    >
                      {t('settings.folders.edit')}
                    </button>
                    <button
                      type="button"
                      className="button button--small button--danger"
                      aria-label={t('settings.folders.removeLabel', { path: folder.path })}
                      onClick={() => {
                        remove.clearError();
                        setRemoving(folder);
                      }}
                    >
                      {t('settings.folders.remove')}
                    </button>
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <AddFolder account={account} accounts={accounts} onAdded={folders.reload} />
      {removing && (
        <ConfirmDialog
          title={t('settings.folders.removeTitle')}
          confirmLabel={t('settings.folders.removeConfirm')}
          busyLabel={t('settings.folders.removing')}
          busy={remove.busy}
          error={remove.error}
          onConfirm={() => void confirmRemove()}
          onCancel={() => setRemoving(null)}
        >
          <p>
            <Trans
              i18nKey="settings.folders.removeText"
              values={{ path: removing.path }}
              components={{ code: <code /> }}
            />
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function EditFolder({ folder, onDone }: { folder: WatchedFolder; onDone: () => void }) {
  const [draft, setDraft] = useState(() => draftFromOptions(folder.options));
  const action = useAction();
  const { t } = useLocale();
  const options = optionsFromDraft(draft);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!options) return;
    if (await action.run('folders:update', { id: folder.id, options })) onDone();
  }

  return (
    <form
      className="form settings__edit"
      aria-label={t('settings.folders.optionsOf', { path: folder.path })}
      onSubmit={(event) => void save(event)}
    >
      <code className="settings__path">{folder.path}</code>
      <FolderOptionsForm value={draft} onChange={setDraft} adding={false} />
      <ErrorNote error={action.error} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={!options || action.busy}>
          {action.busy ? t('settings.folders.saving') : t('settings.folders.save')}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

function AddFolder(props: { account: AccountView; accounts: AccountView[]; onAdded: () => void }) {
  const [path, setPath] = useState('');
  const [accountId, setAccountId] = useState(props.account.id);
  const [draft, setDraft] = useState<FolderOptionsDraft>(NEW_FOLDER_OPTIONS);
  const [added, setAdded] = useState('');
  const action = useAction();
  const { t } = useLocale();
  const options = optionsFromDraft(draft);

  // a refused path is said next to the field; anything else (the account, the connection) below the form
  const pathError = action.error && isFolderPathProblem(action.error.code) ? action.error : null;

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!options || path.trim() === '') return;
    const folder = await action.run('folders:add', { accountId, path: path.trim(), options });
    if (!folder) return;
    setAdded(t('settings.folders.added', { path: folder.path }));
    setPath('');
    setDraft(NEW_FOLDER_OPTIONS);
    props.onAdded();
  }

  return (
    <form className="form settings__add" aria-labelledby="add-folder-title" onSubmit={(event) => void add(event)}>
      <h3 id="add-folder-title">{t('settings.folders.addTitle')}</h3>
      <FolderPathField
        label={t('settings.folders.path')}
        hint={t('settings.folders.pathHint')}
        placeholder={t('settings.folders.pathPlaceholder')}
        value={path}
        error={pathError ? errorText(pathError) : null}
        onChange={(value) => {
          setPath(value);
          if (pathError) action.clearError();
        }}
      />
      <label className="field">
        <span>{t('settings.folders.account')}</span>
        <select value={accountId} onChange={(event) => setAccountId(event.target.value)}>
          {props.accounts.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {accountLabel(candidate)}
            </option>
          ))}
        </select>
      </label>
      <FolderOptionsForm value={draft} onChange={setDraft} adding />
      <ErrorNote error={pathError ? null : action.error} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={!options || action.busy}>
          {action.busy ? t('settings.folders.adding') : t('settings.folders.add')}
        </button>
      </div>
      <StatusNote text={added} />
    </form>
  );
}

function AppSettings() {
  const bridge = useBridge();
  const settings = useQuery('settings:get', {});
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [errors, setErrors] = useState<SettingsFormErrors>({});
  const [saved, setSaved] = useState('');
  const action = useAction();
  const { t } = useLocale();

  useEffect(() => {
    if (settings.data) setForm(settingsForm(settings.data));
  }, [settings.data]);

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
    setForm({ ...form, ...change });
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    const { change, errors: found } = settingsChange(form);
    setErrors(found);
    if (!change) return;
    const updated: Settings | undefined = await action.run('settings:update', change);
    if (!updated) return;
    settings.set(updated);
    setSaved(t('settings.app.saved'));
  }

  const errorId = (field: keyof SettingsFormErrors) => (errors[field] ? `settings-${field}-error` : undefined);

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
          <label className="field settings__nested">
            <span>{t('settings.app.limitMb')}</span>
            <input
              type="text"
              inputMode="decimal"
              value={form.bandwidthMb}
              aria-invalid={errors.bandwidthMb ? true : undefined}
              aria-describedby={errorId('bandwidthMb')}
              onChange={(event) => set({ bandwidthMb: event.target.value })}
            />
            {errors.bandwidthMb && (
              <span id="settings-bandwidthMb-error" className="field__error">
                {errors.bandwidthMb}
              </span>
            )}
          </label>
        )}
      </fieldset>

      <label className="field">
        <span>{t('settings.app.chunk')}</span>
        <input
          type="text"
          inputMode="decimal"
          value={form.chunkMb}
          aria-invalid={errors.chunkMb ? true : undefined}
          aria-describedby={['settings-chunk-hint', errorId('chunkMb')].filter(Boolean).join(' ')}
          onChange={(event) => set({ chunkMb: event.target.value })}
        />
        <small id="settings-chunk-hint" className="muted">
          {t('settings.app.chunkHint')}
        </small>
        {errors.chunkMb && (
          <span id="settings-chunkMb-error" className="field__error">
            {errors.chunkMb}
          </span>
        )}
      </label>

      <fieldset className="settings__group">
        <legend>{t('settings.app.notify')}</legend>
        {NOTIFICATION_KINDS.map((kind) => (
          <label key={kind} className="field--inline">
            <input
              type="checkbox"
              checked={form.notifications[kind]}
              onChange={(event) => set({ notifications: { ...form.notifications, [kind]: event.target.checked } })}
            />
            <span>{notificationLabel(kind)}</span>
          </label>
        ))}
        {bridge.shell === 'headless' && <BrowserNotifications />}
      </fieldset>

      <label className="field--inline">
        <input
          type="checkbox"
          checked={form.launchAtLogin}
          aria-describedby="settings-login-hint"
          onChange={(event) => set({ launchAtLogin: event.target.checked })}
        />
        <span>{t('settings.app.launch')}</span>
      </label>
      <small id="settings-login-hint" className="muted settings__hint">
        {bridge.shell === 'electron' ? t('settings.app.launchTray') : t('settings.app.launchServe')}
      </small>

      <label className="field">
        <span>{t('settings.app.proxy')}</span>
        <input
          type="url"
          value={form.proxyUrl}
          placeholder={t('settings.app.proxyPlaceholder')}
          spellCheck={false}
          aria-invalid={errors.proxyUrl ? true : undefined}
          aria-describedby={['settings-proxy-hint', errorId('proxyUrl')].filter(Boolean).join(' ')}
          onChange={(event) => set({ proxyUrl: event.target.value })}
        />
        <small id="settings-proxy-hint" className="muted">
          {t('settings.app.proxyHint')}
        </small>
        {errors.proxyUrl && (
          <span id="settings-proxyUrl-error" className="field__error">
            {errors.proxyUrl}
          </span>
        )}
      </label>

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

/** In a browser, the page's own notifications need the person's permission, asked once on a click. */
function BrowserNotifications() {
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(() => (supported ? Notification.permission : 'denied'));
  const { t } = useLocale();
  if (!supported) return <p className="muted">{t('settings.browserNotifications.unsupported')}</p>;
  if (permission === 'granted') return <p className="muted">{t('settings.browserNotifications.granted')}</p>;
  if (permission === 'denied') return <p className="muted">{t('settings.browserNotifications.denied')}</p>;
  return (
    <button
      type="button"
      className="button button--small settings__notify"
      onClick={() => void Notification.requestPermission().then(setPermission)}
    >
      {t('settings.browserNotifications.ask')}
    </button>
  );
}

function TokenStorage({ accounts }: { accounts: AccountView[] }) {
  const { t } = useLocale();
  return (
    <section className="settings__section card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">{t('settings.tokens.title')}</h2>
      <ul className="settings__tokens">
        {accounts.map((candidate) => {
          // the English description decides (a sentence in the catalogs says the same in any language)
          const encrypted = tokenStorageEncrypted(candidate.tokenStorage);
          const storage = candidate.tokenStorageText ? translate(candidate.tokenStorageText) : candidate.tokenStorage;
          return (
            <li key={candidate.id}>
              <strong>{accountLabel(candidate)}</strong>
              <span>{t('settings.tokens.keptIn', { storage })}</span>
              {!encrypted && <p className="settings__warning">{t('settings.tokens.notEncrypted')}</p>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Support() {
  const action = useAction();
  const [exported, setExported] = useState('');
  const { t } = useLocale();

  async function exportDiagnostics() {
    const report = await action.run('app:diagnostics', {});
    if (!report) return;
    const url = URL.createObjectURL(new Blob([report.json], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = report.fileName;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setExported(t('settings.support.exported', { file: report.fileName }));
  }

  return (
    <section className="settings__section card" aria-labelledby="support-title">
      <h2 id="support-title">{t('settings.support.title')}</h2>
      <p className="muted">{t('settings.support.intro')}</p>
      <button type="button" className="button" disabled={action.busy} onClick={() => void exportDiagnostics()}>
        {t('settings.support.export')}
      </button>
      <ErrorNote error={action.error} />
      <StatusNote text={exported} />
      <LogsFolder />
    </section>
  );
}

/**
 * Where the app's log files are. The desktop app opens the folder; a page
 * in a browser cannot open a folder on the machine running the daemon, so it
 * shows the path to copy.
 */
function LogsFolder() {
  const bridge = useBridge();
  const info = useQuery('app:info', {});
  const action = useAction();
  const [copied, setCopied] = useState('');
  const { t } = useLocale();
  const folder = info.data?.logsDir;
  if (!folder) return <ErrorNote error={info.error} />;

  async function copyPath(path: string) {
    setCopied((await writeClipboard(path)) ? t('settings.logs.copied') : t('settings.logs.copyRefused'));
  }

  return (
    <div className="settings__logs">
      <h3>{t('settings.logs.title')}</h3>
      <p className="muted">{t('settings.logs.intro')}</p>
      {bridge.shell === 'electron' ? (
        <button
          type="button"
          className="button"
          disabled={action.busy}
          onClick={() => void action.run('app:openLogsFolder', {})}
        >
          {t('settings.logs.open')}
        </button>
      ) : (
        <>
          <p>
            <Trans
              i18nKey="settings.logs.folder"
              values={{ folder }}
              components={{ code: <code className="settings__path" /> }}
            />
          </p>
          <button type="button" className="button" onClick={() => void copyPath(folder)}>
            {t('settings.logs.copy')}
          </button>
        </>
      )}
      <ErrorNote error={action.error} />
      <StatusNote text={copied} />
    </div>
  );
}
