import { memo, useId, useState } from 'react';
import { Trans } from 'react-i18next';
import type { AccountView } from '../../../src-shared/ipc/ipc-contract.js';
import type { FolderStatus } from '../../../src-shared/model/folder-status.js';
import type { WatchedFolder } from '../../../src-shared/model/folder-options.js';
import { numberFormat } from '../../../src-shared/model/format.js';
import { useAction, useBridge } from '../../bridge/bridge-context.js';
import { writeClipboard } from '../../bridge/clipboard.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorNote } from '../../components/error-note.js';
import { useLocale } from '../../i18n/i18n.js';
import { pollingText } from '../../text/file-checks-text.js';
import { accountLabel } from '../../text/account-label.js';
import { folderStateText, recentOutcomeText, type FolderIcon } from '../../text/folder-status-text.js';
import { formatRelativeTime } from '../../text/relative-time.js';
import { folderOptionsSummary } from '../../text/settings-form.js';
import { filesSearchHash } from '../../routes.js';
import { useStores } from '../../store/stores.js';
import { useFileRowWhy } from './find-file.js';
import { EditFolder } from './folder-forms.js';

/** What the view says after a folder's action; a rescan's words (`scanOf`, the folder) stay while it scans. */
export interface FolderNote {
  text: string;
  scanOf?: number;
}

/** The counts a card shows, in its order; each is also the catalog key of its term. */
const COUNTS = ['uploadedToday', 'uploaded', 'failed', 'skipped'] as const;

/** One symbol per kind of state, beside its words (which say it all: the symbol is decoration). */
const ICONS: Record<FolderIcon, string> = { ok: '✓', busy: '↻', paused: 'Ⅱ', problem: '!' };

/**
 * One watched folder: what it is doing in words, its counts and last files,
 * and what a person can do with it. Its status comes from the folder status
 * store; each action's answer is put there too, so the card changes at once.
 */
