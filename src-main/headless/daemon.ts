import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  SESSION_COOKIE,
  SESSION_KEY_PARAM,
  WS_PATH,
  WsInvokeSchema,
  type WsEvent,
  type WsResult,
} from '../../src-shared/ipc/ws-protocol.js';
import type { AppCore } from '../core/app-core.js';

export interface DaemonOptions {
  core: AppCore;
  /** 0 for a free port */
  port: number;
  /** the built renderer (index.html and assets); a short page explains when it is missing */
  staticDir?: string;
  /** fixed in tests; random otherwise */
  sessionKey?: string;
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

/** Content-Security-Policy of the page: its own scripts and styles, its own socket, nothing inline. */
const CSP =
  "default-src 'self'; connect-src 'self' ws://127.0.0.1:*; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const MISSING_UI = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Media Sync</title></head>
<body><main><h1>Media Sync is running</h1><p>The web UI has not been built in this checkout.
The daemon and its contract are up at <code>${WS_PATH}</code>.</p></main></body></html>`;

/**
 * The headless shell (DESIGN.md §2): serves the UI and the ipc contract over
 * HTTP and a WebSocket on 127.0.0.1 only. A random session key, given in the
 * printed URL, is checked on every request and socket: other users and web
 * pages on this machine get 401. The page loaded with `?key=` gets it as a
 * strict, HttpOnly cookie, so links inside the UI need not carry it.
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const key = options.sessionKey ?? randomBytes(24).toString('base64url');
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  let origin = '';

  const server = createServer((request, response) => {
    void serveHttp(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end('Internal error');
    });
  });

  async function serveHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    const given = url.searchParams.get(SESSION_KEY_PARAM);
    if (!hasKey(request, given, key)) {
      response
        .writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Open the address that media-sync serve printed (it carries the session key).');
      return;
    }
    const headers: Record<string, string> = {
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    };
    if (given) headers['Set-Cookie'] = `${SESSION_COOKIE}=${key}; HttpOnly; SameSite=Strict; Path=/`;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, headers).end();
      return;
    }
    const file = await readStatic(options.staticDir, url.pathname);
    if (file) {
      response.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file.path)] ?? 'application/octet-stream' });
      response.end(file.body);
      return;
    }
    response.writeHead(url.pathname === '/' ? 200 : 404, { ...headers, 'Content-Type': TYPES['.html']! });
    response.end(url.pathname === '/' ? MISSING_UI : 'Not found');
  }

  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', origin);
    // a page from another origin must not drive the app through the user's cookie
    const sameOrigin = request.headers.origin === undefined || request.headers.origin === origin;
    if (url.pathname !== WS_PATH || !sameOrigin || !hasKey(request, url.searchParams.get(SESSION_KEY_PARAM), key)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('message', (data) => void answer(ws, data.toString()));
    });
  });

  async function answer(ws: WebSocket, text: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      message = undefined;
    }
    const invoke = WsInvokeSchema.safeParse(message);
    const reply: WsResult = invoke.success
      ? { id: invoke.data.id, result: await options.core.handle(invoke.data.name, invoke.data.request) }
      : {
          id: null,
          result: {
            ok: false,
            error: {
              code: 'VALIDATION_ERROR',
              message: 'Not a command: expected {id, name, request}.',
              requestId: null,
            },
          },
        };
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
  }

  const subscription = options.core.onDidEmit(({ name, payload }) => {
    const text = JSON.stringify({ event: name, payload } satisfies WsEvent);
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // loopback only: the session key is the only other lock
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?${SESSION_KEY_PARAM}=${key}`,
    port,
    async close() {
      subscription.dispose();
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function hasKey(request: IncomingMessage, given: string | null, key: string): boolean {
  const cookie = (request.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SESSION_COOKIE}=`))
    ?.slice(SESSION_COOKIE.length + 1);
  return [given, cookie].some((candidate) => candidate != null && safeEqual(candidate, key));
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A file of the built UI, never outside its folder; `/` is index.html. */
async function readStatic(dir: string | undefined, pathname: string): Promise<{ path: string; body: Buffer } | null> {
  if (!dir) return null;
  const relative = normalize(decodeURIComponent(pathname === '/' ? '/index.html' : pathname)).replace(/^([/\\])+/, '');
  const path = join(dir, relative);
  if (!path.startsWith(join(dir, sep)) && path !== dir) return null;
  try {
    return { path, body: await readFile(path) };
  } catch {
    return null;
  }
}
