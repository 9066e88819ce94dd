import { useState, type FormEvent, type ReactNode } from 'react';
import { Trans } from 'react-i18next';
import { isFolderPathProblem, type AccountView } from '../../../src-shared/ipc/ipc-contract.js';
import type { FolderOptions, WatchedFolder } from '../../../src-shared/model/folder-options.js';
import { useAction } from '../../bridge/bridge-context.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorNote } from '../../components/error-note.js';
import {
  FolderOptionsForm,
  draftFromOptions,
  optionsFromDraft,
  type FolderOptionsDraft,
} from '../../components/folder-options-form.js';
import { FolderPathField } from '../../components/folder-path-field.js';
import { FolderPreviewNote } from './folder-preview-note.js';
import { useLocale } from '../../i18n/i18n.js';
import { errorText } from '../../i18n/translate.js';
import { useStores } from '../../store/stores.js';
import { accountLabel } from '../../text/account-label.js';

/** A folder's options until the person changes them: private, subfolders included, the files already there uploaded. */
export const NEW_FOLDER_OPTIONS = draftFromOptions({
  visibility: 'private',
  allowOnlineWatch: null,
  includeSubfolders: true,
  uploadExisting: true,
  skipExisting: false,
  afterUpload: { kind: 'keep' },
  ignoreGlobs: [],
  settleSeconds: null,
  checkByPolling: false,
  notify: 'batch',
  fileTypes: null,
  minSize: null,
  maxSize: null,
  modifiedAfter: null,
});

/**
 * "Delete after upload" newly chosen for a folder: how many of its files it
 * will put in the Trash is said, and confirmed, before it is saved. Nothing
 * is asked when it was on already, or when the folder holds no such file.
 */
function useDeleteConfirm() {
  const { folders } = useStores();
  const { t } = useLocale();
  const [asking, setAsking] = useState<{ files: number; more: boolean; path: string; go: () => void } | null>(null);

  async function confirmFirst(
    target: { path: string; id: number | null; before: FolderOptions['afterUpload']['kind'] | null },
    options: FolderOptions,
    go: () => void,
  ): Promise<void> {
    if (options.afterUpload.kind !== 'delete' || target.before === 'delete') return go();
    const request = { path: target.path, id: target.id, options };
    // a folder that cannot be counted (not there, not readable): the save says what is wrong with it
    const answer = await folders.countToRemove(request).catch(() => null);
    if (!answer || answer.files === 0) return go();
    setAsking({ ...answer, path: target.path, go });
  }

  const values = asking && { path: asking.path, count: asking.files };
  const dialog: ReactNode = asking && (
    <ConfirmDialog
      title={t('folders.deleteConfirm.title')}
      confirmLabel={t('folders.deleteConfirm.confirm')}
      onConfirm={() => {
        setAsking(null);
        asking.go();
      }}
      onCancel={() => setAsking(null)}
    >
      <p>
        <Trans
          i18nKey={asking.more ? 'folders.deleteConfirm.more' : 'folders.deleteConfirm.files'}
          values={values}
          count={asking.files}
          components={{ code: <code /> }}
        />
      </p>
      <p>{t('folders.deleteConfirm.kept')}</p>
    </ConfirmDialog>
  );
  return { confirmFirst, dialog };
}

/** Whether the options take other files than before: then the edit form shows the preview. */
function rulesChanged(before: FolderOptions, after: FolderOptions | null): boolean {
  if (!after) return false;
  const rules = (options: FolderOptions) =>
    JSON.stringify([
      options.includeSubfolders,
      options.ignoreGlobs,
      options.fileTypes,
      options.minSize,
      options.maxSize,
      options.modifiedAfter,
    ]);
  return rules(before) !== rules(after);
}

/** A watched folder's options, edited in its card. */
export function EditFolder({ folder, onDone }: { folder: WatchedFolder; onDone: () => void }) {
  const [draft, setDraft] = useState(() => draftFromOptions(folder.options));
  const action = useAction();
  const { folders } = useStores();
  const deleting = useDeleteConfirm();
  const { t } = useLocale();
  const options = optionsFromDraft(draft);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!options) return;
    const target = { path: folder.path, id: folder.id, before: folder.options.afterUpload.kind };
    await deleting.confirmFirst(target, options, () => {
      void action.run(() => folders.update(folder.id, options)).then((saved) => saved && onDone());
    });
  }

  return (
    <form
      className="form folder-card__edit"
      aria-label={t('folders.optionsOf', { path: folder.path })}
      onSubmit={(event) => void save(event)}
    >
      <FolderOptionsForm value={draft} onChange={setDraft} adding={false} />
      {rulesChanged(folder.options, options) && (
        <FolderPreviewNote path={folder.path} id={folder.id} options={options} />
      )}
      <ErrorNote error={action.error} />
      {deleting.dialog}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={!options || action.busy}>
          {action.busy ? t('folders.saving') : t('folders.save')}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * The second step of adding a folder: the folder chosen (with the picker or
 * the folder browser) is in its field, still open to change; the account
 * and the options come now, once there is a folder to apply them to.
 */
export function AddFolder(props: {
  path: string;
  account: AccountView;
  accounts: AccountView[];
  onAdded: (folder: WatchedFolder) => void;
  onCancel: () => void;
}) {
  const [path, setPath] = useState(props.path);
  const [accountId, setAccountId] = useState(props.account.id);
  const [draft, setDraft] = useState<FolderOptionsDraft>(NEW_FOLDER_OPTIONS);
  const action = useAction();
  const { folders } = useStores();
  const deleting = useDeleteConfirm();
  const { t } = useLocale();
  const options = optionsFromDraft(draft);

  // a refused path is said next to the field; anything else (the account, the connection) below the form
  const pathError = action.error && isFolderPathProblem(action.error.code) ? action.error : null;

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!options || path.trim() === '') return;
    const target = { path: path.trim(), id: null, before: null };
    await deleting.confirmFirst(target, options, () => {
      void action
        .run(() => folders.add({ accountId, path: target.path, options }))
        .then((folder) => {
          if (folder) props.onAdded(folder);
        });
    });
  }

  return (
    <form className="form card folders__add" aria-labelledby="add-folder-title" onSubmit={(event) => void add(event)}>
      <h2 id="add-folder-title">{t('folders.addTitle')}</h2>
      <FolderPathField
        label={t('folders.path')}
        hint={t('folders.pathHint')}
        placeholder={t('folders.pathPlaceholder')}
        value={path}
        error={pathError ? errorText(pathError) : null}
        onChange={(value) => {
          setPath(value);
          if (pathError) action.clearError();
        }}
      />
      <label className="field">
        <span>{t('folders.account')}</span>
        <select value={accountId} onChange={(event) => setAccountId(event.target.value)}>
          {props.accounts.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {accountLabel(candidate)}
            </option>
          ))}
        </select>
      </label>
      <FolderOptionsForm value={draft} onChange={setDraft} adding />
      <FolderPreviewNote path={path} id={null} options={options} />
      <ErrorNote error={pathError ? null : action.error} />
      {deleting.dialog}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={!options || action.busy}>
          {action.busy ? t('folders.adding') : t('folders.add')}
        </button>
        <button type="button" className="button" onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
