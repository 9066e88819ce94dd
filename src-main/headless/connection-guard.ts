import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';

/** How the daemon bounds its connections (tests make them small). */
export interface ConnectionLimits {
  /** a connection whose request headers are not all in by then is answered 408 and closed */
  headersTimeoutMs: number;
  /** connections open at once; one more closes the one idle longest */
  maxConnections: number;
}

/**
 * A page needs a handful of connections (its socket, its assets, a dropped
 * file or two) and sends whole requests at once: 5 s for the headers and 256
 * connections leave a person's browser, the CLI and the tests room to spare.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { headersTimeoutMs: 5_000, maxConnections: 256 };

/**
 * The http.Server options of the limits: Node checks the headers' deadline
 * every `connectionsCheckingInterval` (30 s unless told), and its
 * `requestTimeout` (5 min) would cut a large dropped file off mid-body, so it
 * is off: a body is read only once the session key was presented.
 */
export function serverOptions(limits: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: 0,
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, limits.headersTimeoutMs / 5)),
  };
}

/**
 * Keeps `server` at `maxConnections` without refusing the one that matters:
 * a local process that opens thousands of connections and never finishes a
 * request would otherwise take the daemon to its descriptor limit, and
 * refusing new connections at a cap (`server.maxConnections`) would refuse
 * the person's own page too. So each connection over the cap closes the one
 * idle longest instead: no request in progress (never one yet, or a
 * keep-alive between two), not the page's socket. A flood then only ever
 * pushes out its own connections, while a request that comes whole is
 * answered at once.
 */
export function capConnections(server: Server, maxConnections: number): void {
  const open = new Set<Socket>();
  // oldest first: a Set keeps the order of insertion, and a socket that goes idle again is added anew
  const idle = new Set<Socket>();
  const busy = (socket: Socket) => idle.delete(socket);
  const forget = (socket: Socket) => {
    open.delete(socket);
    idle.delete(socket);
  };
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    idle.add(socket);
    socket.once('close', () => forget(socket));
    const oldest = open.size > maxConnections ? idle.values().next().value : undefined;
    if (oldest) {
      // counted out at once: its 'close' comes later, and the next connection must not pick it again
      forget(oldest);
      oldest.destroy();
    }
  });
  server.on('request', (request, response) => {
    const socket = request.socket as Socket;
    busy(socket);
    response.once('close', () => {
      if (!socket.destroyed) idle.add(socket);
    });
  });
  // a socket the daemon refuses is closed at once; one it takes is the page's for as long as it is open
  server.on('upgrade', (request) => busy(request.socket as Socket));
}
