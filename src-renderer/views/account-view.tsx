import { useState } from 'react';
import { formatBytes } from '../../src-shared/model/format.js';
import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';
import { useAction, useQuery } from '../bridge/bridge-context.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { ErrorNote } from '../components/error-note.js';
import { useLocale } from '../i18n/i18n.js';
import { errorText, translate } from '../i18n/translate.js';
import { accountLabel } from '../text/account-label.js';
import { formatCount } from '../text/file-columns.js';
import { useStore } from '../store/store.js';
import { useStores } from '../store/stores.js';
import './account-view.css';

/**
 * The active account as the server sees it (GET /account) and how this app
 * keeps it, then every signed-in account with sign out and "Add an account".
 * The header's account menu switches between them.
 */
export function AccountPage(props: { account: AccountView; accounts: AccountView[]; onAddAccount: () => void }) {
  const { account } = props;
  const summary = useQuery('account:summary', { accountId: account.id });
  const [leaving, setLeaving] = useState<AccountView | null>(null);
  const signOut = useAction();
  const stores = useStores();
  const folders = useStore(stores.folders, (read) => read.data);
  const leavingFolders = leaving ? (folders?.filter((folder) => folder.accountId === leaving.id).length ?? 0) : 0;
  const data = summary.data;
  const { t, locale } = useLocale();

  async function confirmSignOut() {
    if (!leaving) return;
    const done = await signOut.run(() => stores.accounts.signOut(leaving.id));
    if (done) setLeaving(null);
  }

  const facts: Array<[string, string]> = data
    ? [
        [t('account.username'), data.username],
        [t('account.email'), data.email],
        [t('account.files'), formatCount(data.files, locale)],
        [t('account.storageUsed'), formatBytes(data.storage_bytes, locale)],
      ]
    : [];
  const jobs = data
    ? [
        [t('account.jobsWaiting'), data.remote_jobs.pending],
        [t('account.jobsRunning'), data.remote_jobs.running],
        [t('account.jobsCompleted'), data.remote_jobs.completed],
        [t('account.jobsFailed'), data.remote_jobs.failed],
      ]
    : [];

  return (
    <div className="account-view">
      <div className="toolbar">
        <h1>{t('account.title')}</h1>
        <span className="toolbar__spacer" />
        <button type="button" className="button" onClick={summary.reload} disabled={summary.loading}>
          {t('common.refresh')}
        </button>
      </div>

      <section
        className="card account-view__summary"
        aria-labelledby="account-summary-heading"
        aria-busy={summary.loading}
      >
        <h2 id="account-summary-heading">{accountLabel(account)}</h2>
        {summary.error && <ErrorNote error={summary.error} />}
        {!data && !summary.error && <p className="muted">{t('account.loading')}</p>}
        {data && (
          <>
            <dl className="account-view__facts">
              {facts.map(([term, value]) => (
                <div key={term}>
                  <dt>{term}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            <h3>{t('account.importsTitle')}</h3>
            <dl className="account-view__counters">
              {jobs.map(([term, value]) => (
                <div key={term}>
                  <dt>{term}</dt>
                  <dd>{formatCount(value as number, locale)}</dd>
                </div>
              ))}
            </dl>
          </>
        )}
        <h3>{t('account.localTitle')}</h3>
        <dl className="account-view__facts">
          <div>
            <dt>{t('account.server')}</dt>
            <dd>
              <code>{account.baseUrl}</code>
            </dd>
          </div>
          <div>
            <dt>{t('account.plan')}</dt>
            <dd>{t(`plans.${account.plan}`)}</dd>
          </div>
          <div>
            <dt>{t('account.tokenStorage')}</dt>
            <dd>{sentence(account.tokenStorageText ? translate(account.tokenStorageText) : account.tokenStorage)}</dd>
          </div>
        </dl>
      </section>

      <section className="account-view__accounts" aria-labelledby="accounts-heading">
        <div className="toolbar">
          <h2 id="accounts-heading">{t('account.accountsTitle')}</h2>
          <span className="toolbar__spacer" />
          <button type="button" className="button button--primary" onClick={props.onAddAccount}>
            {t('account.addAccount')}
          </button>
        </div>
        <p className="muted">{t('account.switchHint')}</p>
        <ul className="account-list">
          {props.accounts.map((candidate) => {
            const active = candidate.id === account.id;
            return (
              <li key={candidate.id} className={`account-list__item${active ? ' account-list__item--active' : ''}`}>
                <div className="account-list__who">
                  <strong>{accountLabel(candidate)}</strong>
                  {active && <span className="badge">{t('account.active')}</span>}
                  {candidate.blocked && <span className="badge badge--error">{t('account.needsToken')}</span>}
                  <span className="muted account-list__plan">{t(`plans.${candidate.plan}`)}</span>
                  {candidate.blocked && <span className="account-list__blocked">{errorText(candidate.blocked)}</span>}
                </div>
                <button
                  type="button"
                  className="button button--small"
                  aria-label={t('account.signOutOf', { account: accountLabel(candidate) })}
                  onClick={() => setLeaving(candidate)}
                >
                  {t('account.signOut')}
                </button>
              </li>
            );
          })}
        </ul>
      </section>

      {leaving && (
        <ConfirmDialog
          title={t('account.signOutTitle', { account: accountLabel(leaving) })}
          confirmLabel={t('account.signOut')}
          busyLabel={t('account.signingOut')}
          busy={signOut.busy}
          error={signOut.error}
          onCancel={() => {
            signOut.clearError();
            setLeaving(null);
          }}
          onConfirm={() => void confirmSignOut()}
        >
          <p>
            {t('account.signOutForgets')}
            {leavingFolders > 0 && ` ${t('account.signOutFolders', { count: leavingFolders })}`}
          </p>
          <p>{t('account.signOutQueue')}</p>
          <p>{t('account.signOutFilesStay')}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** "a file only your user can read" → "A file only your user can read." */
function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}${/[.!?)]$/.test(trimmed) ? '' : '.'}`;
}
