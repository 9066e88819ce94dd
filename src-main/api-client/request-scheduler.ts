import { englishText, message, type Message } from '../../src-shared/i18n/message.js';
import { systemClock, type Clock } from '../common/clock.js';
import { Emitter } from '../common/disposable.js';
import { ApiError, LooseErrorEnvelopeSchema } from './api-error.js';
import {
  INITIAL_BUDGET,
  backgroundReserve,
  earliestSend,
  exhaust,
  observe,
  readRateHeaders,
  roll,
  type RateBudget,
} from './rate-budget.js';
import { backoffDelay, isRetryableStatus, parseRetryAfter, type BackoffPolicy } from './retry-policy.js';

/** interactive UI reads > upload chunks > background polling */
export type Priority = 'interactive' | 'upload' | 'background';
const RANK: Record<Priority, number> = { interactive: 0, upload: 1, background: 2 };

/** What a transport returns: the status, the headers and the parsed JSON body (or null). */
export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface AttemptContext {
  signal: AbortSignal;
  /** called when request or response bytes move: the backoff starts over */
  onBytes(): void;
}

export interface SendOptions {
  /** false for a request that must not be blindly repeated once it may have reached the server */
  idempotent?: boolean;
  signal?: AbortSignal;
  /** a 403 for a missing permission stops the account's queue (uploads need the permission to go on) */
  blockOnDenied?: boolean;
}

export interface BlockReason {
  status: number;
  code: string;
  /** the server's message, or the app's English one when it gave none (then `text` says it as a catalog message) */
  message: string;
  requestId: string | null;
  text?: Message;
}

export interface SchedulerState {
  limit: number | null;
  remaining: number | null;
  /** milliseconds until the gate reopens after a 429 or a 503, 0 when open */
  gateOpensInMs: number;
  gateReason: 'rate-limited' | 'api-disabled' | null;
  /** set after a 401/403: uploads and polling wait until `unblock()` */
  blocked: BlockReason | null;
  queued: number;
  inFlight: number;
}

export interface SchedulerOptions {
  clock?: Clock;
  random?: () => number;
  /** attempts per request for network errors and 5xx before the caller sees the error */
  maxAttempts?: number;
  backoff?: BackoffPolicy;
  /** consecutive 429s one request may meet before it gives up */
  maxRateLimited?: number;
}

interface Pending {
  priority: Priority;
  seq: number;
  execute: (context: AttemptContext) => Promise<HttpResult>;
  idempotent: boolean;
  signal: AbortSignal | undefined;
  blockOnDenied: boolean;
  attempt: number;
  rateLimited: number;
  notBefore: number;
  resolve: (result: HttpResult) => void;
  reject: (error: unknown) => void;
}

const API_DISABLED_BACKOFF: BackoffPolicy = { baseMs: 5_000, capMs: 5 * 60_000 };
/** Added to Retry-After so that clients told the same second do not all come back at once. */
const RETRY_AFTER_JITTER_MS = 500;

/**
 * One request budget per account (docs/ARCHITECTURE.md, One request budget per account). Every API call of the account
 * goes through `send`, which decides when it may leave:
 * - paces by what `X-RateLimit-*` said is left, so 429 stays rare;
 * - after a 429 nothing leaves until `Retry-After` (+ jitter) has passed;
 * - after a 503 `API_DISABLED` uploads and polling wait with backoff (interactive calls fail at once);
 * - network errors and 5xx are retried with full-jitter backoff, reset when bytes move;
 * - 401/403 block the account until `unblock()`: uploads and polling waiting or
 *   sent meanwhile fail at once with that answer (their callers put the work
 *   back without using up retries); interactive calls still go, so a person can
 *   see the problem and try a new token.
 * Highest priority first, then first come. All waits run on the monotonic clock.
 */
export class RequestScheduler {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly maxAttempts: number;
  private readonly backoff: BackoffPolicy | undefined;
  private readonly maxRateLimited: number;
  private budget: RateBudget = INITIAL_BUDGET;
  private gateUntil = 0;
  private gateReason: SchedulerState['gateReason'] = null;
  private apiDisabledCount = 0;
  private blocked: BlockReason | null = null;
  private readonly queue: Pending[] = [];
  private inFlight = 0;
  private seq = 0;
  private wake: { at: number; cancel: AbortController } | null = null;
  private readonly stateEmitter = new Emitter<SchedulerState>();
  readonly onDidChangeState = this.stateEmitter.event;

  constructor(options: SchedulerOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.backoff = options.backoff;
    this.maxRateLimited = options.maxRateLimited ?? 10;
  }

