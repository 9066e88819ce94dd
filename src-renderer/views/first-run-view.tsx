import { useState, type FormEvent } from 'react';
import { PLANS, type Plan } from '../../src-shared/api/index.js';
import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';
import { useAction } from '../bridge/bridge-context.js';
import { ErrorNote } from '../components/error-note.js';

/**
 * Sign in with a base URL and an API token, or try the app against the
 * bundled reference server. The token lives in this form only until it is
 * sent: the core keeps it, and nothing sends it back.
 */
export function FirstRunView(props: {
  initialBaseUrl?: string | undefined;
  onSignedIn: (account: AccountView) => void;
  onCancel?: (() => void) | undefined;
}) {
  const [baseUrl, setBaseUrl] = useState(props.initialBaseUrl ?? '');
  const [token, setToken] = useState('');
  const [plan, setPlan] = useState<Plan>('free');
  const action = useAction();

  async function signIn(event: FormEvent) {
    event.preventDefault();
    const account = await action.run('account:signIn', { baseUrl: baseUrl.trim(), token: token.trim(), plan });
    setToken('');
    if (account) props.onSignedIn(account);
  }

  async function tryLocally() {
    const account = await action.run('account:startDemo', {});
    if (account) props.onSignedIn(account);
  }

  return (
    <main className="first-run">
      <div className="first-run__card">
        <div className="first-run__brand">
          <img src="./favicon.svg" alt="" width="48" height="48" />
          <h1>{props.onCancel ? 'Add an account' : 'Welcome to Media Sync'}</h1>
        </div>
        <p className="muted">
          Media Sync uploads the files you drop into your watched folders, resumably, and imports videos from links.
        </p>
        <form onSubmit={(event) => void signIn(event)} className="form" aria-label="Sign in with a token">
          <label className="field">
            <span>Server address</span>
            <input
              type="url"
              required
              placeholder="https://media.example.com/api/v1"
              value={baseUrl}
              onChange={(event) => setBaseUrl(event.target.value)}
              autoComplete="url"
            />
            <small className="muted">The API's base URL; it ends with /api/v1.</small>
          </label>
          <label className="field">
            <span>API token</span>
            <input
              type="password"
              required
              value={token}
              onChange={(event) => setToken(event.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
            <small className="muted">
              Create one in the account area of the website with files:read, files:write and remote:write.
            </small>
          </label>
          <label className="field">
            <span>Plan</span>
            <select value={plan} onChange={(event) => setPlan(event.target.value as Plan)}>
              {PLANS.map((name) => (
                <option key={name} value={name}>
                  {name === 'free' ? 'Free (files up to 4 GB)' : 'Premium (files up to 15 GB)'}
                </option>
              ))}
            </select>
          </label>
          <ErrorNote error={action.error} />
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={action.busy}>
              {action.busy ? 'Signing in…' : 'Sign in'}
            </button>
            {props.onCancel && (
              <button type="button" className="button" onClick={props.onCancel}>
                Cancel
              </button>
            )}
          </div>
        </form>
        <div className="first-run__demo">
          <h2>No account yet?</h2>
          <p className="muted">
            Try everything against a local server that runs inside Media Sync. Nothing leaves this computer.
          </p>
          <button type="button" className="button" disabled={action.busy} onClick={() => void tryLocally()}>
            Try it locally
          </button>
        </div>
      </div>
    </main>
  );
}
