import { useEffect, useState, type FormEvent } from 'react';
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
  NOTIFICATION_LABELS,
  folderOptionsSummary,
  settingsChange,
  settingsForm,
  tokenStorageEncrypted,
  type SettingsForm,
  type SettingsFormErrors,
} from '../model/settings-form.js';
import { RadioOption } from '../components/radio-option.js';
import { ScheduleSection } from '../components/schedule-settings.js';
import { UpdatesSection } from '../components/update-settings.js';
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
  return (
    <div className="settings">
      <h1>Settings</h1>
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
      <h2 id="folders-title">Watched folders</h2>
      <p className="muted">
        New files in these folders are uploaded by themselves. Files still being written wait until they stop changing.
      </p>
      <ErrorNote error={folders.error} />
      {folders.data && folders.data.length === 0 && <p>No watched folder yet: add one below.</p>}
      {folders.data && folders.data.length > 0 && (
        <ul className="settings__folders" aria-label="Watched folders">
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
                      {labels.get(folder.accountId) ?? 'an account no longer signed in'} ·{' '}
                      {folderOptionsSummary(folder.options)}
                    </span>
                  </div>
                  <div className="settings__folder-actions">
                    <button
                      type="button"
                      className="button button--small"
                      aria-label={`Edit ${folder.path}`}
                      onClick={() => setEditing(folder.id)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="button button--small button--danger"
                      aria-label={`Remove ${folder.path}`}
                      onClick={() => {
                        remove.clearError();
                        setRemoving(folder);
                      }}
                    >
                      Remove
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
          title="Stop watching this folder?"
          confirmLabel="Stop watching"
          busyLabel="Removing…"
          busy={remove.busy}
          error={remove.error}
          onConfirm={() => void confirmRemove()}
          onCancel={() => setRemoving(null)}
        >
          <p>
            <code>{removing.path}</code> will no longer be watched. Files already uploaded stay on the service, and no
            local file is touched.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function EditFolder({ folder, onDone }: { folder: WatchedFolder; onDone: () => void }) {
  const [draft, setDraft] = useState(() => draftFromOptions(folder.options));
  const action = useAction();
  const options = optionsFromDraft(draft);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!options) return;
    if (await action.run('folders:update', { id: folder.id, options })) onDone();
  }

  return (
    <form
      className="form settings__edit"
      aria-label={`Options of ${folder.path}`}
      onSubmit={(event) => void save(event)}
    >
      <code className="settings__path">{folder.path}</code>
      <FolderOptionsForm value={draft} onChange={setDraft} adding={false} />
      <ErrorNote error={action.error} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={!options || action.busy}>
          {action.busy ? 'Saving…' : 'Save folder'}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
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
  const options = optionsFromDraft(draft);

  // a refused path is said next to the field; anything else (the account, the connection) below the form
  const pathError = action.error && isFolderPathProblem(action.error.code) ? action.error : null;

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!options || path.trim() === '') return;
    const folder = await action.run('folders:add', { accountId, path: path.trim(), options });
    if (!folder) return;
    setAdded(`Now watching ${folder.path}.`);
    setPath('');
    setDraft(NEW_FOLDER_OPTIONS);
    props.onAdded();
  }

  return (
    <form className="form settings__add" aria-labelledby="add-folder-title" onSubmit={(event) => void add(event)}>
      <h3 id="add-folder-title">Add a watched folder</h3>
      <FolderPathField
        label="Folder path"
        hint="The full path of a folder on the computer running Media Sync: type it, or choose it."
        placeholder="/home/you/Videos/To upload"
        value={path}
        error={pathError?.message ?? null}
        onChange={(value) => {
          setPath(value);
          if (pathError) action.clearError();
        }}
      />
      <label className="field">
        <span>Upload to account</span>
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
          {action.busy ? 'Adding…' : 'Add folder'}
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

  useEffect(() => {
    if (settings.data) setForm(settingsForm(settings.data));
  }, [settings.data]);

  if (!form) {
    return (
      <section className="settings__section card" aria-labelledby="app-settings-title">
        <h2 id="app-settings-title">Uploads and app</h2>
        {settings.error ? <ErrorNote error={settings.error} /> : <p className="muted">Loading…</p>}
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
    setSaved('Settings saved.');
  }

  const errorId = (field: keyof SettingsFormErrors) => (errors[field] ? `settings-${field}-error` : undefined);

  return (
    <form
      className="settings__section card form"
      aria-labelledby="app-settings-title"
      onSubmit={(event) => void save(event)}
      noValidate
    >
      <h2 id="app-settings-title">Uploads and app</h2>
      <label className="field">
        <span>Uploads at the same time</span>
        <select value={form.concurrency} onChange={(event) => set({ concurrency: Number(event.target.value) })}>
          {[1, 2, 3, 4, 5, 6].map((count) => (
            <option key={count} value={count}>
              {count}
            </option>
          ))}
        </select>
      </label>

      <fieldset className="settings__group">
        <legend>Bandwidth</legend>
        <RadioOption
          name="bandwidth"
          checked={!form.bandwidthLimited}
          onSelect={() => set({ bandwidthLimited: false })}
        >
          No limit
        </RadioOption>
        <RadioOption name="bandwidth" checked={form.bandwidthLimited} onSelect={() => set({ bandwidthLimited: true })}>
          Limit all uploads together
        </RadioOption>
        {form.bandwidthLimited && (
          <label className="field settings__nested">
            <span>Limit in MB/s</span>
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
        <span>Chunk size in MB</span>
        <input
          type="text"
          inputMode="decimal"
          value={form.chunkMb}
          aria-invalid={errors.chunkMb ? true : undefined}
          aria-describedby={['settings-chunk-hint', errorId('chunkMb')].filter(Boolean).join(' ')}
          onChange={(event) => set({ chunkMb: event.target.value })}
        />
        <small id="settings-chunk-hint" className="muted">
          Large files are sent in pieces of this size (at most 90 MB). Smaller pieces lose less on a flaky link.
        </small>
        {errors.chunkMb && (
          <span id="settings-chunkMb-error" className="field__error">
            {errors.chunkMb}
          </span>
        )}
      </label>

      <fieldset className="settings__group">
        <legend>Notify me when</legend>
        {NOTIFICATION_KINDS.map((kind) => (
          <label key={kind} className="field--inline">
            <input
              type="checkbox"
              checked={form.notifications[kind]}
              onChange={(event) => set({ notifications: { ...form.notifications, [kind]: event.target.checked } })}
            />
            <span>{NOTIFICATION_LABELS[kind]}</span>
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
        <span>Start Media Sync when I log in</span>
      </label>
      <small id="settings-login-hint" className="muted settings__hint">
        {bridge.shell === 'electron'
          ? 'Media Sync starts in the tray, without a window.'
          : 'Applies to the desktop app; media-sync serve is started by your system instead.'}
      </small>

      <label className="field">
        <span>Proxy for API traffic</span>
        <input
          type="url"
          value={form.proxyUrl}
          placeholder="http://proxy.example:3128"
          spellCheck={false}
          aria-invalid={errors.proxyUrl ? true : undefined}
          aria-describedby={['settings-proxy-hint', errorId('proxyUrl')].filter(Boolean).join(' ')}
          onChange={(event) => set({ proxyUrl: event.target.value })}
        />
        <small id="settings-proxy-hint" className="muted">
          Leave empty to connect directly.
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
          {action.busy ? 'Saving…' : 'Save settings'}
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
  if (!supported) return <p className="muted">This browser cannot show notifications.</p>;
  if (permission === 'granted')
    return <p className="muted">This browser shows them while the page is in the background.</p>;
  if (permission === 'denied') {
    return <p className="muted">This browser blocks notifications from this page; allow them in its site settings.</p>;
  }
  return (
    <button
      type="button"
      className="button button--small settings__notify"
      onClick={() => void Notification.requestPermission().then(setPermission)}
    >
      Show browser notifications
    </button>
  );
}

function TokenStorage({ accounts }: { accounts: AccountView[] }) {
  return (
    <section className="settings__section card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Accounts and tokens</h2>
      <ul className="settings__tokens">
        {accounts.map((candidate) => {
          const encrypted = tokenStorageEncrypted(candidate.tokenStorage);
          return (
            <li key={candidate.id}>
              <strong>{accountLabel(candidate)}</strong>
              <span> — the token is kept in {candidate.tokenStorage}.</span>
              {!encrypted && (
                <p className="settings__warning">
                  This token is not encrypted: anyone who can read your user&apos;s files can use it. Give it only the
                  permissions Media Sync needs, and revoke it on the website if this computer is lost.
                </p>
              )}
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
    setExported(`Saved ${report.fileName} to your downloads.`);
  }

  return (
    <section className="settings__section card" aria-labelledby="support-title">
      <h2 id="support-title">Support</h2>
      <p className="muted">
        A diagnostics file helps support find a problem: versions, settings, queue counts, recent errors with their
        request ids and the last lines of the log. It never contains a token.
      </p>
      <button type="button" className="button" disabled={action.busy} onClick={() => void exportDiagnostics()}>
        Export diagnostics
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
  const folder = info.data?.logsDir;
  if (!folder) return <ErrorNote error={info.error} />;

  async function copyPath(path: string) {
    setCopied(
      (await writeClipboard(path))
        ? 'The path of the log folder is copied.'
        : 'The browser did not allow copying: select the path above and copy it.',
    );
  }

  return (
    <div className="settings__logs">
      <h3>Logs</h3>
      <p className="muted">
        The logs record what Media Sync did and what went wrong, such as sign-ins, uploads, refused tokens and errors,
        and they never contain your token.
      </p>
      {bridge.shell === 'electron' ? (
        <button
          type="button"
          className="button"
          disabled={action.busy}
          onClick={() => void action.run('app:openLogsFolder', {})}
        >
          Open logs folder
        </button>
      ) : (
        <>
          <p>
            The log files are in this folder on the computer running Media Sync:{' '}
            <code className="settings__path">{folder}</code>
          </p>
          <button type="button" className="button" onClick={() => void copyPath(folder)}>
            Copy path
          </button>
        </>
      )}
      <ErrorNote error={action.error} />
      <StatusNote text={copied} />
    </div>
  );
}
