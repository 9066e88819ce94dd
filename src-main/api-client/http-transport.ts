import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { message } from '../../src-shared/i18n/message.js';
import { ApiError, redact } from './api-error.js';
import type { HttpResult } from './request-scheduler.js';

export interface TransportTimeouts {
  /** TCP/TLS connect */
  connectMs: number;
  /** from the end of the request body to the response head (an upload's last chunk waits for assembly) */
  headersMs: number;
  /** between two pieces of the response body */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: TransportTimeouts = { connectMs: 10_000, headersMs: 60_000, bodyMs: 30_000 };

/** An answer larger than this is not an API answer; reading stops there. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export interface TransportRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | AsyncIterable<Uint8Array>;
  signal: AbortSignal;
  headersTimeoutMs?: number;
  onBytes?: () => void;
}

/** undici (about 1 MB of code) loads with the first request, not with every process that makes a client. */
let undici: Promise<typeof Undici.default> | undefined;
// `default` is undici's module.exports both in Node's loader and in a bundle's chunk (which exports nothing else)
const loadUndici = () => (undici ??= import('undici').then((module) => module.default));

/** A connection pool made at its first request (`get`); `close` closes it if it was. */
export interface LazyDispatcher {
  get(): Promise<Dispatcher>;
  close(): Promise<void>;
}

/**
 * One connection pool per account, so one account's stalled upload never holds
 * another's sockets; through an http(s) proxy when the settings name one.
 */
export function createDispatcher(
  timeouts: TransportTimeouts = DEFAULT_TIMEOUTS,
  proxyUrl?: string | null,
): LazyDispatcher {
  const options = {
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    keepAliveTimeout: 4_000,
  };
  let made: Promise<Dispatcher> | undefined;
  return {
    get: () =>
      (made ??= loadUndici().then(({ Agent, ProxyAgent }) =>
        proxyUrl ? new ProxyAgent({ ...options, uri: proxyUrl }) : new Agent(options),
      )),
    close: async () => {
      if (made) await (await made).close();
    },
  };
}

/**
 * Sends one HTTP request and reads the whole answer as JSON (null when the body
 * is not JSON). Never follows redirects (undici's dispatch does not): an API answer is
 * never a redirect, and following one would resend the token elsewhere. Every failure that got no
 * answer becomes an ApiError with `retryable` set; `secret` is cut out of every
 * message and body before anyone sees them.
 */
export async function sendHttp(
  dispatcher: LazyDispatcher,
  input: TransportRequest,
  secret: string,
): Promise<HttpResult> {
  const { errors } = await loadUndici();
  try {
    // a proxy address the pool refuses fails here, as any request would
    const agent = await dispatcher.get();
    const { status, headers, text } = await new Promise<Answer>((resolve, reject) => {
      const url = new URL(input.url);
      agent.dispatch(
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method: input.method,
          headers: input.headers,
          // undici takes an AsyncIterable body as it is (docs/api/Dispatcher.md) though its types leave it out;
          // wrapping it in Readable.from cost a stream layer per piece and about a fifth of the upload speed
          body: input.body as Dispatcher.DispatchOptions['body'],
          headersTimeout: input.headersTimeoutMs,
        },
        answerReader(input, resolve, reject),
      );
    });
    return { status, headers, body: parseJson(redact(text, secret)) };
  } catch (error) {
    throw toApiError(error, input.signal, secret, errors.UndiciError);
  }
}

interface Answer {
  status: number;
  headers: HttpResult['headers'];
  text: string;
}

/**
 * The answer read straight from undici's dispatch, the way its own
 * `request` reads it but without the response stream, the async resource
 * and the promises between the socket and this function: a quarter of
 * this function's CPU per small upload (0.089 to 0.068 ms, 3 % of the
 * daemon's per file). The signal aborts the request once it is on a
 * connection, as `request` does; an answer of more than MAX_RESPONSE_BYTES
 * is cut there (it is no API answer) and its connection closed.
 */
function answerReader(
  input: TransportRequest,
  resolve: (answer: Answer) => void,
  reject: (error: unknown) => void,
): Dispatcher.DispatchHandler {
  const { signal } = input;
  const pieces: Buffer[] = [];
  let size = 0;
  let answer: Omit<Answer, 'text'> | undefined;
  // the connection the request is on now: undici may send it again on another
  let current: Dispatcher.DispatchController | undefined;
  const abort = () => current?.abort(signal.reason as Error);
  const finish = () => {
    signal.removeEventListener('abort', abort);
    if (answer) resolve({ ...answer, text: Buffer.concat(pieces).toString('utf8') });
    else reject(new Error('The connection ended before an answer came.'));
  };
  return {
    onRequestStart(controller) {
      current = controller;
      if (signal.aborted) abort();
      // the same listener again is not added twice
      else signal.addEventListener('abort', abort, { once: true });
    },
    onResponseStart(_controller, statusCode, headers) {
      // an informational answer (100 Continue) comes before the real one
      if (statusCode >= 200) answer = { status: statusCode, headers };
    },
    onResponseData(controller, piece) {
      size += piece.length;
      input.onBytes?.();
      if (size <= MAX_RESPONSE_BYTES) return void pieces.push(piece);
      // what came so far is the answer (no JSON): the rest is not read
      finish();
      controller.abort(new Error('The answer is larger than any API answer.'));
    },
    onResponseEnd: finish,
    onResponseError(_controller, error) {
      signal.removeEventListener('abort', abort);
      reject(error);
    },
  };
}

function parseJson(text: string): unknown {
  if (text.length === 0) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

const TIMEOUT_ERRORS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function toApiError(
  error: unknown,
  signal: AbortSignal,
  secret: string,
  UndiciError: typeof Undici.default.errors.UndiciError,
): ApiError {
  if (error instanceof ApiError) return error;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof ApiError) return reason;
    return ApiError.said({
      status: null,
      code: 'ABORTED',
      text: message('core.errors.cancelled'),
      retryable: false,
      cause: error,
    });
  }
  const code = (error as { code?: string }).code ?? '';
  const detail = redact(error instanceof Error ? error.message : String(error), secret);
  if (TIMEOUT_ERRORS.has(code)) {
    return ApiError.said({
      status: null,
      code: 'TIMEOUT',
      text: message('core.errors.timeout', { detail }),
      retryable: true,
      cause: error,
    });
  }
  const known = error instanceof UndiciError || /^E[A-Z]+$/.test(code);
  return ApiError.said({
    status: null,
    code: 'NETWORK_ERROR',
    text: known
      ? message('core.errors.unreachable', { detail: code || detail })
      : message('core.errors.network', { detail }),
    retryable: true,
    cause: error,
  });
}
