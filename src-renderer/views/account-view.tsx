import { useState } from 'react';
import { formatBytes } from '../../src-shared/model/format.js';
import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';
import { useAction, useQuery } from '../bridge/bridge-context.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { ErrorNote } from '../components/error-note.js';
import { accountLabel } from '../model/account-label.js';
import { formatCount } from '../model/file-columns.js';
import './account-view.css';

const PLAN_LABELS = { free: 'Free (files up to 4 GB)', premium: 'Premium (files up to 15 GB)' } as const;

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
  const data = summary.data;

  async function confirmSignOut() {
    if (!leaving) return;
    const done = await signOut.run('account:signOut', { accountId: leaving.id });
    if (done) setLeaving(null);
  }

  const facts: Array<[string, string]> = data
    ? [
        ['Username', data.username],
        ['Email', data.email],
        ['Files', formatCount(data.files)],
        ['Storage used', formatBytes(data.storage_bytes)],
      ]
    : [];
  const jobs = data
    ? [
        ['Waiting', data.remote_jobs.pending],
        ['Running', data.remote_jobs.running],
        ['Completed', data.remote_jobs.completed],
        ['Failed', data.remote_jobs.failed],
      ]
    : [];

  return (
    <div className="account-view">
      <div className="toolbar">
        <h1>Account</h1>
        <span className="toolbar__spacer" />
        <button type="button" className="button" onClick={summary.reload} disabled={summary.loading}>
          Refresh
        </button>
      </div>

      <section
        className="card account-view__summary"
        aria-labelledby="account-summary-heading"
        aria-busy={summary.loading}
      >
        <h2 id="account-summary-heading">{accountLabel(account)}</h2>
        {summary.error && <ErrorNote error={summary.error} />}
        {!data && !summary.error && <p className="muted">Loading the account…</p>}
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
            <h3>Imports on the server</h3>
            <dl className="account-view__counters">
              {jobs.map(([term, value]) => (
                <div key={term}>
                  <dt>{term}</dt>
                  <dd>{formatCount(value as number)}</dd>
                </div>
              ))}
            </dl>
          </>
        )}
        <h3>On this computer</h3>
        <dl className="account-view__facts">
          <div>
            <dt>Server</dt>
            <dd>
              <code>{account.baseUrl}</code>
            </dd>
          </div>
          <div>
            <dt>Plan</dt>
            <dd>{PLAN_LABELS[account.plan]}</dd>
          </div>
          <div>
            <dt>Token storage</dt>
            <dd>{sentence(account.tokenStorage)}</dd>
          </div>
        </dl>
      </section>

      <section className="account-view__accounts" aria-labelledby="accounts-heading">
        <div className="toolbar">
          <h2 id="accounts-heading">Signed-in accounts</h2>
          <span className="toolbar__spacer" />
          <button type="button" className="button button--primary" onClick={props.onAddAccount}>
            Add an account
          </button>
        </div>
        <p className="muted">Switch between them with the account menu at the top of the window.</p>
        <ul className="account-list">
          {props.accounts.map((candidate) => {
            const active = candidate.id === account.id;
            return (
              <li key={candidate.id} className={`account-list__item${active ? ' account-list__item--active' : ''}`}>
                <div className="account-list__who">
                  <strong>{accountLabel(candidate)}</strong>
                  {active && <span className="badge">Active</span>}
                  {candidate.blocked && <span className="badge badge--error">Needs a new token</span>}
                  <span className="muted account-list__plan">{PLAN_LABELS[candidate.plan]}</span>
                  {candidate.blocked && <span className="account-list__blocked">{candidate.blocked.message}</span>}
                </div>
                <button type="button" className="button button--small" onClick={() => setLeaving(candidate)}>
                  Sign out<span className="visually-hidden"> of {accountLabel(candidate)}</span>
                </button>
              </li>
            );
          })}
        </ul>
      </section>

      {leaving && (
        <ConfirmDialog
          title={`Sign out of ${accountLabel(leaving)}?`}
          confirmLabel="Sign out"
          busyLabel="Signing out…"
          busy={signOut.busy}
          error={signOut.error}
          onCancel={() => {
            signOut.clearError();
            setLeaving(null);
          }}
          onConfirm={() => void confirmSignOut()}
        >
          <p>Media Sync forgets this account and deletes its token from this computer.</p>
          <p>Files on the server stay as they are. To use the account again, sign in with a token.</p>
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
