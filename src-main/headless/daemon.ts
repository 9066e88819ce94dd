import type { AppErrorCode } from '../../src-shared/ipc/app-error-codes.js';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { Transform, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { PLAN_FILE_SIZE_LIMIT_BYTES } from '../../src-shared/api/index.js';
import { formatGibibytes } from '../../src-shared/model/format.js';
import { contractClient, ContractError } from '../../src-shared/ipc/contract-client.js';
import type { IpcError, IpcResult, UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import {
  DROP_PATH,
  SESSION_HEADER,
  SESSION_KEY_PARAM,
  SESSION_PATH,
  SESSION_PROTOCOL_PREFIX,
  WS_PATH,
  WS_PROTOCOL,
  type WsEvent,
} from '../../src-shared/ipc/ws-protocol.js';
import type { Log, SecretSink } from '../common/file-log.js';
import type { Disposable } from '../common/disposable.js';
import { nodeCrypto } from '../common/lazy-builtins.js';
import type { ShutdownPort } from '../common/shutdown.js';
import type { AppCore } from '../core/app-core.js';
import { coreTransport } from '../core/core-transport.js';
import { answerFrame } from '../core/contract-frames.js';
import { capConnections, DEFAULT_CONNECTION_LIMITS, serverOptions, type ConnectionLimits } from './connection-guard.js';
import { acceptedHost, daemonHosts } from './daemon-hosts.js';

export interface DaemonOptions {
  core: AppCore;
  /** 0 for a free port */
  port: number;
  /** the built renderer (index.html and assets); a short page explains when it is missing */
  staticDir?: string;
  /** kept in the data folder by `media-sync serve` (session-key.ts); random when not given */
  sessionKey?: string;
  /**
   * where files dropped on the page in a browser are written before they are
   * queued (`POST /drop`); without it the page cannot upload dropped files
   */
  dropDir?: string;
  /** where the daemon's own failures go (a request it could not answer, a drop that broke off) */
  log?: Log;
  /** told the session key at start: it opens the app to whoever reads it */
  secrets?: SecretSink;
  /** the app's stop: the daemon closes in its `intake` phase, before the core */
  shutdown?: ShutdownPort;
  /** DEFAULT_CONNECTION_LIMITS unless given (tests make them small) */
  connectionLimits?: ConnectionLimits;
}

export interface Daemon {
  /** the address to open, with the session key */
  url: string;
  port: number;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** Where Vite puts the built UI's files, each named with its content's hash. */
const HASHED_ASSETS = '/assets/';

/** Content-Security-Policy of the page: its own scripts and styles, its own socket, nothing inline. */
const CSP =
  "default-src 'self'; connect-src 'self' ws://127.0.0.1:*; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const MISSING_UI = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Media Sync</title></head>
<body><main><h1>Media Sync is running</h1><p>The web UI has not been built in this checkout.
The daemon and its contract are up at <code>${WS_PATH}</code>.</p></main></body></html>`;

/** The answer to a request for another host: no detail, as it may come from a page of another site. */
const MISDIRECTED = 'Misdirected Request';

const NO_KEY = 'Open the address that media-sync serve printed (it carries the session key).';

/** The cookie in which versions before this one kept the session key itself. */
const OLD_SESSION_COOKIE = 'media_sync_session';

/**
 * The headless shell (docs/ARCHITECTURE.md, Why a headless mode): serves the UI and the ipc contract over
 * HTTP and a WebSocket on 127.0.0.1 only. Every request and socket is checked,
 * in this order:
 * - `Host` must be the daemon's own (`daemonHosts`), else 421 with no detail:
 *   a site that rebinds its name to 127.0.0.1 is refused (DNS rebinding);
 * - what acts (the socket, a dropped file) needs the random session key of
 *   the printed address, else 401: other users and web pages on this machine.
 *   The page takes `?key=` from its address once, keeps it in its origin's
 *   storage (the origin includes the port) and presents it itself: in the
 *   socket's handshake (a subprotocol, `sessionProtocols`) and in a header
 *   (SESSION_HEADER). No cookie carries it: a browser sends a cookie to
 *   every port of 127.0.0.1, whoever listens there. The page and its
 *   assets (the built UI, the same for everyone) need no key;
 * - for the socket and dropped files, an `Origin` other than the page's own
 *   (`http://` + the accepted host) is refused.
 * The socket carries JSON text frames of at most 1 MiB: a larger or broken
 * frame (invalid UTF-8, a protocol error) closes that socket, nothing else.
 * Connections are bounded (connection-guard.ts): headers must be in within
 * a few seconds, and a flood of connections pushes out only its own.
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const key = options.sessionKey ?? nodeCrypto().randomBytes(24).toString('base64url');
  const contract = contractClient(coreTransport(options.core));
  options.secrets?.addSecret(key);
  /** the open pages' sockets, each with the TCP socket under it */
  const sockets = new Map<WebSocket, Duplex>();
  let events: Disposable | undefined;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 1024 * 1024,
    // the page offers the key as a second subprotocol: the answer names the first, never the key
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  let origin = '';
  let hosts: ReadonlySet<string> = new Set();

  const limits = options.connectionLimits ?? DEFAULT_CONNECTION_LIMITS;
  const server = createServer(serverOptions(limits), (request, response) => {
    void serveHttp(request, response).catch((error: unknown) => {
      // the path only: the query may hold the session key
      const path = (request.url ?? '/').split('?')[0];
      options.log?.error(`The daemon could not answer ${request.method} ${path}.`, error);
      if (!response.headersSent) response.writeHead(500).end('Internal error');
    });
  });
  // connections that never finish a request must not take the daemon's descriptors (connection-guard.ts)
  capConnections(server, limits.maxConnections);

  async function serveHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const host = acceptedHost(request.headers.host, hosts);
    if (!host) {
      response.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' }).end(MISDIRECTED);
      return;
    }
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === SESSION_PATH) {
      answerSession(request, response, key);
      return;
    }
    const headers: Record<string, string> = {
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    };
    // the cookie of earlier versions held the key itself, sent to every port of the host: the browser forgets it
    if (hasCookie(request, OLD_SESSION_COOKIE)) {
      headers['Set-Cookie'] = `${OLD_SESSION_COOKIE}=; Max-Age=0; HttpOnly; SameSite=Strict; Path=/`;
    }
    if (url.pathname === DROP_PATH) {
      if (!presentsKey(request, key)) {
        response.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8' }).end(NO_KEY);
        return;
      }
      await receiveDrop(request, response, url, `http://${host}`, headers);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, headers).end();
      return;
    }
    const file = await readStatic(options.staticDir, url.pathname);
    if (file === 'undecodable') {
      response.writeHead(400, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end(BAD_ESCAPE);
      return;
    }
    if (file) {
      // built assets carry their content's hash in their name: a page opened again loads (and compiles) from cache
      if (url.pathname.startsWith(HASHED_ASSETS)) headers['Cache-Control'] = 'private, max-age=31536000, immutable';
      response.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file.path)] ?? 'application/octet-stream' });
      response.end(file.body);
      return;
    }
    response.writeHead(url.pathname === '/' ? 200 : 404, { ...headers, 'Content-Type': TYPES['.html']! });
    response.end(url.pathname === '/' ? MISSING_UI : 'Not found');
  }

  /**
   * A file dropped on the page: written under `dropDir/<random>/<name>`, then
   * queued like a path dropped on the desktop window. Only the page itself may
   * send one (same origin, with the session key); the name is reduced to a
   * plain file name, and the body may not exceed the account's plan limit.
   */
  async function receiveDrop(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    pageOrigin: string,
    headers: Record<string, string>,
  ): Promise<void> {
    const answer = (status: number, result: IpcResult<UploadItemView[]>) => {
      if (status >= 400) response.setHeader('Connection', 'close');
      response.writeHead(status, { ...headers, 'Content-Type': 'application/json' }).end(JSON.stringify(result));
    };
    const refuse = (status: number, code: AppErrorCode, message: string) =>
      answer(status, { ok: false, error: { code, message, requestId: null } satisfies IpcError });
    if (request.method !== 'POST') return refuse(405, 'METHOD_NOT_ALLOWED', 'Send the dropped file with POST.');
    // a page of another site must not upload through the person's browser
    if (request.headers.origin !== pageOrigin) {
      return refuse(403, 'FORBIDDEN', 'Only the Media Sync page may drop files.');
    }
    if (!options.dropDir) return refuse(503, 'UNAVAILABLE', 'Dropping files is not available here.');
    const name = safeFileName(url.searchParams.get('name') ?? '');
    if (!name) return refuse(400, 'VALIDATION_ERROR', 'The dropped file has no usable name.');
    const accountId = url.searchParams.get('account') ?? '';
    const account = (await contract.invoke('account:list', {})).find((candidate) => candidate.id === accountId);
    if (!account) return refuse(400, 'NOT_SIGNED_IN', 'Choose a signed-in account for the dropped file.');
    const limit = Math.min(PLAN_FILE_SIZE_LIMIT_BYTES[account.plan], MAX_DROP_BYTES);
    const tooLarge = `${name} is larger than the ${formatGibibytes(limit)} the account's plan allows for one file.`;
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return refuse(413, 'FILE_TOO_LARGE', tooLarge);

    const folder = join(options.dropDir, nodeCrypto().randomBytes(12).toString('hex'));
    const path = join(folder, name);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        callback(received > limit ? new DropTooLargeError() : null, chunk);
      },
    });
    try {
      await pipeline(request, counter, createWriteStream(path, { mode: 0o600 }));
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      if (error instanceof DropTooLargeError) return refuse(413, 'FILE_TOO_LARGE', tooLarge);
      options.log?.warn(`The file ${name} dropped on the page did not arrive completely: ${(error as Error).message}`);
      return refuse(400, 'DROP_FAILED', 'The dropped file did not arrive completely. Try again.');
    }
    if (received === 0) {
      await rm(folder, { recursive: true, force: true });
      return refuse(400, 'VALIDATION_ERROR', `${name} is empty: there is nothing to upload.`);
    }
    try {
      answer(200, { ok: true, value: await contract.invoke('uploads:addPaths', { accountId, paths: [path] }) });
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      if (!(error instanceof ContractError)) throw error;
      answer(400, { ok: false, error: error.toIpcError() });
    }
  }

  server.on('upgrade', (request, socket, head) => {
    // node:http hands the socket over without its error listener: a peer that resets it must not end the daemon
    socket.on('error', () => socket.destroy());
    const host = acceptedHost(request.headers.host, hosts);
    if (!host) {
      const body = MISDIRECTED;
      socket.end(
        `HTTP/1.1 421 Misdirected Request\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      return;
    }
    const url = new URL(request.url ?? '/', origin);
    // a page from another origin has no business with the socket; tools without a page send no Origin
    const sameOrigin = request.headers.origin === undefined || request.headers.origin === `http://${host}`;
    if (url.pathname !== WS_PATH || !sameOrigin || !presentsKey(request, key)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.set(ws, socket);
      // the core's events are heard while a page is open: with none, it builds none (app-core.ts)
      events ??= options.core.onDidEmit(({ name, payload }) => {
        const text = JSON.stringify({ event: name, payload } satisfies WsEvent);
        for (const [open, tcp] of sockets) {
          if (open.readyState !== open.OPEN) continue;
          // the events of one moment (a file done: its row, its link, its follow) leave in one write, not a
          // system call each: the socket is corked until the code that emitted them has run
          tcp.cork();
          process.nextTick(() => tcp.uncork());
          open.send(text);
        }
      });
      ws.on('close', () => {
        sockets.delete(ws);
        if (sockets.size > 0) return;
        events?.dispose();
        events = undefined;
      });
      // ws closes the socket itself (1009 too big, 1007 invalid UTF-8, 1002 protocol); without
      // a listener the 'error' it emits first would be thrown and end the whole daemon
      ws.on('error', (error) => options.log?.warn(`A page's socket was closed: ${error.message}`));
      ws.on('message', (data, isBinary) => {
        answer(ws, data, isBinary).catch((error: unknown) => {
          options.log?.error('The daemon could not answer a message on its socket.', error);
        });
      });
    });
  });

  async function answer(ws: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
    const reply = await answerFrame(options.core, isBinary ? null : rawText(data));
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // loopback only: the session key is the only other lock
      server.listen(options.port, '127.0.0.1', resolve);
    });
  } catch (error) {
    // the port is taken (or not ours to take): nothing of this daemon stays, and the caller may try another
    wss.close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  origin = `http://127.0.0.1:${port}`;
  hosts = daemonHosts(port);

  const daemon: Daemon = {
    url: `${origin}/?${SESSION_KEY_PARAM}=${key}`,
    port,
    async close() {
      events?.dispose();
      for (const ws of sockets.keys()) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  options.shutdown?.onWillShutdown('intake', (e) => e.join(daemon.close(), 'the daemon'));
  return daemon;
}

/** The cap of one dropped file whatever the plan: the largest plan's limit (15 GiB). */
const MAX_DROP_BYTES = Math.max(...Object.values(PLAN_FILE_SIZE_LIMIT_BYTES));

class DropTooLargeError extends Error {}

/**
 * A dropped file's name as a plain file name: the last part of any path, no
 * control characters (NUL included), not `.` or `..`, at most 255 bytes of
 * UTF-8 (the extension kept). Empty when nothing usable is left.
 */
export function safeFileName(given: string): string {
  const last = given.split(/[/\\]/).at(-1) ?? '';
  // eslint-disable-next-line no-control-regex
  let name = last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (name === '.' || name === '..' || /^\.+$/.test(name)) return '';
  const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
  if (bytes(name) > 255) {
    const extension = extname(name).length <= 16 ? extname(name) : '';
    let stem = name.slice(0, name.length - extension.length);
    while (bytes(stem + extension) > 255) stem = [...stem].slice(0, -1).join('');
    name = stem + extension;
  }
  return name;
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');
}

/**
 * `GET /session`: whether the key in the request's SESSION_HEADER opens the
 * daemon, so a page whose socket is refused can tell a new key (`--new-key`)
 * from a daemon that is down. The same status and headers either way, no
 * CORS, and `Cross-Origin-Resource-Policy: same-origin`: another origin gets
 * neither the body nor a status that differs. The `?key=` of an address is
 * not looked at.
 */
function answerSession(request: IncomingMessage, response: ServerResponse, key: string): void {
  const headers = {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, headers).end();
    return;
  }
  const session = presentsKey(request, key) ? 'valid' : 'refused';
  response.writeHead(200, headers).end(JSON.stringify({ session }));
}

/**
 * Whether the request presents the session key the way the page does: in
 * SESSION_HEADER, or for the socket in the subprotocol that carries it.
 * Nothing a browser adds by itself (a cookie, the address) counts.
 */
function presentsKey(request: IncomingMessage, key: string): boolean {
  const header = request.headers[SESSION_HEADER.toLowerCase()];
  const offered = (request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((protocol) => protocol.trim())
    .filter((protocol) => protocol.startsWith(SESSION_PROTOCOL_PREFIX))
    .map((protocol) => protocol.slice(SESSION_PROTOCOL_PREFIX.length));
  return [typeof header === 'string' ? header : null, ...offered].some(
    (candidate) => candidate !== null && safeEqual(candidate, key),
  );
}

function hasCookie(request: IncomingMessage, name: string): boolean {
  return (request.headers.cookie ?? '').split(';').some((piece) => piece.trim().startsWith(`${name}=`));
}

/** Whether two secrets are the same, in a time that does not tell how much of them is. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && nodeCrypto().timingSafeEqual(left, right);
}

const BAD_ESCAPE = 'The address has a broken percent escape: each % must start a %XX of UTF-8.';

/**
 * A file of the built UI, never outside its folder nor in a dot-folder; `/` is index.html.
 * `undecodable` for a broken percent escape (`/%`): the asker's mistake, not the daemon's.
 */
async function readStatic(
  dir: string | undefined,
  pathname: string,
): Promise<{ path: string; body: Buffer } | 'undecodable' | null> {
  if (!dir) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
  } catch {
    return 'undecodable';
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  const path = join(dir, relative);
  if (!path.startsWith(join(dir, sep)) && path !== dir) return null;
  if (relative.split(/[/\\]/).some((segment) => segment.startsWith('.'))) return null;
  try {
    return { path, body: await readFile(path) };
  } catch {
    return null;
  }
}
