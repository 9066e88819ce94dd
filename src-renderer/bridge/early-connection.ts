import { WS_PATH } from '../../src-shared/ipc/ws-paths.js';
import { viewFromHash } from '../model/routes.js';
import { earlyRequestsFor, type EarlyRequest } from './early-requests.js';

/** What the bridge needs of a WebSocket (tests script one). */
export type SocketLike = Pick<WebSocket, 'send' | 'close' | 'readyState'> & {
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
};

/**
 * The daemon's socket as the page's first script left it: open (or opening)
 * before the app's bundle has even been parsed, with the start view's reads
 * already sent, so their answers travel while the bundle loads.
 */
export interface EarlyConnection {
  socket: SocketLike;
  /** what was sent once the socket opened, with ids 1, 2, … */
  sent: Array<EarlyRequest & { id: number }>;
  /** every message received before the app took the socket, as text, in order */
  received: string[];
}

interface EarlyScope {
  location: Pick<Location, 'protocol' | 'host' | 'hash'>;
  mediaSync?: unknown;
  /** the connection until the app takes it, then 'taken' */
  __mediaSyncEarlyConnection?: EarlyConnection | 'taken';
}

/** The daemon's socket address for a page served by it. */
export function wsUrlFor(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WS_PATH}`;
}

/**
 * Run by the page's first script (early-connect.ts), which imports nothing
 * else: opens the socket and, once open, sends the start view's reads. Only
 * in a page the daemon served (Electron's window talks over its preload), and
 * only while the app has not started: the two scripts load side by side and
 * either may run first; once the app runs, it has opened a socket of its own.
 */
export function openEarlyConnection(
  scope: EarlyScope,
  createSocket: (url: string) => SocketLike = (url) => new WebSocket(url),
): void {
  if (scope.mediaSync !== undefined || !scope.location.protocol.startsWith('http')) return;
  if (scope.__mediaSyncEarlyConnection !== undefined) return;
  const socket = createSocket(wsUrlFor(scope.location));
  const early: EarlyConnection = { socket, sent: [], received: [] };
  socket.onmessage = (event) => early.received.push(String(event.data));
  socket.onopen = () => {
    for (const request of earlyRequestsFor(viewFromHash(scope.location.hash))) {
      const id = early.sent.length + 1;
      socket.send(JSON.stringify({ id, name: request.name, request: request.request }));
      early.sent.push({ id, ...request });
    }
  };
  scope.__mediaSyncEarlyConnection = early;
}

/** The early connection, once: the bridge that takes it owns the socket from then on. */
export function takeEarlyConnection(scope: EarlyScope): EarlyConnection | null {
  const early = scope.__mediaSyncEarlyConnection;
  scope.__mediaSyncEarlyConnection = 'taken';
  return early === undefined || early === 'taken' ? null : early;
}
