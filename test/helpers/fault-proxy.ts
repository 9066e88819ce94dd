import { randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_CODES, ERROR_STATUS } from '../../src-shared/api/index.js';

/**
 * An HTTP/1.1 proxy between a client under test and the reference server that
 * breaks chosen requests the way networks and gateways do (docs/ARCHITECTURE.md, Tests), so
 * integration tests exercise the client's retries against the real server
 * instead of a mock. Everything else passes through untouched: status,
 * headers and bodies, streamed both ways.
 */
export type Fault =
  /**
   * Forwards the head and the first `afterBytes` body bytes, then destroys the
   * client's socket and the upstream request, so both ends see a reset mid-body.
   * A body shorter than that is cut at its end, before any answer.
   */
  | { kind: 'reset-mid-body'; afterBytes: number }
  /** Reads the whole request, forwards nothing, closes the socket without an answer. */
  | { kind: 'close-before-response' }
  /**
   * Leaves the request unread for `ms`, then forwards it normally. `Infinity`
   * holds it until the client gives up or the proxy closes; a client that
   * gives up during the stall is never forwarded.
   */
  | { kind: 'stall'; ms: number }
  /**
   * Reads the whole request and answers it itself. The body defaults to the
   * API's error envelope with a code that fits the status; a string or Buffer
   * is sent as is, anything else as JSON. `headers` are added to (or replace)
   * `Content-Type` and `X-Request-ID`, e.g. `{ 'Retry-After': '2' }`.
   */
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  /**
   * Forwards the request, lets the server answer in full, then destroys the
   * client's socket instead of relaying that answer: the server did the work,
   * the client never hears of it.
   */
  | { kind: 'lose-response' }
  /**
   * Forwards the request, reads the server's JSON answer in full and relays
   * what `rewrite` makes of it (same status and headers, a new length): a
   * server that did the work but says something else about it.
   */
  | { kind: 'rewrite-response'; rewrite: (body: unknown) => unknown };

export type FaultKind = Fault['kind'];

/** What a rule's matcher sees of a request: its head only, never its body. */
export interface ProxiedRequestInfo {
  method: string;
  /** the path without its query string */
  path: string;
  /** the request target as sent: path and query */
  url: string;
  headers: IncomingHttpHeaders;
  /** 0-based count of the requests the proxy has seen before this one */
  index: number;
  /** 0-based count of the earlier requests to the same path (any method) */
  pathIndex: number;
}

export interface FaultRule {
  match: (request: ProxiedRequestInfo) => boolean;
  fault: Fault;
  /** how many matching requests get the fault; default 1, `Infinity` for all */
  times?: number;
}

export interface ProxiedRequest {
  method: string;
  path: string;
  /** `performance.now()` when the request head arrived */
  at: number;
  fault: FaultKind | null;
  /**
   * The status the server answered (pass-through, stall, lose-response: for that
   * one it is the answer the client lost) or the proxy made up (`status`); null
   * while none has come, and for good when the exchange was cut before one.
   */
  status: number | null;
  /** `performance.now()` when a made-up answer (`status` fault) was handed to the socket; null otherwise */
  answeredAt: number | null;
  /** `performance.now()` when the exchange ended, its answer relayed in full or its connection cut; null while it runs */
  endedAt: number | null;
}

export interface FaultProxy {
  /** `http://127.0.0.1:PORT`; a client's API base URL is this plus `/api/v1` */
  url: string;
  /** Rules are tried in the order they were added; the first one that matches and has uses left applies. */
  addRule(rule: FaultRule): void;
  /** Drops the rules not used up yet. */
  clearRules(): void;
  /** Cuts every connection both ways at once, as a network that drops does; the proxy goes on listening. */
  dropConnections(): void;
  /** Every request seen so far, oldest first; entries fill in their status as it comes. */
  readonly requests: ReadonlyArray<Readonly<ProxiedRequest>>;
  /** Closes the listener and every connection both ways, releasing stalled requests. */
  close(): Promise<void>;
}

/** A matcher for the `n`-th (0-based) request to `path`, counted by the proxy whatever rules matched before. */
export function nthRequestTo(path: string, n: number): FaultRule['match'] {
  return (request) => request.path === path && request.pathIndex === n;
}

/** A matcher for every request to `path`, optionally with one method only. */
export function requestsTo(path: string, method?: string): FaultRule['match'] {
  return (request) => request.path === path && (method === undefined || request.method === method);
}

// Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection and are not relayed;
// node:http frames each side's body itself.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

