import { lazy, Suspense, useEffect, useMemo, useState, useSyncExternalStore, type ComponentType } from 'react';
import type { AccountView } from '../src-shared/ipc/ipc-contract.js';
import { useConnection } from './bridge/bridge-context.js';
import { DropUpload } from './components/drop-upload.js';
import { ErrorNote } from './components/error-note.js';
import { Toaster, useToasts } from './components/toaster.js';
import { UpdateBanner } from './components/update-banner.js';
import { useIntents, type Intents } from './components/use-intents.js';
import { applyLanguageSetting, useLocale } from './i18n/i18n.js';
import { errorText } from './i18n/translate.js';
import { accountLabel } from './text/account-label.js';
import { routeFromHash, VIEWS, type Route } from './routes.js';
import { useStores } from './store/stores.js';
import { useStore } from './store/store.js';
import { ActivityPanel } from './views/activity-panel.js';
import { QueueView } from './views/queue-view.js';

// The Queue, the view the window opens on, is in the main chunk; the others (and first run, shown
// once) are chunks of their own, loaded when first shown, so the Queue's first rows do not wait for them.
const AccountPage = lazyView(() => import('./views/account-view.js').then((m) => m.AccountPage));
const FilesView = lazyView(() => import('./views/files-view.js').then((m) => m.FilesView));
const FoldersView = lazyView(() => import('./views/folders/folders-view.js').then((m) => m.FoldersView));
const FirstRunView = lazyView(() => import('./views/first-run-view.js').then((m) => m.FirstRunView));
const ImportsView = lazyView(() => import('./views/imports-view.js').then((m) => m.ImportsView));
const SettingsView = lazyView(() => import('./views/settings/settings-view.js').then((m) => m.SettingsView));

/**
 * A view loaded when first shown. zod is set up before it (zod-jitless.ts):
 * the views that check what a person types build schemas as they load, and
 * the main chunk holds no zod to have set it up already.
 */
function lazyView<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  return lazy(() => import('./zod-jitless.js').then(load).then((view) => ({ default: view })));
}

/** Where the window keeps the account picked last (per browser, like the rest of the UI's state). */
const SELECTED_ACCOUNT_KEY = 'media-sync.account';

/**
 * The route of the address. A store rather than state set from `hashchange`: the address may
 * move between the first render and the moment the app listens (a link opened as the window
 * comes up), and React reads it again as it subscribes.
 */
function useHashRoute(): Route {
  const hash = useSyncExternalStore(subscribeToHash, () => location.hash);
  return useMemo(() => routeFromHash(hash), [hash]);
}

function subscribeToHash(changed: () => void): () => void {
  window.addEventListener('hashchange', changed);
  return () => window.removeEventListener('hashchange', changed);
}

/**
 * The main window: first run until an account exists, then the views with
 * the account switcher, banners for a lost connection, a refused token or
 * an update ready to install, the activity panel and toasts.
 */
export function App() {
  const stores = useStores();
  const accounts = useStore(stores.accounts);
  const update = useStore(stores.updates, (read) => read.data);
  const route = useHashRoute();
  const view = route.view;
  const [selectedId, setSelectedId] = useState(() => localStorage.getItem(SELECTED_ACCOUNT_KEY));
  // the sign-in page over the app: to add an account, or a new token for a refused one
  const [signIn, setSignIn] = useState<{ baseUrl?: string } | null>(null);
  const [activityOpen, setActivityOpen] = useState(false);
  const toasts = useToasts();
  // links and opened files: they may arrive before sign-in, and wait here for their view
  const intents = useIntents(toasts.show);
  const { t } = useLocale();
  useLanguageSetting();

  const select = (id: string) => {
    localStorage.setItem(SELECTED_ACCOUNT_KEY, id);
    setSelectedId(id);
  };

  if (!accounts.data) {
    return (
      <main className="app app--loading" aria-busy={!accounts.error}>
        <ConnectionBanner />
        {accounts.error ? <ErrorNote error={accounts.error} /> : <p className="muted">{t('app.starting')}</p>}
      </main>
    );
  }
  const list = accounts.data;
  const account = list.find((candidate) => candidate.id === selectedId) ?? list[0];
  if (!account || signIn) {
    return (
      <div className="app">
        <Suspense fallback={<ViewLoading />}>
          <FirstRunView
            initialBaseUrl={signIn?.baseUrl}
            onSignedIn={(signedIn) => {
              select(signedIn.id);
              setSignIn(null);
            }}
            onCancel={account ? () => setSignIn(null) : undefined}
          />
        </Suspense>
        <Toaster toasts={toasts} />
      </div>
    );
  }

  return (
    <DropUpload account={account}>
      <div className="app">
        <header className="app__header">
          <div className="app__brand">
            <img src="./favicon.svg" alt="" width="28" height="28" />
            <span>{t('app.name')}</span>
          </div>
          <nav aria-label={t('app.views')} className="app__nav">
            {VIEWS.map((item) => (
              <a key={item.id} href={`#/${item.id}`} aria-current={item.id === view ? 'page' : undefined}>
                {t(`nav.${item.id}`)}
              </a>
            ))}
          </nav>
          <div className="app__tools">
            <select
              aria-label={t('app.account')}
              className="account-switcher"
              value={account.id}
              onChange={(event) => (event.target.value === '+' ? setSignIn({}) : select(event.target.value))}
            >
              {list.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {accountLabel(candidate)}
                </option>
              ))}
              <option value="+">{t('app.addAccount')}</option>
            </select>
            <button
              type="button"
              className="button"
              aria-expanded={activityOpen}
              aria-controls="activity-panel"
              onClick={() => setActivityOpen((open) => !open)}
            >
              {t('app.activity')}
            </button>
          </div>
        </header>
        <ConnectionBanner />
        <BlockedBanner accounts={list} onSignIn={(baseUrl) => setSignIn({ baseUrl })} />
        <UpdateBanner status={update} />
        <main className="app__main" id="main">
          <Suspense fallback={<ViewLoading />}>
            <CurrentView
              route={route}
              account={account}
              accounts={list}
              intents={intents}
              onAddAccount={() => setSignIn({})}
              onSignIn={(baseUrl) => setSignIn({ baseUrl })}
            />
          </Suspense>
        </main>
        <ActivityPanel open={activityOpen} onClose={() => setActivityOpen(false)} />
        <Toaster toasts={toasts} />
      </div>
    </DropUpload>
  );
}

