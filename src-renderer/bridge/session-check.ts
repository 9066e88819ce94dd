import { SESSION_PATH } from '../../src-shared/ipc/ws-paths.js';
import { sessionKeyHeader, type SessionKeyStore } from './session-key.js';

/** What the daemon says of the page's session: `unreachable` when it did not answer (stopped, restarting). */
export type SessionAnswer = 'valid' | 'refused' | 'unreachable';

/**
 * Asks the daemon whose socket is at `wsUrl` whether the page's key still
 * opens it (`GET /session`, the key in its header). A socket the daemon refused (401) looks to
 * a page like one that never reached it: this tells a key made anew with
 * `media-sync serve --new-key` (`refused`) from a daemon that is not up yet.
 */
export async function askSession(
  wsUrl: string,
  key: SessionKeyStore,
  fetchPage: typeof fetch = fetch,
): Promise<SessionAnswer> {
  try {
    const response = await fetchPage(new URL(SESSION_PATH, wsUrl.replace(/^ws/, 'http')), {
      cache: 'no-store',
      headers: sessionKeyHeader(key),
    });
    const body: unknown = response.ok ? await response.json() : null;
    const session = (body as { session?: unknown } | null)?.session;
    return session === 'valid' || session === 'refused' ? session : 'unreachable';
  } catch {
    return 'unreachable';
  }
}