export const FolderCard = memo(function FolderCard(props: {
  status: FolderStatus;
  folder: WatchedFolder | undefined;
  /** the time "5 min ago" is counted from */
  now: number;
  account: string;
  /** the signed-in accounts: where a folder whose account is signed out can move */
  accounts: AccountView[];
  /** the sign-in page, for the folder's account (its server's address, when known) */
  onSignIn: (baseUrl?: string) => void;
  /** null: the note shown before is no longer true (the folder was removed) */
  onNote: (note: FolderNote | null) => void;
}) {
  const { status, folder, now, onNote } = props;
  const { capabilities } = useBridge();
  const { folders, folderStatus } = useStores();
  const action = useAction();
  const remove = useAction();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const { t, locale } = useLocale();
  const titleId = useId();
  const text = folderStateText(status.state, { now, locale });
  const polling = status.polling && pollingText(status.polling);
  const count = (value: number) => numberFormat(locale).format(value);
  const why = useFileRowWhy(status.accountId);

  async function rescan() {
    if (await action.run(() => folderStatus.rescan(status.id))) {
      onNote({ text: t('folders.rescanning', { path: status.path }), scanOf: status.id });
    }
  }

  async function copyPath() {
    const copied = await writeClipboard(status.path);
    onNote({ text: t(copied ? 'folders.copiedPath' : 'folders.pathIs', { path: status.path }) });
  }

  async function confirmRemove() {
    // folders:changed follows: the stores read the list and the statuses again
    if (await remove.run(() => folders.remove(status.id))) {
      setRemoving(false);
      onNote(null);
    }
  }

  return (
    <article className={`card folder-card folder-card--${text.icon}`} aria-labelledby={titleId}>
      <header className="folder-card__head">
        <span className={`folder-card__icon folder-card__icon--${text.icon}`} aria-hidden="true">
          {ICONS[text.icon]}
        </span>
        <div className="folder-card__title">
          <h2 id={titleId}>
            <code>{status.path}</code>
          </h2>
          <p className="muted">
            {props.account}
            {folder && ` · ${folderOptionsSummary(folder.options)}`}
          </p>
        </div>
      </header>

      <div className="folder-card__state">
        <strong>{text.title}</strong>
        {text.detail && <span>{text.detail}</span>}
        {text.action === 'signIn' && (
          <button type="button" className="button button--small" onClick={() => props.onSignIn()}>
            {t('app.signInAgain')}
          </button>
        )}
        {text.action === 'signInOrMove' && status.state.kind === 'problem' && (
          <MoveFolder status={status} accounts={props.accounts} onSignIn={props.onSignIn} onNote={onNote} />
        )}
      </div>

      {polling && (
        <p className="folder-card__polling">
          {polling.title}
          {polling.detail && <span className="muted"> {polling.detail}</span>}
        </p>
      )}

      <dl className="folder-card__counts" aria-label={t('folders.counts')}>
        {COUNTS.map((key) => (
          <div key={key}>
            <dt>{t(`folders.${key}`)}</dt>
            <dd>{count(status.counts[key])}</dd>
          </div>
        ))}
      </dl>

      {status.recent.length > 0 && (
        <ul className="folder-card__recent" aria-label={t('folders.recent', { path: status.path })}>
          {status.recent.map((file) => (
            <li key={`${file.at}-${file.name}`}>
              {file.fileId ? (
                <a href={filesSearchHash(file.name)}>{file.name}</a>
              ) : (
                <span className="folder-card__name">{file.name}</span>
              )}
              <span className={`folder-card__outcome folder-card__outcome--${file.outcome}`}>
                {recentOutcomeText(file)}
              </span>
              <span className="muted">{formatRelativeTime(file.at, now, locale)}</span>
              <button
                type="button"
                className="button button--quiet button--small"
                aria-label={t('why.rowButtonLabel', { name: file.name })}
                onClick={() => why.open(file.path)}
              >
                {t('why.rowButton')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {why.panel}

      <ErrorNote error={action.error} onDismiss={action.clearError} />
      {editing && folder ? (
        <EditFolder folder={folder} onDone={() => setEditing(false)} />
      ) : (
        <div className="folder-card__actions">
          <button
            type="button"
            className="button button--small"
            aria-label={t(status.paused ? 'folders.resumeLabel' : 'folders.pauseLabel', { path: status.path })}
            disabled={action.busy}
            onClick={() =>
              void action.run(() => (status.paused ? folderStatus.resume(status.id) : folderStatus.pause(status.id)))
            }
          >
            {status.paused ? t('folders.resume') : t('folders.pause')}
          </button>
          <button
            type="button"
            className="button button--small"
            aria-label={t('folders.rescanLabel', { path: status.path })}
            disabled={action.busy}
            onClick={() => void rescan()}
          >
            {t('folders.rescan')}
          </button>
          {capabilities.canReveal ? (
            <button
              type="button"
              className="button button--small"
              aria-label={t('folders.revealLabel', { path: status.path })}
              onClick={() => void action.run(() => folderStatus.reveal(status.id))}
            >
              {t('folders.reveal')}
            </button>
          ) : (
            <button
              type="button"
              className="button button--small"
              aria-label={t('folders.copyPathLabel', { path: status.path })}
              onClick={() => void copyPath()}
            >
              {t('folders.copyPath')}
            </button>
          )}
          <button
            type="button"
            className="button button--small"
            aria-label={t('folders.editLabel', { path: status.path })}
            disabled={!folder}
            onClick={() => setEditing(true)}
          >
            {t('folders.edit')}
          </button>
          <button
            type="button"
            className="button button--small button--danger"
            aria-label={t('folders.removeLabel', { path: status.path })}
            onClick={() => {
              remove.clearError();
              setRemoving(true);
            }}
          >
            {t('folders.remove')}
          </button>
        </div>
      )}
      {removing && (
        <ConfirmDialog
          title={t('folders.removeTitle')}
          confirmLabel={t('folders.removeConfirm')}
          busyLabel={t('folders.removing')}
          busy={remove.busy}
          error={remove.error}
          onConfirm={() => void confirmRemove()}
          onCancel={() => setRemoving(false)}
        >
          <p>
            <Trans i18nKey="folders.removeText" values={{ path: status.path }} components={{ code: <code /> }} />
          </p>
        </ConfirmDialog>
      )}
    </article>
  );
});

/**
 * A folder whose account is signed out: sign in to that account again (its
 * files go on where they stopped), or give the folder to a signed-in account.
 */
function MoveFolder(props: {
  status: FolderStatus;
  accounts: AccountView[];
  onSignIn: (baseUrl?: string) => void;
  onNote: (note: FolderNote) => void;
}) {
  const { status, accounts } = props;
  const gone = status.state.kind === 'problem' ? status.state.account : null;
  const [target, setTarget] = useState(accounts[0]?.id ?? '');
  const { folders } = useStores();
  const move = useAction();
  const { t } = useLocale();
  const selectId = useId();

  async function moveFolder() {
    const to = accounts.find((account) => account.id === target);
    // folders:changed follows: the stores read the list and the statuses again
    if (to && (await move.run(() => folders.move(status.id, to.id)))) {
      props.onNote({ text: t('folders.moveFolder.moved', { path: status.path, account: accountLabel(to) }) });
    }
  }

  return (
    <div className="folder-card__move">
      <button
        type="button"
        className="button button--small button--primary"
        aria-label={t('folders.moveFolder.signInLabel', { path: status.path })}
        onClick={() => props.onSignIn(gone?.baseUrl)}
      >
        {t('folders.moveFolder.signIn')}
      </button>
      {accounts.length > 0 && (
        <>
          <label htmlFor={selectId}>{t('folders.moveFolder.to')}</label>
          <select id={selectId} value={target} onChange={(event) => setTarget(event.target.value)}>
            {accounts.map((account) => (
              <option key={account.id} value={account.id}>
                {accountLabel(account)}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button button--small"
            aria-label={t('folders.moveFolder.moveLabel', { path: status.path })}
            disabled={move.busy}
            onClick={() => void moveFolder()}
          >
            {t('folders.moveFolder.move')}
          </button>
        </>
      )}
      <ErrorNote error={move.error} onDismiss={move.clearError} />
    </div>
  );
}
