import { useState, type FormEvent } from 'react';
import { Trans } from 'react-i18next';
import { isFolderPathProblem, type AccountView } from '../../../src-shared/ipc/ipc-contract.js';
import type { WatchedFolder } from '../../../src-shared/model/folder-options.js';
import { useAction, useEvent, useQuery } from '../../bridge/bridge-context.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorNote } from '../../components/error-note.js';
import {
  FolderOptionsForm,
  draftFromOptions,
  optionsFromDraft,
  type FolderOptionsDraft,
} from '../../components/folder-options-form.js';
import { FolderPathField } from '../../components/folder-path-field.js';
import { StatusNote } from '../../components/status-note.js';
import { useLocale } from '../../i18n/i18n.js';
import { errorText } from '../../i18n/translate.js';
import { accountLabel } from '../../model/account-label.js';
import { folderOptionsSummary } from '../../model/settings-form.js';

const NEW_FOLDER_OPTIONS = draftFromOptions({
  visibility: 'private',
  allowOnlineWatch: null,
  includeSubfolders: true,
  uploadExisting: true,
  skipExisting: false,
  afterUpload: { kind: 'keep' },
  ignoreGlobs: [],
});

/** Settings → Watched folders: the list, each folder's options edited in place, and the form to add one. */
export function FoldersSection({ account, accounts }: { account: AccountView; accounts: AccountView[] }) {
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