interface ActiveRule {
  rule: FaultRule;
  left: number;
}

/** Starts a fault proxy on 127.0.0.1 (a free port) in front of `upstream`, an origin like `http://127.0.0.1:PORT`. */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  if (target.protocol !== 'http:') throw new Error(`the fault proxy speaks plain HTTP only, not ${target.protocol}`);
  const agent = new http.Agent({ keepAlive: true });
  const rules: ActiveRule[] = [];
  const requests: ProxiedRequest[] = [];
  const perPath = new Map<string, number>();
  const inFlight = new Set<http.ClientRequest>();
  const stalls = new Set<NodeJS.Timeout>();
  let closing = false;

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const pathIndex = perPath.get(path) ?? 0;
    perPath.set(path, pathIndex + 1);
    const info: ProxiedRequestInfo = {
      method: req.method ?? 'GET',
      path,
      url,
      headers: req.headers,
      index: requests.length,
      pathIndex,
    };
    const fault = takeFault(rules, info);
    const entry: ProxiedRequest = {
      method: info.method,
      path,
      at: performance.now(),
      fault: fault?.kind ?? null,
      status: null,
      answeredAt: null,
      endedAt: null,
    };
    requests.push(entry);
    const ended = () => (entry.endedAt ??= performance.now());
    res.on('finish', ended);
    res.on('close', ended);
    // A client that gives up while its request is being forwarded takes the upstream request down with it.
    req.on('error', () => undefined);
    res.on('error', () => undefined);

    const forward = (options: ForwardOptions = {}) => {
      const upstreamReq = http.request({
        host: target.hostname,
        port: target.port,
        method: info.method,
        path: url,
        headers: withoutHopByHop(req.headers),
        agent,
      });
      inFlight.add(upstreamReq);
      upstreamReq.on('close', () => inFlight.delete(upstreamReq));
      relay(req, res, upstreamReq, entry, options);
    };

    switch (fault?.kind) {
      case undefined:
        return forward();
      case 'reset-mid-body':
        return forward({ resetAfterBytes: Math.max(0, fault.afterBytes) });
      case 'lose-response':
        return forward({ loseResponse: true });
      case 'rewrite-response':
        return forward({ rewrite: fault.rewrite });
      case 'close-before-response':
        return drain(req, () => req.socket.destroy());
      case 'status':
        return drain(req, () => answer(res, entry, fault));
      case 'stall': {
        if (fault.ms === Infinity) return;
        const timer = setTimeout(() => {
          stalls.delete(timer);
          if (!closing && !req.socket.destroyed) forward();
        }, fault.ms);
        stalls.add(timer);
        return;
      }
    }
  });
  // The client under test owns its timeouts; the proxy must not add its own.
  server.requestTimeout = 0;
  server.headersTimeout = 0;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    addRule(rule) {
      rules.push({ rule, left: rule.times ?? 1 });
    },
    clearRules() {
      rules.length = 0;
    },
    dropConnections() {
      server.closeAllConnections();
      for (const upstreamReq of inFlight) upstreamReq.destroy();
    },
    requests,
    async close() {
      closing = true;
      for (const timer of stalls) clearTimeout(timer);
      stalls.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const upstreamReq of inFlight) upstreamReq.destroy();
      agent.destroy();
      await closed;
    },
  };
}

function takeFault(rules: ActiveRule[], request: ProxiedRequestInfo): Fault | null {
  for (const active of rules) {
    if (active.left <= 0 || !active.rule.match(request)) continue;
    active.left -= 1;
    return active.rule.fault;
  }
  return null;
}

interface ForwardOptions {
  resetAfterBytes?: number;
  loseResponse?: boolean;
  rewrite?: (body: unknown) => unknown;
}

