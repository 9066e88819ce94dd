import { ApiError } from '../../src-main/api-client/api-error.js';
import {
  RequestScheduler,
  type AttemptContext,
  type HttpResult,
  type Priority,
  type SchedulerOptions,
  type SendOptions,
} from '../../src-main/api-client/request-scheduler.js';
import { FakeClock } from './fake-clock.js';

/** Scripted servers and a scheduler on a fake clock, for the RequestScheduler's tests. */

export const OK: HttpResult = { status: 200, headers: {}, body: { success: true, data: {} } };

export function errorBody(code: string, message: string, requestId: string): unknown {
  return { success: false, error: { code, message }, request_id: requestId };
}

export const networkError = () => new ApiError({ status: null, code: 'NETWORK_ERROR', message: 'x', retryable: true });

/** One step of a scripted server: an answer, an error to throw, or a function of the attempt. */
export type Step = HttpResult | ApiError | ((context: AttemptContext) => HttpResult | ApiError);

/** An `execute` that plays `steps` in order (then `OK`) and notes the fake time of every call. */
export class Script {
  readonly calls: number[] = [];
  private readonly steps: Step[];

  constructor(
    private readonly clock: FakeClock,
    steps: Step[],
  ) {
    this.steps = [...steps];
  }

  readonly execute = async (context: AttemptContext): Promise<HttpResult> => {
    this.calls.push(this.clock.monotonic());
    const step = this.steps.shift() ?? OK;
    const answer = typeof step === 'function' ? step(context) : step;
    if (answer instanceof ApiError) throw answer;
    return answer;
  };
}

/** Watches a promise without letting a rejection go unhandled. */
export function track<T>(promise: Promise<T>): { settled: boolean; value: T | undefined; error: unknown } {
  const tracked = { settled: false, value: undefined as T | undefined, error: undefined as unknown };
  promise.then(
    (value) => Object.assign(tracked, { settled: true, value }),
    (error: unknown) => Object.assign(tracked, { settled: true, error }),
  );
  return tracked;
}

export function setup(options: SchedulerOptions = {}) {
  const clock = new FakeClock();
  const scheduler = new RequestScheduler({ clock, random: () => 0.5, ...options });
  /** Every execute of `labelled` writes `label@time` here, in call order. */
  const log: string[] = [];
  const labelled = (label: string) => async (): Promise<HttpResult> => {
    log.push(`${label}@${clock.monotonic()}`);
    return OK;
  };
  const send = (priority: Priority, execute: (context: AttemptContext) => Promise<HttpResult>, opts?: SendOptions) =>
    track(scheduler.send(priority, execute, opts));
  return { clock, scheduler, log, labelled, send };
}

/** A server with a fixed window that starts at the first request after the previous one ended. */
export function rateLimitedServer(clock: FakeClock, limit: number, windowMs: number) {
  let windowStart = Number.NEGATIVE_INFINITY;
  let used = 0;
  const calls: number[] = [];
  const statuses: number[] = [];
  const execute = async (): Promise<HttpResult> => {
    const now = clock.monotonic();
    calls.push(now);
    if (now >= windowStart + windowMs) {
      windowStart = now;
      used = 0;
    }
    used++;
    const resetAfter = String((windowStart + windowMs - now) / 1000);
    const status = used > limit ? 429 : 200;
    statuses.push(status);
    return {
      status,
      headers: {
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(Math.max(0, limit - used)),
        'x-ratelimit-reset-after': resetAfter,
        ...(status === 429 ? { 'retry-after': String(Math.ceil(Number(resetAfter))) } : {}),
      },
      body: status === 429 ? errorBody('RATE_LIMITED', 'Too many requests.', `req-${calls.length}`) : OK.body,
    };
  };
  return { execute, calls, statuses };
}
