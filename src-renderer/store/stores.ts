import { createContext, useContext } from 'react';
import type { Notification } from '../../src-shared/ipc/ipc-contract.js';
import type { ConversionFollow } from '../../src-shared/model/conversion-follow.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { FeedStore } from './feed-store.js';
import { FolderStatusStore } from './folder-status-store.js';
import { QueueStore } from './queue-store.js';
import { RateLimitsStore } from './rate-limits-store.js';
import { ReadStore } from './store.js';

/**
 * How many notifications and followed files the page keeps: as many
 * notifications as the core does; the Activity panel shows the latest
 * files, Imports finds its jobs' among them.
 */
const FEED_KEPT = 200;

/** What the views share, one store per domain, for the page's whole life. */
export interface Stores {
  accounts: ReadStore<'account:list'>;
  /** the watched folders and their options */
  folders: ReadStore<'folders:list'>;
  /** what each watched folder is doing, its counts and recent files */
  folderStatus: FolderStatusStore;
  queue: QueueStore;
  queueStatus: ReadStore<'uploads:status'>;
  rateLimits: RateLimitsStore;
  settings: ReadStore<'settings:get'>;
  updates: ReadStore<'app:updateStatus'>;
  notifications: FeedStore<Notification>;
  conversions: FeedStore<ConversionFollow>;
}

/**
 * The stores over `bridge`, made once beside it (main.tsx): each subscribes
 * to its events now, and all read what they hold as soon as the connection
 * is open, and again each time it comes back. The Queue's first page is
 * asked for right after the accounts: it is what the window opens on.
 */
export function createStores(bridge: AppBridge): Stores {
  const stores: Stores = {
    accounts: new ReadStore(bridge, 'account:list', {}, 'account:changed'),
    folders: new ReadStore(bridge, 'folders:list', {}, 'folders:changed'),
    folderStatus: new FolderStatusStore(bridge),
    queue: new QueueStore(bridge),
    queueStatus: new ReadStore(bridge, 'uploads:status', {}, 'uploads:statusChanged'),
    rateLimits: new RateLimitsStore(bridge),
    settings: new ReadStore(bridge, 'settings:get', {}),
    updates: new ReadStore(bridge, 'app:updateStatus', {}, 'app:updateChanged'),
    notifications: new FeedStore(
      () => bridge.invoke('notifications:list', {}),
      (notification) => String(notification.id),
      FEED_KEPT,
    ),
    conversions: new FeedStore(
      () => bridge.invoke('conversions:list', { limit: FEED_KEPT }),
      (follow) => `${follow.accountId}/${follow.fileId}`,
      FEED_KEPT,
    ),
  };
  bridge.on('notifications:added', (notification) => stores.notifications.add(notification));
  bridge.on('conversions:changed', (follow) => stores.conversions.add(follow));
  const load = () => {
    stores.accounts.load();
    stores.queue.reload();
    for (const store of [stores.queueStatus, stores.rateLimits, stores.settings, stores.updates]) store.load();
    stores.folders.load();
    stores.folderStatus.load();
    stores.notifications.load();
    stores.conversions.load();
  };
  bridge.onConnectionChange((state) => state === 'open' && load());
  if (bridge.connection() === 'open') load();
  return stores;
}

const StoresContext = createContext<Stores | null>(null);
export const StoresProvider = StoresContext.Provider;

export function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores outside StoresProvider');
  return stores;
}
