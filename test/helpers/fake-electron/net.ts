import { EventEmitter } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';

/** What `net.request` takes: a URL, or Electron's `ClientRequestConstructorOptions` (the parts listed below). */
export type NetRequestOptions =
  | string
  | {
      url?: string;
      method?: string;
      headers?: Record<string, string | string[]>;
      /** a Session; accepted and ignored (no cookies, cache or proxy here) */
      session?: unknown;
      partition?: string;
      protocol?: string;
      host?: string;
      hostname?: string;
      port?: number | string;
      path?: string;
      redirect?: 'follow' | 'error' | 'manual';
    };

/**
 * Electron's `net.request` for the fake Electron, over `node:http`/`node:https`,
 * with the semantics of Electron's `ClientRequest` and `IncomingMessage`
 * (electronjs.org/docs/api/client-request) that callers such as
 * electron-updater rely on:
 *
 * - Options as Electron parses them: a URL string or `url`, else `protocol`
 *   (default `http:`; only http and https), `host` or `hostname` and `port`,
 *   `path`, `method` (GET), `headers`, `redirect`.
 * - Nothing is sent before `end()`. Headers go through `setHeader`, whose
 *   names Electron validates; the ones Chromium forbids an app to set
 *   (`Host`, `Content-Length`, …) fail the request with
 *   `net::ERR_INVALID_ARGUMENT`, as in Electron (why electron-updater moves a
 *   `Host` header into the options).
 * - Failures are `Error('net::ERR_…')` with Chromium's names and no `code`
 *   (refused connection: `net::ERR_CONNECTION_REFUSED`), emitted as `error`
 *   on the request before a response, on the response after one; `close`
 *   follows. With the fake offline, every request fails with
 *   `net::ERR_INTERNET_DISCONNECTED`. There is no `socket` event and no
 *   timeout of its own.
 * - A 3xx with a Location emits `redirect` (status, method, URL, headers as
 *   arrays) and never `response`. `follow` (the default) then follows;
 *   `manual` follows only if `followRedirect()` was called synchronously in
 *   the handler, and fails with "Redirect was cancelled" otherwise (unless
 *   aborted); `error` fails. 303, and 301/302 after a POST, become GET; more
 *   than 20 redirects fail with `net::ERR_TOO_MANY_REDIRECTS`.
 * - `response` gives a Readable of Buffers with `statusCode`, `statusMessage`,
 *   `headers` (lower-case names, merged as Electron documents, which is
 *   Node's rule too), `rawHeaders` and `httpVersion`; any status, 4xx and
 *   5xx included, is a response. `abort()` emits `abort` (on the next tick,
 *   as Electron does), `aborted` on a response under way, then `close`.
 *
 * Not modelled: cookies, the HTTP cache, proxies and `login`, upload
 * progress, streamed (chunked) request bodies (`write` buffers until `end`),
 * and Chromium's transparent decompression of gzip/br bodies.
 */
export function netRequest(options: NetRequestOptions, context: { isOnline(): boolean }): FakeClientRequest {
  return new FakeClientRequest(options, context);
}

/** Headers Chromium refuses from an app (Electron's `setHeader` docs). */
const RESTRICTED_HEADERS = new Set([
  'content-length',
  'host',
  'trailer',
  'te',
  'upgrade',
  'cookie2',
  'keep-alive',
  'transfer-encoding',
]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;

/** Chromium's name for what Node reports (net/base/net_error_list.h). */
const NET_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'ERR_CONNECTION_REFUSED',
  ECONNRESET: 'ERR_CONNECTION_RESET',
  EPIPE: 'ERR_CONNECTION_RESET',
  ECONNABORTED: 'ERR_CONNECTION_ABORTED',
  ENOTFOUND: 'ERR_NAME_NOT_RESOLVED',
  EAI_AGAIN: 'ERR_NAME_NOT_RESOLVED',
  ETIMEDOUT: 'ERR_CONNECTION_TIMED_OUT',
  EHOSTUNREACH: 'ERR_ADDRESS_UNREACHABLE',
  ENETUNREACH: 'ERR_INTERNET_DISCONNECTED',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'ERR_CERT_AUTHORITY_INVALID',
  SELF_SIGNED_CERT_IN_CHAIN: 'ERR_CERT_AUTHORITY_INVALID',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'ERR_CERT_AUTHORITY_INVALID',
  CERT_HAS_EXPIRED: 'ERR_CERT_DATE_INVALID',
  ERR_TLS_CERT_ALTNAME_INVALID: 'ERR_CERT_COMMON_NAME_INVALID',
};