function CurrentView(props: {
  route: Route;
  account: AccountView;
  accounts: AccountView[];
  intents: Intents;
  onAddAccount: () => void;
  onSignIn: (baseUrl?: string) => void;
}) {
  const { intents, route } = props;
  const { showFilesSearch } = intents;
  // `#/files?search=name` (a folder's recent file): Files searches it (from its first frame: `initialSearch`), and
  // the address drops the search, the route with it (a hash change replaced, not added to the history), so a Files
  // made again later (another account's) does not search it again
  useEffect(() => {
    if (route.view !== 'files' || route.search === null) return;
    showFilesSearch(route.search);
    location.replace('#/files');
  }, [route.view, route.search, showFilesSearch]);
  switch (route.view) {
    case 'queue':
      return <QueueView account={props.account} accounts={props.accounts} />;
    case 'folders':
      return <FoldersView account={props.account} accounts={props.accounts} onSignIn={props.onSignIn} />;
    case 'files':
      return (
        <FilesView
          key={props.account.id}
          account={props.account}
          initialSearch={route.search}
          openedSearch={intents.filesSearch}
          onOpenedSearchTaken={intents.filesSearchTaken}
        />
      );
    case 'imports':
      return (
        <ImportsView
          key={props.account.id}
          account={props.account}
          openedLinks={intents.importLinks}
          onOpenedLinksTaken={intents.importLinksTaken}
        />
      );
    case 'account':
      return <AccountPage account={props.account} accounts={props.accounts} onAddAccount={props.onAddAccount} />;
    case 'settings':
      return <SettingsView section={route.section} accounts={props.accounts} />;
  }
}

/** While a view's chunk loads (the first time it is shown). */
function ViewLoading() {
  const { t } = useLocale();
  return (
    <p className="muted" aria-busy="true">
      {t('app.loading')}
    </p>
  );
}

function ConnectionBanner() {
  const connection = useConnection();
  const { t } = useLocale();
  // paused: the desktop window is hidden, and nobody sees it
  if (connection === 'open' || connection === 'paused') return null;
  // the key was made anew (`media-sync serve --new-key`): trying again will not help, the new address will
  if (connection === 'refused') {
    return (
      <div className="banner banner--error" role="alert">
        {t('app.addressChanged')}
      </div>
    );
  }
  return (
    <div className="banner banner--warning" role="status">
      {connection === 'connecting' ? t('app.connecting') : t('app.reconnecting')}
    </div>
  );
}

/** A refused token stops that account's queue: say so until a new token is signed in. */
function BlockedBanner({ accounts, onSignIn }: { accounts: AccountView[]; onSignIn: (baseUrl: string) => void }) {
  const blocked = accounts.filter((account) => account.blocked);
  const { t } = useLocale();
  if (blocked.length === 0) return null;
  return (
    <div className="banner banner--error" role="alert">
      {blocked.map((account) => (
        <div key={account.id}>
          <strong>{t('app.blockedAccount', { account: accountLabel(account) })}</strong> {errorText(account.blocked!)}{' '}
          {t('app.blockedWaits')}{' '}
          <button type="button" className="button button--small" onClick={() => onSignIn(account.baseUrl)}>
            {t('app.signInAgain')}
          </button>
          {account.blocked!.requestId && (
            <span className="muted"> {t('app.requestId', { id: account.blocked!.requestId })}</span>
          )}
        </div>
      ))}
    </div>
  );
}

/** The language setting, read at start: until it arrives the page shows the one it remembered (or the system's). */
function useLanguageSetting() {
  const language = useStore(useStores().settings, (read) => read.data?.language);
  useEffect(() => {
    if (language) applyLanguageSetting(language);
  }, [language]);
}
