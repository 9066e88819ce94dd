import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * A plain HTTP server on 127.0.0.1:0 for remote-import sources and traps. It
 * counts every TCP connection, so a test can prove that nothing connected.
 */
export interface LocalHttpServer {
  port: number;
  origin: string;
  connections: number;
  requests: string[];
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export async function startLocalHttpServer(): Promise<LocalHttpServer> {
  const routes = new Map<string, Handler>();
  const state = { connections: 0, requests: [] as string[] };
  const server = http.createServer((req, res) => {
    state.requests.push(req.url ?? '');
    const handler = routes.get((req.url ?? '').split('?')[0]!);
    if (handler) handler(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  server.on('connection', () => (state.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    get connections() {
      return state.connections;
    },
    get requests() {
      return state.requests;
    },
    route(path, handler) {
      routes.set(path, handler);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `check` every `intervalMs` (50) until it returns a value, or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
  what = 'condition',
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const maxAttempts = Math.ceil(timeoutMs / intervalMs) + 1;
  for (let attempt = 0; attempt < maxAttempts && Date.now() < deadline; attempt++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