  send(
    priority: Priority,
    execute: (context: AttemptContext) => Promise<HttpResult>,
    options: SendOptions = {},
  ): Promise<HttpResult> {
    return new Promise((resolveSend, rejectSend) => {
      // the listener goes once the request is settled: a worker's signal outlives hundreds of requests
      const onAbort = () => this.dropQueued(pending);
      const resolve = (result: HttpResult) => {
        options.signal?.removeEventListener('abort', onAbort);
        resolveSend(result);
      };
      const reject = (error: unknown) => {
        options.signal?.removeEventListener('abort', onAbort);
        rejectSend(error);
      };
      const pending: Pending = {
        priority,
        seq: this.seq++,
        execute,
        idempotent: options.idempotent ?? true,
        signal: options.signal,
        blockOnDenied: options.blockOnDenied ?? false,
        attempt: 0,
        rateLimited: 0,
        notBefore: 0,
        resolve,
        reject,
      };
      if (options.signal?.aborted) return reject(aborted());
      if (this.blocked && priority !== 'interactive') return reject(blockedError(this.blocked));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(pending);
      this.pump();
    });
  }

  /** A new token was set (or the person asked to try again): let uploads and polling go. */
  unblock(): void {
    if (!this.blocked) return;
    this.blocked = null;
    this.changed();
    this.pump();
  }

  /**
   * The network is probably back (the machine woke up, the OS went online):
   * requests waiting out a backoff go now. A Retry-After or an API switch is
   * the server's word and still holds.
   */
  retryNow(): void {
    const now = this.clock.monotonic();
    for (const pending of this.queue) pending.notBefore = Math.min(pending.notBefore, now);
    this.pump();
  }

  state(): SchedulerState {
    const now = this.clock.monotonic();
    return {
      limit: this.budget.limit,
      remaining: this.budget.remaining,
      gateOpensInMs: Math.max(0, Math.ceil(this.gateUntil - now)),
      gateReason: this.gateUntil > now ? this.gateReason : null,
      blocked: this.blocked,
      queued: this.queue.length,
      inFlight: this.inFlight,
    };
  }

  /** Rejects everything still waiting and stops the timer (app quit, account removed). */
  dispose(): void {
    this.wake?.cancel.abort();
    this.wake = null;
    for (const pending of this.queue.splice(0)) pending.reject(aborted());
    this.stateEmitter.dispose();
  }

  private pump(): void {
    for (;;) {
      const now = this.clock.monotonic();
      this.budget = roll(this.budget, now);
      if (this.queue.length === 0) return;
      const ready = this.queue.filter((p) => p.notBefore <= now);
      // an administrator's switch is not a rate limit: interactive calls still go and show the reason
      const gated = this.gateReason === 'api-disabled' && ready.some((p) => p.priority === 'interactive');
      const allowedAt = Math.max(gated ? 0 : this.gateUntil, earliestSend(this.budget, this.inFlight, now));
      // background polling never spends the last 10% of a window, and never passes any gate
      const backgroundAt = Math.max(
        this.gateUntil,
        earliestSend(this.budget, this.inFlight, now, backgroundReserve(this.budget)),
      );
      const sendable = ready.filter((p) =>
        p.priority === 'background'
          ? backgroundAt <= now
          : allowedAt <= now && (!gated || p.priority === 'interactive'),
      );
      if (sendable.length === 0) {
        const waiting = this.queue.filter((p) => !sendable.includes(p));
        const nextAt = Math.min(
          ...waiting.map((p) => Math.max(p.notBefore, p.priority === 'background' ? backgroundAt : allowedAt)),
        );
        this.wakeAt(Math.max(nextAt, now + (nextAt <= now ? 1 : 0)));
        return;
      }
      const next = sendable.reduce((best, p) =>
        RANK[p.priority] < RANK[best.priority] || (RANK[p.priority] === RANK[best.priority] && p.seq < best.seq)
          ? p
          : best,
      );
      this.queue.splice(this.queue.indexOf(next), 1);
      void this.dispatch(next);
    }
  }

  private wakeAt(at: number): void {
    if (this.wake && this.wake.at <= at) return;
    this.wake?.cancel.abort();
    const cancel = new AbortController();
    this.wake = { at, cancel };
    this.clock.sleep(at - this.clock.monotonic(), cancel.signal).then(
      () => {
        if (this.wake?.cancel === cancel) this.wake = null;
        this.pump();
      },
      () => undefined,
    );
  }

  private async dispatch(pending: Pending): Promise<void> {
    this.inFlight++;
    const epoch = this.budget.epoch;
    let bytesMoved = false;
    const attempt = new AbortController();
    const forward = () => attempt.abort(pending.signal?.reason);
    pending.signal?.addEventListener('abort', forward, { once: true });
    try {
      const result = await pending.execute({ signal: attempt.signal, onBytes: () => (bytesMoved = true) });
      this.budget = observe(this.budget, readRateHeaders(result.headers), this.clock.monotonic(), epoch);
      this.settle(pending, result, bytesMoved);
    } catch (error) {
      this.fail(pending, error, bytesMoved);
    } finally {
      pending.signal?.removeEventListener('abort', forward);
      this.inFlight--;
      this.changed();
      this.pump();
    }
  }

