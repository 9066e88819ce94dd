import { useState, type FormEvent } from 'react';
import { PLANS, type Plan } from '../../src-shared/api/index.js';
import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';
import { useAction } from '../bridge/bridge-context.js';
import { ErrorNote } from '../components/error-note.js';
import { useLocale } from '../i18n/i18n.js';
import { useStores } from '../store/stores.js';

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
  const { accounts } = useStores();
  const action = useAction();
  const { t } = useLocale();

  async function signIn(event: FormEvent) {
    event.preventDefault();
    const account = await action.run(() => accounts.signIn({ baseUrl: baseUrl.trim(), token: token.trim(), plan }));
    setToken('');
    if (account) props.onSignedIn(account);
  }

  async function tryLocally() {
    const account = await action.run(() => accounts.startDemo());
    if (account) props.onSignedIn(account);
  }

  return (
    <main className="first-run">
      <div className="first-run__card">
        <div className="first-run__brand">
          <img src="./favicon.svg" alt="" width="48" height="48" />
          <h1>{props.onCancel ? t('firstRun.addTitle') : t('firstRun.welcomeTitle')}</h1>
        </div>
        <p className="muted">{t('firstRun.intro')}</p>
        {/* a field edited, or one the browser stops the next try for: the last refusal is no longer what to read */}
        <form
          onSubmit={(event) => void signIn(event)}
          onChange={action.clearError}
          onInvalid={action.clearError}
          className="form"
          aria-label={t('firstRun.formLabel')}
        >
          <label className="field">
            <span>{t('firstRun.serverAddress')}</span>
            <input
              type="url"
              required
              placeholder={t('firstRun.serverAddressPlaceholder')}
              value={baseUrl}
              onChange={(event) => setBaseUrl(event.target.value)}
              autoComplete="url"
            />
            <small className="muted">{t('firstRun.serverAddressHint')}</small>
          </label>
          <label className="field">
            <span>{t('firstRun.token')}</span>
            <input
              type="password"
              required
              value={token}
              onChange={(event) => setToken(event.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
            <small className="muted">{t('firstRun.tokenHint')}</small>
          </label>
          <label className="field">
            <span>{t('firstRun.plan')}</span>
            <select value={plan} onChange={(event) => setPlan(event.target.value as Plan)}>
              {PLANS.map((name) => (
                <option key={name} value={name}>
                  {t(`plans.${name}`)}
                </option>
              ))}
            </select>
          </label>
          <ErrorNote error={action.error} />
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={action.busy}>
              {action.busy ? t('firstRun.signingIn') : t('firstRun.signIn')}
            </button>
            {props.onCancel && (
              <button type="button" className="button" onClick={props.onCancel}>
                {t('common.cancel')}
              </button>
            )}
          </div>
        </form>
        <div className="first-run__demo">
          <h2>{t('firstRun.demoTitle')}</h2>
          <p className="muted">{t('firstRun.demoText')}</p>
          <button type="button" className="button" disabled={action.busy} onClick={() => void tryLocally()}>
            {t('firstRun.demoButton')}
          </button>
        </div>
      </div>
    </main>
  );
}