/** Streams the request up and the answer down, with backpressure both ways, applying a reset or a lost answer. */
function relay(
  req: IncomingMessage,
  res: ServerResponse,
  upstreamReq: http.ClientRequest,
  entry: ProxiedRequest,
  { resetAfterBytes, loseResponse = false, rewrite }: ForwardOptions,
): void {
  let answered = false;
  const resetBoth = () => {
    req.socket.destroy();
    upstreamReq.destroy();
  };
  res.on('close', () => {
    if (!res.writableFinished) upstreamReq.destroy();
  });

  upstreamReq.on('response', (upstreamRes) => {
    answered = true;
    if (resetAfterBytes !== undefined) {
      // The server answered before the cut (an early refusal): the reset still happens, unanswered.
      upstreamRes.resume();
      return resetBoth();
    }
    entry.status = upstreamRes.statusCode ?? null;
    if (loseResponse) {
      upstreamRes.resume();
      upstreamRes.on('end', () => req.socket.destroy());
      upstreamRes.on('error', () => req.socket.destroy());
      return;
    }
    if (rewrite) {
      const pieces: Buffer[] = [];
      upstreamRes.on('data', (piece: Buffer) => pieces.push(piece));
      upstreamRes.on('end', () => {
        const body = Buffer.from(JSON.stringify(rewrite(JSON.parse(Buffer.concat(pieces).toString('utf8')))));
        // name/value pairs: the old length goes, the new one is added
        const headers = relayedResponseHeaders(upstreamRes);
        const length = headers.findIndex((entry, i) => i % 2 === 0 && entry.toLowerCase() === 'content-length');
        if (length !== -1) headers.splice(length, 2);
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, [
          ...headers,
          'Content-Length',
          String(body.length),
        ]);
        res.end(body);
      });
      upstreamRes.on('error', () => req.socket.destroy());
      return;
    }
    res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, relayedResponseHeaders(upstreamRes));
    upstreamRes.pipe(res);
    upstreamRes.on('error', () => req.socket.destroy());
  });
  upstreamReq.on('error', () => {
    if (answered || resetAfterBytes !== undefined || res.headersSent || req.socket.destroyed) {
      req.socket.destroy();
      return;
    }
    // The server could not be reached or dropped the connection: what a gateway says then.
    answer(res, entry, { kind: 'status', status: 502 });
  });

  if (resetAfterBytes === undefined) {
    req.pipe(upstreamReq);
    return;
  }
  let sent = 0;
  const cut = (head: Buffer) => {
    req.pause();
    req.removeAllListeners('data');
    req.removeAllListeners('end');
    // The write callback runs once the bytes are handed to the upstream socket, so the server sees exactly them.
    upstreamReq.write(head, resetBoth);
  };
  if (resetAfterBytes === 0) return cut(Buffer.alloc(0));
  req.on('data', (chunk: Buffer) => {
    const room = resetAfterBytes - sent;
    if (chunk.length >= room) return cut(chunk.subarray(0, room));
    sent += chunk.length;
    if (!upstreamReq.write(chunk)) {
      req.pause();
      upstreamReq.once('drain', () => req.resume());
    }
  });
  req.on('end', () => cut(Buffer.alloc(0)));
}

/** Reads and discards the rest of the request body, then calls `then` if the client is still there. */
function drain(req: IncomingMessage, then: () => void): void {
  if (req.complete) {
    req.resume();
    return then();
  }
  req.on('end', then);
  req.resume();
}

function answer(res: ServerResponse, entry: ProxiedRequest, fault: Extract<Fault, { kind: 'status' }>): void {
  if (res.headersSent || res.destroyed) return;
  const requestId = randomUUID();
  let body: string | Buffer;
  let contentType: string;
  if (fault.body === undefined) {
    const code = ERROR_CODES.find((candidate) => ERROR_STATUS[candidate] === fault.status) ?? 'INTERNAL_ERROR';
    body = JSON.stringify({
      success: false,
      error: { code, message: `Fault proxy: HTTP ${fault.status}.` },
      request_id: requestId,
    });
    contentType = 'application/json; charset=utf-8';
  } else if (typeof fault.body === 'string' || Buffer.isBuffer(fault.body)) {
    body = fault.body;
    contentType = 'text/plain; charset=utf-8';
  } else {
    body = JSON.stringify(fault.body);
    contentType = 'application/json; charset=utf-8';
  }
  entry.status = fault.status;
  res.on('finish', () => (entry.answeredAt = performance.now()));
  res.writeHead(fault.status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    'X-Request-ID': requestId,
    ...fault.headers,
  });
  res.end(body);
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

/**
 * The upstream answer's headers as raw name/value pairs (case and repeats kept),
 * minus hop-by-hop ones; `Connection: close` is kept, since a server that closes
 * after an answer it sent early (an unread body) needs the client to do so too.
 */
function relayedResponseHeaders(upstreamRes: IncomingMessage): string[] {
  const raw = upstreamRes.rawHeaders;
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    const lower = name.toLowerCase();
    if (lower === 'connection' ? value.toLowerCase() !== 'close' : HOP_BY_HOP.has(lower)) continue;
    kept.push(name, value);
  }
  return kept;
}