  private settle(pending: Pending, result: HttpResult, bytesMoved: boolean): void {
    const now = this.clock.monotonic();
    // a success carries no error code: not looked for in every answer
    const code = result.status >= 400 ? errorCode(result.body) : undefined;
    if (result.status === 429) {
      const waitMs = parseRetryAfter(firstHeader(result.headers['retry-after']), this.clock.wall());
      this.closeGate(now + waitMs + this.random() * RETRY_AFTER_JITTER_MS, 'rate-limited');
      this.budget = exhaust(this.budget, this.gateUntil);
      if (++pending.rateLimited <= this.maxRateLimited) return this.requeue(pending, 0);
      return pending.resolve(result);
    }
    if (result.status === 503 && code === 'API_DISABLED') {
      // a person waiting on the screen is told at once; uploads and polling wait it out
      if (pending.priority === 'interactive') return pending.resolve(result);
      const hinted = firstHeader(result.headers['retry-after']);
      const waitMs =
        hinted === undefined
          ? backoffDelay(this.apiDisabledCount++, 0.5 + this.random() / 2, API_DISABLED_BACKOFF)
          : parseRetryAfter(hinted, this.clock.wall());
      this.closeGate(now + waitMs, 'api-disabled');
      return this.requeue(pending, 0);
    }
    if (result.status !== 503) this.apiDisabledCount = 0;
    if ((result.status === 401 || result.status === 403) && blocksQueue(code, pending)) {
      const said = errorMessage(result.body);
      const text = said === undefined ? message('core.errors.tokenRefused', { status: result.status }) : undefined;
      this.blocked = {
        status: result.status,
        code: code ?? 'UNAUTHENTICATED',
        message: said ?? englishText(text!),
        requestId: requestIdOf(result.body),
        ...(text ? { text } : {}),
      };
      // what waits behind it would be refused the same way: hand it back to its callers now
      for (const waiting of this.queue.filter((p) => p.priority !== 'interactive')) {
        this.queue.splice(this.queue.indexOf(waiting), 1);
        waiting.reject(blockedError(this.blocked));
      }
      return pending.resolve(result);
    }
    if (isRetryableStatus(result.status) && pending.idempotent && this.canRetry(pending, bytesMoved)) {
      return this.requeue(pending, now + this.delayFor(pending));
    }
    pending.resolve(result);
  }

  private fail(pending: Pending, error: unknown, bytesMoved: boolean): void {
    if (pending.signal?.aborted) return pending.reject(aborted());
    if (!(error instanceof ApiError) || !error.retryable) return pending.reject(error);
    if (pending.idempotent && this.canRetry(pending, bytesMoved)) {
      return this.requeue(pending, this.clock.monotonic() + this.delayFor(pending));
    }
    pending.reject(
      pending.idempotent
        ? error
        : new ApiError({
            status: error.status,
            code: error.code,
            message: error.message,
            requestId: error.requestId,
            retryable: true,
            outcomeUnknown: true,
            cause: error.cause,
          }),
    );
  }

  private canRetry(pending: Pending, bytesMoved: boolean): boolean {
    // tus-js-client: progress since the last failure means the link works again, so start over
    pending.attempt = bytesMoved ? 1 : pending.attempt + 1;
    return pending.attempt < this.maxAttempts;
  }

  private delayFor(pending: Pending): number {
    return backoffDelay(pending.attempt - 1, this.random(), this.backoff);
  }

  private requeue(pending: Pending, notBefore: number): void {
    pending.notBefore = notBefore;
    this.queue.push(pending);
  }

  private closeGate(until: number, reason: 'rate-limited' | 'api-disabled'): void {
    if (until > this.gateUntil) {
      this.gateUntil = until;
      this.gateReason = reason;
    }
  }

  private dropQueued(pending: Pending): void {
    const index = this.queue.indexOf(pending);
    if (index === -1) return;
    this.queue.splice(index, 1);
    pending.reject(aborted());
    this.changed();
  }

  private changed(): void {
    this.stateEmitter.fire(this.state());
  }
}

/**
 * Which 401/403 answers stop the account's queue: every one that says the token
 * cannot be used now; a missing permission only for an upload itself (a token
 * without `remote:write` must not stop uploads because an import was refused).
 */
function blocksQueue(code: string | undefined, pending: Pending): boolean {
  return code !== 'TOKEN_ABILITY_DENIED' || pending.blockOnDenied;
}

function blockedError(reason: BlockReason): ApiError {
  return new ApiError({
    status: reason.status,
    code: reason.code,
    message: reason.message,
    requestId: reason.requestId,
    retryable: false,
    ...(reason.text ? { text: reason.text } : {}),
  });
}

function aborted(): ApiError {
  return ApiError.said({ status: null, code: 'ABORTED', text: message('core.errors.cancelled'), retryable: false });
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function errorCode(body: unknown): string | undefined {
  return LooseErrorEnvelopeSchema.safeParse(body).data?.error.code;
}

function errorMessage(body: unknown): string | undefined {
  return LooseErrorEnvelopeSchema.safeParse(body).data?.error.message;
}

function requestIdOf(body: unknown): string | null {
  return LooseErrorEnvelopeSchema.safeParse(body).data?.request_id ?? null;
}