function netError(name: string): Error {
  return new Error(`net::${name}`);
}

function fromNodeError(error: unknown): Error {
  const code = (error as { code?: unknown } | null)?.code;
  return netError((typeof code === 'string' && NET_ERRORS[code]) || 'ERR_FAILED');
}

function requestUrl(options: NetRequestOptions): URL {
  if (typeof options === 'string') return new URL(options);
  if (options.url) return new URL(options.url);
  const protocol = options.protocol ?? 'http:';
  if (protocol !== 'http:' && protocol !== 'https:') throw new Error(`Protocol "${protocol}" not supported`);
  const path = options.path ?? '/';
  if (/\s/.test(path)) throw new TypeError('Request path contains unescaped characters');
  const host = options.host ?? `${options.hostname ?? 'localhost'}${options.port ? `:${options.port}` : ''}`;
  return new URL(`${protocol}//${host}${path}`);
}

export class FakeIncomingMessage extends Readable {
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly headers: Record<string, string | string[]>;
  readonly rawHeaders: string[];
  readonly httpVersion: string;
  readonly httpVersionMajor: number;
  readonly httpVersionMinor: number;

  constructor(private readonly source: http.IncomingMessage) {
    super();
    this.statusCode = source.statusCode ?? 0;
    this.statusMessage = source.statusMessage ?? '';
    this.headers = Object.fromEntries(
      Object.entries(source.headers).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined),
    );
    this.rawHeaders = [...source.rawHeaders];
    this.httpVersion = source.httpVersion;
    this.httpVersionMajor = source.httpVersionMajor;
    this.httpVersionMinor = source.httpVersionMinor;
  }

  override _read(): void {
    this.source.resume();
  }
}

export class FakeClientRequest extends EventEmitter {
  private url: URL;
  private method: string;
  private readonly redirectPolicy: 'follow' | 'error' | 'manual';
  private readonly headers = new Map<string, { name: string; value: string }>();
  private readonly body: Buffer[] = [];
  private started = false;
  private aborted = false;
  private closed = false;
  private redirects = 0;
  private current: http.ClientRequest | null = null;
  private response: FakeIncomingMessage | null = null;
  private followRedirectCallback: (() => void) | undefined;

  constructor(
    options: NetRequestOptions,
    private readonly context: { isOnline(): boolean },
  ) {
    super();
    this.url = requestUrl(options);
    const given = typeof options === 'string' ? {} : options;
    if (given.session !== undefined && (given.session === null || typeof given.session !== 'object')) {
      throw new TypeError('`session` should be an instance of the Session class');
    }
    this.method = (given.method ?? 'GET').toUpperCase();
    this.redirectPolicy = given.redirect ?? 'follow';
    for (const [name, value] of Object.entries(given.headers ?? {})) {
      this.setHeader(name, Array.isArray(value) ? value.join(', ') : value);
    }
  }

  setHeader(name: string, value: string): void {
    if (typeof name !== 'string') throw new TypeError('`name` should be a string in setHeader(name, value)');
    if (value == null) throw new Error(`\`value\` required in setHeader("${name}", value)`);
    if (this.started) throw new Error("Can't set headers after they are sent");
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new Error(`Invalid header name: '${name}'`);
    this.headers.set(name.toLowerCase(), { name, value: String(value) });
  }

  getHeader(name: string): string | undefined {
    return this.headers.get(name.toLowerCase())?.value;
  }

  removeHeader(name: string): void {
    if (this.started) throw new Error("Can't remove headers after they are sent");
    this.headers.delete(name.toLowerCase());
  }

  write(chunk: string | Buffer): boolean {
    if (this.started) throw new Error('Write after end');
    this.body.push(Buffer.from(chunk));
    return true;
  }

