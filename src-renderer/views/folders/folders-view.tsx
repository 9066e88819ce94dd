import { useEffect, useState } from 'react';
import type { AccountView } from '../../../src-shared/ipc/ipc-contract.js';
import { useAction, useBridge } from '../../bridge/bridge-context.js';
import { ErrorNote } from '../../components/error-note.js';
import { FolderBrowser } from '../../components/folder-browser.js';
import { useNow } from '../../components/use-now.js';
import { useLocale } from '../../i18n/i18n.js';
import { accountLabel } from '../../text/account-label.js';
import { useStore } from '../../store/store.js';
import { useStores } from '../../store/stores.js';
import { FolderCard, type FolderNote } from './folder-card.js';
import { FindFile } from './find-file.js';
import { AddFolder } from './folder-forms.js';
import './folders-view.css';

/** "5 min ago" and "since 14:05" move on this often. */
const CLOCK_TICK_MS = 30_000;

/**
 * The watched folders, one card each with what it is doing, its counts and
 * its last files. Adding one starts with the folder (the system's picker in
 * the desktop app, the page's folder browser in a browser); its account and
 * options are asked for after. Below them, Find a file: "why this file?"
 * for any path.
 */
export function FoldersView(props: {
  account: AccountView;
  accounts: AccountView[];
  onSignIn: (baseUrl?: string) => void;
}) {
  const { account, accounts } = props;
  const { capabilities } = useBridge();
  const stores = useStores();
  const statuses = useStore(stores.folderStatus);
  const folders = useStore(stores.folders, (read) => read.data);
  const pick = useAction();
  const [browsing, setBrowsing] = useState(false);
  // the folder chosen, its options asked for now
  const [adding, setAdding] = useState<string | null>(null);
  const [note, setNote] = useState<FolderNote | null>(null);
  const now = useNow(CLOCK_TICK_MS);
  const { t } = useLocale();
  const byId = new Map(accounts.map((candidate) => [candidate.id, candidate]));

  const list = statuses.data;
  // "Looking through … for files the watcher missed" is true while that folder scans: not after, nor once it is gone
  const scanEnded =
    note?.scanOf !== undefined && list?.find((status) => status.id === note.scanOf)?.state.kind !== 'scanning';
  useEffect(() => {
    if (scanEnded) setNote(null);
  }, [scanEnded]);

  async function choose() {
    setNote(null);
    if (!capabilities.canPickFolder) return setBrowsing(true);
    const picked = await pick.run(() => stores.folders.pick());
    if (picked) setAdding(picked);
  }

  return (
    <section className="folders" aria-labelledby="folders-title">
      <div className="toolbar folders__head">
        <h1 id="folders-title">{t('folders.title')}</h1>
        <span className="toolbar__spacer" />
        {list && list.length > 0 && adding === null && (
          <button type="button" className="button button--primary" disabled={pick.busy} onClick={() => void choose()}>
            {t('folders.addFolder')}
          </button>
        )}
      </div>
      <ErrorNote error={statuses.error ?? pick.error} />
      <p role="status" className={note && !scanEnded ? 'folders__note' : 'visually-hidden'}>
        {note && !scanEnded ? note.text : ''}
      </p>
      {adding !== null && (
        <AddFolder
          key={adding}
          path={adding}
          account={account}
          accounts={accounts}
          onAdded={(folder) => {
            setAdding(null);
            setNote({ text: t('folders.added', { path: folder.path }) });
          }}
          onCancel={() => setAdding(null)}
        />
      )}
      {!list && !statuses.error && <p className="muted">{t('common.loading')}</p>}
      {list && list.length === 0 && adding === null && (
        <div className="card folders__empty">
          <h2>{t('folders.emptyTitle')}</h2>
          <p>{t('folders.emptyText')}</p>
          <button type="button" className="button button--primary" disabled={pick.busy} onClick={() => void choose()}>
            {t('folders.addFirst')}
          </button>
        </div>
      )}
      {list && list.length > 0 && (
        <div className="folders__list">
          {list.map((status) => {
            const owner = byId.get(status.accountId);
            const signedOut = status.state.kind === 'problem' ? status.state.account : null;
            return (
              <FolderCard
                key={status.id}
                status={status}
                folder={folders?.find((folder) => folder.id === status.id)}
                now={now}
                account={
                  owner
                    ? accountLabel(owner)
                    : signedOut
                      ? t('folders.moveFolder.signedOutAccount', { account: accountLabel(signedOut) })
                      : t('folders.unknownAccount')
                }
                accounts={accounts}
                onSignIn={(baseUrl) => props.onSignIn(baseUrl ?? owner?.baseUrl)}
                onNote={setNote}
              />
            );
          })}
        </div>
      )}
      {list && <FindFile accountId={account.id} />}
      {browsing && (
        <FolderBrowser
          title={t('folderPath.pickerTitle')}
          start={null}
          onChoose={(path) => {
            setBrowsing(false);
            setAdding(path);
          }}
          onCancel={() => setBrowsing(false)}
        />
      )}
    </section>
  );
}
