import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Log } from '../common/file-log.js';
import type { DatabaseProblem } from '../storage/database-problem.js';
import { SESSION_KEY_PARAM } from '../../src-shared/ipc/ws-paths.js';
import { capConnections, DEFAULT_CONNECTION_LIMITS, serverOptions } from './connection-guard.js';
import { safeEqual } from './daemon.js';
import { acceptedHost, daemonHosts } from './daemon-hosts.js';

export interface RepairPageOptions {
  /** the port the app would have served on (the printed address stays the same) */
  port: number;
  sessionKey: string;
  problem: DatabaseProblem;
  /** sets the damaged database aside and starts a fresh one; answers the report to show */
  repair(): string;
  log?: Log;
}

export interface RepairPage {
  /** the address to open, with the session key */
  url: string;
  /** where it listens: the app takes the same port once repaired */
  port: number;
  /** true once the person repaired the database (the page then sends them on to the app) */
  done: Promise<boolean>;
  close(): Promise<void>;
}

const PATH = '/repair';

/**
 * What `media-sync serve` shows in place of the app when its database is
 * damaged: the problem in words, and a button that keeps the damaged file
 * aside and starts a fresh database (storage/database-repair.ts), only when
 * the person presses it. The same guards as the app's (daemon.ts): Host must
 * be the daemon's, the button's form carries the session key and must come
 * from the page's own origin. Without the key the page says only what to
 * open; plain HTML, no script.
 */
export async function serveRepairPage(options: RepairPageOptions): Promise<RepairPage> {
  let finish: (repaired: boolean) => void = () => undefined;
  const done = new Promise<boolean>((resolve) => (finish = resolve));
  let hosts: ReadonlySet<string> = new Set();
  const server = createServer(serverOptions(DEFAULT_CONNECTION_LIMITS), (request, response) => {
    answer(request, response).catch((error: unknown) => {
      options.log?.error('The repair page could not answer.', error);
      if (!response.headersSent) page(response, 500, '<p>Media Sync could not do it. Its log says why.</p>');
    });
  });
  capConnections(server, DEFAULT_CONNECTION_LIMITS.maxConnections);

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const host = acceptedHost(request.headers.host, hosts);
    if (!host) return void response.writeHead(421, { Connection: 'close' }).end('Misdirected Request');
    const url = new URL(request.url ?? '/', `http://${host}`);
    const { problem, sessionKey } = options;
    if (request.method === 'POST' && url.pathname === PATH) {
      // a page of another site cannot press the button for the person
      if (request.headers.origin !== `http://${host}`) return page(response, 403, '<p>Only this page may do that.</p>');
      const given = new URLSearchParams(await bodyText(request)).get(SESSION_KEY_PARAM) ?? '';
      if (!safeEqual(given, sessionKey)) return page(response, 401, OPEN_PRINTED);
      const report = options.repair();
      const app = `/?${SESSION_KEY_PARAM}=${sessionKey}`;
      page(
        response,
        200,
        `<p>${escapeHtml(report)}</p><p>Media Sync is starting: <a href="${app}">open it</a>.</p>`,
        `<meta http-equiv="refresh" content="3;url=${app}">`,
        'Media Sync has a fresh database',
      );
      // the app takes the port once this answer is out
      response.once('finish', () => finish(true));
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return page(response, 405, OPEN_PRINTED);
    const keyed = safeEqual(url.searchParams.get(SESSION_KEY_PARAM) ?? '', sessionKey);
    if (!keyed) return page(response, 503, `<p>Its database cannot be used.</p>${OPEN_PRINTED}`);
    page(
      response,
      503,
      `<p>${escapeHtml(problem.summary)}</p><p>${escapeHtml(problem.advice)}</p>` +
        `<form method="post" action="${PATH}"><input type="hidden" name="${SESSION_KEY_PARAM}" value="${sessionKey}">` +
        '<button type="submit">Keep a copy aside and start with a fresh database</button></form>' +
        '<p>Or stop media-sync serve (Ctrl+C) and run <code>media-sync repair</code>.</p>',
    );
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  hosts = daemonHosts(port);
  return {
    url: `http://127.0.0.1:${port}/?${SESSION_KEY_PARAM}=${options.sessionKey}`,
    port,
    done,
    async close() {
      finish(false);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const OPEN_PRINTED = '<p>Open the address that media-sync serve printed (it carries the session key).</p>';

function page(
  response: ServerResponse,
  status: number,
  body: string,
  head = '',
  title = 'Media Sync cannot start',
): void {
  response
    .writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    })
    .end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}<title>${title}</title></head>` +
        `<body><main><h1>${title}</h1>${body}</main></body></html>`,
    );
}

/** The form's body: a key and its name, a few dozen bytes; more is not the page's form. */
async function bodyText(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) {
    text += String(chunk);
    if (text.length > 1024) break;
  }
  return text;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