  end(chunk?: string | Buffer | (() => void), encoding?: string | (() => void), callback?: () => void): this {
    if (this.started) return this;
    if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) this.body.push(Buffer.from(chunk));
    this.started = true;
    const done = [chunk, encoding, callback].find((arg): arg is () => void => typeof arg === 'function');
    process.nextTick(() => {
      this.emit('finish');
      done?.();
      this.send();
    });
    return this;
  }

  followRedirect(): void {
    if (!this.followRedirectCallback) throw new Error('followRedirect() called, but was not waiting for a redirect');
    this.followRedirectCallback();
  }

  abort(): void {
    if (this.closed || this.aborted) return;
    this.aborted = true;
    this.current?.destroy();
    process.nextTick(() => {
      this.emit('abort');
      if (this.response && !this.response.readableEnded) {
        this.response.emit('aborted');
        this.response.destroy();
      }
      this.close();
    });
  }

  private send(): void {
    if (this.aborted || this.closed) return;
    if (!this.context.isOnline()) return this.fail(netError('ERR_INTERNET_DISCONNECTED'));
    if ([...this.headers.keys()].some((name) => RESTRICTED_HEADERS.has(name))) {
      return this.fail(netError('ERR_INVALID_ARGUMENT'));
    }
    const headers: http.OutgoingHttpHeaders = {};
    for (const { name, value } of this.headers.values()) headers[name] = value;
    const body = Buffer.concat(this.body);
    if (body.length > 0) headers['content-length'] = body.length;
    const transport = this.url.protocol === 'https:' ? https : http;
    const request = transport.request(this.url, { method: this.method, headers });
    this.current = request;
    request.on('response', (response) => this.onResponse(response));
    request.on('error', (error) => {
      if (request === this.current) this.fail(fromNodeError(error));
    });
    request.end(body);
  }

  private onResponse(source: http.IncomingMessage): void {
    if (this.aborted || this.closed) return void source.resume();
    const status = source.statusCode ?? 0;
    const location = source.headers.location;
    if (REDIRECTS.has(status) && location) {
      source.resume();
      return this.onRedirect(status, new URL(location, this.url), source.rawHeaders);
    }
    const response = new FakeIncomingMessage(source);
    this.response = response;
    source.on('data', (chunk: Buffer) => {
      if (!response.push(chunk)) source.pause();
    });
    source.on('end', () => response.push(null));
    // the connection went before the whole body came
    source.on('close', () => {
      if (!source.complete && !this.aborted) this.fail(netError('ERR_CONNECTION_RESET'));
    });
    response.on('end', () => this.close());
    this.emit('response', response);
  }

  private onRedirect(statusCode: number, target: URL, rawHeaders: string[]): void {
    if (this.redirectPolicy === 'error') {
      return this.fail(new Error("Attempted to redirect, but redirect policy was 'error'"));
    }
    if (++this.redirects > MAX_REDIRECTS) return this.fail(netError('ERR_TOO_MANY_REDIRECTS'));
    const method =
      (statusCode === 303 && this.method !== 'HEAD') ||
      ((statusCode === 301 || statusCode === 302) && this.method === 'POST')
        ? 'GET'
        : this.method;
    const headers: Record<string, string[]> = {};
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      (headers[rawHeaders[i]!.toLowerCase()] ??= []).push(rawHeaders[i + 1]!);
    }
    let follow = this.redirectPolicy === 'follow';
    this.followRedirectCallback = () => (follow = true);
    try {
      this.emit('redirect', statusCode, method, target.href, headers);
    } finally {
      this.followRedirectCallback = undefined;
    }
    if (this.aborted || this.closed) return;
    if (!follow) return this.fail(new Error('Redirect was cancelled'));
    if (method !== this.method) {
      this.body.length = 0;
      this.headers.delete('content-type');
    }
    this.method = method;
    this.url = target;
    this.send();
  }

  private fail(error: Error): void {
    if (this.closed) return;
    this.current?.destroy();
    this.current = null;
    const response = this.response;
    if (response && !response.readableEnded) response.destroy(error);
    else this.emit('error', error);
    this.close();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
  }
}
