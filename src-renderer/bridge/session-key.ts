import { SESSION_HEADER, SESSION_KEY_PARAM } from '../../src-shared/ipc/ws-paths.js';

/** Where the page keeps the daemon's session key in its origin's localStorage. */
const STORAGE_NAME = 'media-sync.session-key';

/** The session key of the daemon that served the page, as the page keeps it. */
export interface SessionKeyStore {
  get(): string | null;
  set(key: string): void;
}

/**
 * The key in the origin's localStorage: the origin is `http://127.0.0.1:PORT`,
 * so no other port (another daemon, or whoever listens there) can read it, and
 * unlike a cookie the browser sends it nowhere by itself. Every tab of the
 * origin shares it: the new address opened in one tab after `--new-key` lets
 * the others in again, and a reload keeps it. Where the browser refuses
 * storage, the key lives as long as the page.
 */
export function storedSessionKey(
  storage: () => Pick<Storage, 'getItem' | 'setItem'> = () => localStorage,
): SessionKeyStore {
  let kept: string | null = null;
  return {
    get() {
      try {
        return storage().getItem(STORAGE_NAME) ?? kept;
      } catch {
        return kept;
      }
    },
    set(key) {
      kept = key;
      try {
        storage().setItem(STORAGE_NAME, key);
      } catch {
        // storage turned off: the page keeps the key in memory
      }
    },
  };
}

/** The page's own store (main.tsx fills it; the bridge and dropped files read it). */
export const pageSessionKey = storedSessionKey();

/**
 * Moves the key of the address `media-sync serve` printed (`?key=`) into the
 * store, and takes it out of the address bar and the tab's history.
 */
export function takeKeyFromAddress(
  store: SessionKeyStore,
  location: Pick<Location, 'href'>,
  history: Pick<History, 'replaceState'>,
): void {
  const url = new URL(location.href);
  const key = url.searchParams.get(SESSION_KEY_PARAM);
  if (key === null) return;
  if (key) store.set(key);
  url.searchParams.delete(SESSION_KEY_PARAM);
  history.replaceState(null, '', url.pathname + url.search + url.hash);
}

/** The header that presents the key with a request of the page's own (a dropped file, the session question). */
export function sessionKeyHeader(store: SessionKeyStore = pageSessionKey): Record<string, string> {
  const key = store.get();
  return key ? { [SESSION_HEADER]: key } : {};
}
