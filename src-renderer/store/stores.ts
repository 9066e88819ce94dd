/**
 * How the page talks to the core, one way for each job:
 *
 * - What views share lives in a store, one per domain, made here for the
 *   page's whole life: it reads at start and after a reconnection, is kept
 *   by the core's events, and views read it with `useStore(store, select)`.
 * - Every command a person's click sends is an action of its domain's store
 *   (`stores.queue.pause(id, { afterChunk })`): the store sends it and takes
 *   the answer in itself. A view runs it with `useAction()`, which keeps
 *   what is the view's own: that one is on its way, and its error. Domains
 *   whose data no view shares (files, imports, the app) have actions only.
 * - A read that one view shows and no other (Files' pages, Imports' jobs, an
 *   account's summary, the folder browser's listing) is that view's:
 *   `useQuery(command, request)`, which reads again when the request or
 *   the connection changes, and uses only the latest answer.
 *
 * So a view never calls `bridge.invoke` nor puts anything into a store; what
 * the shells do differently it asks of `bridge.capabilities`.
 */
import { createContext, useContext } from 'react';
import type { Notification } from '../../src-shared/ipc/ipc-contract.js';
import type { ConversionFollow } from '../../src-shared/model/conversion-follow.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { AccountsStore } from './accounts-store.js';
import { AppActions, FileActions, ImportActions } from './actions.js';
import { Disposables } from './disposables.js';
import { FeedStore } from './feed-store.js';
import { FolderStatusStore } from './folder-status-store.js';
import { FoldersStore } from './folders-store.js';
import { QueueStatusStore } from './queue-status-store.js';
import { QueueStore } from './queue-store.js';
import { RateLimitsStore } from './rate-limits-store.js';
import { SettingsStore } from './settings-store.js';
import { UpdatesStore } from './updates-store.js';

/**
 * How many notifications and followed files the page keeps: as many
 * notifications as the core does; the Activity panel shows the latest
 * files, Imports finds its jobs' among them.
 */
const FEED_KEPT = 200;

/** What the views share, one store per domain, for the page's whole life. */
export interface Stores {
  accounts: AccountsStore;
  /** the watched folders and their options */
  folders: FoldersStore;
  /** what each watched folder is doing, its counts and recent files */
  folderStatus: FolderStatusStore;
  queue: QueueStore;
  queueStatus: QueueStatusStore;
  rateLimits: RateLimitsStore;
  settings: SettingsStore;
  updates: UpdatesStore;
  notifications: FeedStore<Notification>;
  conversions: FeedStore<ConversionFollow>;
  files: FileActions;
  imports: ImportActions;
  app: AppActions;
  /** Stops every store listening to the core: none changes any more. */
  dispose(): void;
}

/**
 * The stores over `bridge`, made once beside it (main.tsx): each subscribes
 * to its events now, and all read what they hold as soon as the connection
 * is open, and again each time it comes back. The Queue's first page is
 * asked for right after the accounts: it is what the window opens on.
 */
export function createStores(bridge: AppBridge): Stores {
  const stores = {
    accounts: new AccountsStore(bridge),
    folders: new FoldersStore(bridge),
    folderStatus: new FolderStatusStore(bridge),
    queue: new QueueStore(bridge),
    queueStatus: new QueueStatusStore(bridge),
    rateLimits: new RateLimitsStore(bridge),
    settings: new SettingsStore(bridge),
    updates: new UpdatesStore(bridge),
    notifications: new FeedStore<Notification>({
      read: () => bridge.invoke('notifications:list', {}),
      onAdded: (add) => bridge.on('notifications:added', add),
      key: (notification) => String(notification.id),
      limit: FEED_KEPT,
      clear: () => bridge.invoke('notifications:clear', {}),
    }),
    conversions: new FeedStore<ConversionFollow>({
      read: () => bridge.invoke('conversions:list', { limit: FEED_KEPT }),
      onAdded: (add) => bridge.on('conversions:changed', add),
      key: (follow) => `${follow.accountId}/${follow.fileId}`,
      limit: FEED_KEPT,
    }),
  };
  const load = () => {
    stores.accounts.load();
    stores.queue.reload();
    for (const store of [stores.queueStatus, stores.rateLimits, stores.settings, stores.updates]) store.load();
    stores.folders.load();
    stores.folderStatus.load();
    stores.notifications.load();
    stores.conversions.load();
  };
  const owned = new Disposables();
  for (const store of Object.values(stores)) owned.add(() => store.dispose());
  owned.add(bridge.onConnectionChange((state) => state === 'open' && load()));
  if (bridge.connection() === 'open') load();
  return {
    ...stores,
    files: new FileActions(bridge),
    imports: new ImportActions(bridge),
    app: new AppActions(bridge),
    dispose: () => owned.dispose(),
  };
}

const StoresContext = createContext<Stores | null>(null);
export const StoresProvider = StoresContext.Provider;

export function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores outside StoresProvider');
  return stores;
}
