import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/api-client/api-error.js';
import { WINDOW_MARGIN_MS } from '../../../src-main/api-client/rate-budget.js';
import {
  RequestScheduler,
  type AttemptContext,
  type HttpResult,
  type Priority,
  type SchedulerOptions,
  type SendOptions,
} from '../../../src-main/api-client/request-scheduler.js';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';

const OK: HttpResult = { status: 200, headers: {}, body: { success: true, data: {} } };

function errorBody(code: string, message: string, requestId: string): unknown {
  return { success: false, error: { code, message }, request_id: requestId };
}

const networkError = () => new ApiError({ status: null, code: 'NETWORK_ERROR', message: 'x', retryable: true });

/** One step of a scripted server: an answer, an error to throw, or a function of the attempt. */
type Step = HttpResult | ApiError | ((context: AttemptContext) => HttpResult | ApiError);

/** An `execute` that plays `steps` in order (then `OK`) and notes the fake time of every call. */
class Script {
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
function track<T>(promise: Promise<T>): { settled: boolean; value: T | undefined; error: unknown } {
  const tracked = { settled: false, value: undefined as T | undefined, error: undefined as unknown };
  promise.then(
    (value) => Object.assign(tracked, { settled: true, value }),
    (error: unknown) => Object.assign(tracked, { settled: true, error }),
  );
  return tracked;
}

function setup(options: SchedulerOptions = {}) {
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
function rateLimitedServer(clock: FakeClock, limit: number, windowMs: number) {
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

describe('RequestScheduler pacing', () => {
  it('holds the 4th request of a 3-request window until the window ends', async () => {
    const { clock, scheduler } = setup();
    const server = rateLimitedServer(clock, 3, 2_000);
    const run = (async () => {
      for (let i = 0; i < 4; i++) await scheduler.send('upload', server.execute);
    })();
    await clock.advance(5_000);
    await run;
    expect(server.calls).toEqual([0, 0, 0, 2_000 + WINDOW_MARGIN_MS]);
    expect(server.statuses).toEqual([200, 200, 200, 200]);
  });

  it('counts requests in flight, so a burst after the first answer never meets a 429', async () => {
    const { clock, scheduler, send } = setup();
    const server = rateLimitedServer(clock, 3, 2_000);
    await scheduler.send('upload', server.execute);
    const burst = [1, 2, 3, 4, 5].map(() => send('upload', server.execute));
    await flushMicrotasks();
    expect(scheduler.state()).toEqual({
      limit: 3,
      remaining: 0,
      gateOpensInMs: 0,
      gateReason: null,
      blocked: null,
      queued: 3,
      inFlight: 0,
    });
    await clock.advance(5_000);
    expect(server.calls).toEqual([0, 0, 0, ...Array(3).fill(2_000 + WINDOW_MARGIN_MS)]);
    expect(server.statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect(burst.map((request) => request.value?.status)).toEqual([200, 200, 200, 200, 200]);
  });
});

describe('RequestScheduler background requests', () => {
  it('never spend the last 10% of a window: they wait for the next one while uploads still go', async () => {
    const { clock, scheduler, send } = setup();
    const server = rateLimitedServer(clock, 10, 2_000);
    for (let i = 0; i < 9; i++) await scheduler.send('upload', server.execute);
    const poll = send('background', server.execute);
    await flushMicrotasks();
    expect(poll.settled).toBe(false);
    const upload = send('upload', server.execute);
    await flushMicrotasks();
    expect(upload.value?.status).toBe(200);
    await clock.advance(5_000);
    expect(poll.value?.status).toBe(200);
    expect(server.calls).toEqual([...Array(10).fill(0), 2_000 + WINDOW_MARGIN_MS]);
  });

  it('still get one request of a window too small to keep 10% of', async () => {
    const { clock, scheduler } = setup();
    const server = rateLimitedServer(clock, 1, 2_000);
    const run = (async () => {
      for (let i = 0; i < 3; i++) await scheduler.send('background', server.execute);
    })();
    await clock.advance(10_000);
    await run;
    expect(server.calls).toEqual([0, 2_000 + WINDOW_MARGIN_MS, 4_000 + 2 * WINDOW_MARGIN_MS]);
    expect(server.statuses).toEqual([200, 200, 200]);
  });

  it('go while more than 10% of the window is left, and before the limit is known', async () => {
    const { clock, scheduler } = setup();
    const server = rateLimitedServer(clock, 10, 2_000);
    for (let i = 0; i < 9; i++) await scheduler.send('background', server.execute);
    expect(server.calls).toEqual(Array(9).fill(0));
    expect(scheduler.state().remaining).toBe(1);
  });

  it('never leave inside a Retry-After, nor pass an api-disabled gate that interactive calls pass', async () => {
    const { clock, scheduler, send } = setup();
    const server = new Script(clock, [
      { status: 503, headers: { 'retry-after': '30' }, body: errorBody('API_DISABLED', 'Off.', 'r1') },
    ]);
    const first = send('upload', server.execute);
    await flushMicrotasks();
    const poll = send('background', server.execute);
    await clock.advance(29_000);
    expect(poll.settled).toBe(false);
    expect(first.settled).toBe(false);
    await clock.advance(2_000);
    expect(poll.value?.status).toBe(200);
    expect(server.calls).toEqual([0, 30_000, 30_000]);
    expect(scheduler.state().gateReason).toBe(null);
  });
});

describe('RequestScheduler after a 429', () => {
  const tooMany = (headers: HttpResult['headers']): HttpResult => ({
    status: 429,
    headers,
    body: errorBody('RATE_LIMITED', 'Too many requests.', 'req-429'),
  });

  it('lets nothing leave before Retry-After plus jitter, then retries and answers the caller with the 200', async () => {
    const { clock, send } = setup();
    const script = new Script(clock, [tooMany({ 'retry-after': '5' })]);
    const first = send('upload', script.execute);
    await flushMicrotasks();
    const other = new Script(clock, []);
    await clock.advance(1_000);
    const second = send('interactive', other.execute);
    await clock.advance(4_249 + WINDOW_MARGIN_MS);
    expect(script.calls).toEqual([0]);
    expect(other.calls).toEqual([]);
    await clock.advance(1);
    // 5 s + 0.5 * 500 ms of jitter, then the margin into the new window
    expect(other.calls).toEqual([5_250 + WINDOW_MARGIN_MS]);
    expect(script.calls).toEqual([0, 5_250 + WINDOW_MARGIN_MS]);
    await flushMicrotasks();
    expect(first).toEqual({ settled: true, value: OK, error: undefined });
    expect(second).toEqual({ settled: true, value: OK, error: undefined });
  });

  it.each([
    { random: 0, leavesAt: 5_000 + WINDOW_MARGIN_MS },
    { random: 0.999_999, leavesAt: 5_499.9995 + WINDOW_MARGIN_MS },
  ])('adds at most 500 ms of jitter (random $random)', async ({ random, leavesAt }) => {
    const { clock, send } = setup({ random: () => random });
    const script = new Script(clock, [tooMany({ 'retry-after': '5' })]);
    send('upload', script.execute);
    await clock.advance(10_000);
    expect(script.calls).toEqual([0, leavesAt]);
  });

  it('shows the gate as rate-limited and counts it down', async () => {
    const { clock, scheduler, send } = setup();
    const script = new Script(clock, [tooMany({ 'retry-after': '5' })]);
    send('upload', script.execute);
    await flushMicrotasks();
    expect(scheduler.state()).toEqual({
      limit: null,
      remaining: 0,
      gateOpensInMs: 5_250,
      gateReason: 'rate-limited',
      blocked: null,
      queued: 1,
      inFlight: 0,
    });
    await clock.advance(2_000);
    expect(scheduler.state()).toMatchObject({ gateOpensInMs: 3_250, gateReason: 'rate-limited' });
    await clock.advance(3_250);
    expect(scheduler.state()).toMatchObject({ gateOpensInMs: 0, gateReason: null });
    await clock.advance(WINDOW_MARGIN_MS);
    expect(scheduler.state()).toMatchObject({ gateOpensInMs: 0, gateReason: null, queued: 0, inFlight: 0 });
    expect(script.calls).toEqual([0, 5_250 + WINDOW_MARGIN_MS]);
  });

  it('reads Retry-After as an HTTP date against the wall clock', async () => {
    const { clock, send } = setup();
    await clock.advance(1_000);
    const retryAt = new Date(clock.wall() + 7_000).toUTCString();
    const script = new Script(clock, [tooMany({ 'retry-after': retryAt })]);
    const request = send('background', script.execute);
    await clock.advance(20_000);
    expect(script.calls).toEqual([1_000, 1_000 + 7_000 + 250 + WINDOW_MARGIN_MS]);
    expect(request.value?.status).toBe(200);
  });

  it('waits 60 s when Retry-After is missing', async () => {
    const { clock, send } = setup();
    const script = new Script(clock, [tooMany({})]);
    send('upload', script.execute);
    await clock.advance(60_000);
    expect(script.calls).toEqual([0]);
    await clock.advance(1_000);
    expect(script.calls).toEqual([0, 60_000 + 250 + WINDOW_MARGIN_MS]);
  });

  it('gives the caller the 429 once the request has been rate-limited maxRateLimited times', async () => {
    const { clock, send } = setup({ maxRateLimited: 2 });
    const answer = tooMany({ 'retry-after': '1' });
    const script = new Script(clock, [answer, answer, answer]);
    const request = send('upload', script.execute);
    await clock.advance(10_000);
    expect(script.calls).toEqual([0, 1_250 + WINDOW_MARGIN_MS, 2 * (1_250 + WINDOW_MARGIN_MS)]);
    expect(request.value).toBe(answer);
  });
});

describe('RequestScheduler priorities', () => {
  it('sends interactive, then upload, then background requests, first come first served within each', async () => {
    const { clock, send, log, labelled } = setup();
    let probeCalls = 0;
    const probe = async (): Promise<HttpResult> => {
      if (probeCalls++ === 0) return { status: 429, headers: { 'retry-after': '2' }, body: null };
      return labelled('probe')();
    };
    send('background', probe);
    await clock.advance(100);
    for (const [priority, label] of [
      ['background', 'bg1'],
      ['upload', 'up1'],
      ['interactive', 'ui1'],
      ['background', 'bg2'],
      ['upload', 'up2'],
      ['interactive', 'ui2'],
    ] as const) {
      send(priority, labelled(label));
    }
    await clock.advance(2_149 + WINDOW_MARGIN_MS);
    expect(log).toEqual([]);
    await clock.advance(1);
    // the rate-limited probe was asked for first, so it leads the background requests
    const at = 2_250 + WINDOW_MARGIN_MS;
    expect(log).toEqual(['ui1', 'ui2', 'up1', 'up2', 'probe', 'bg1', 'bg2'].map((label) => `${label}@${at}`));
  });
});

describe('RequestScheduler retries', () => {
  it('retries network errors with full-jitter backoff up to maxAttempts, then rejects with the error', async () => {
    const { clock, send } = setup();
    const errors = [1, 2, 3, 4, 5].map(networkError);
    const script = new Script(clock, errors);
    const request = send('upload', script.execute);
    await clock.advance(60_000);
    // delays 0.5 * 500 ms * 2^(attempt - 1): 250, 500, 1000, 2000
    expect(script.calls).toEqual([0, 250, 750, 1_750, 3_750]);
    expect(request).toEqual({ settled: true, value: undefined, error: errors[4] });
  });

  it('sends a request waiting out a backoff at once on retryNow (the machine woke up), without resetting its attempts', async () => {
    const { clock, scheduler, send } = setup({ backoff: { baseMs: 60_000, capMs: 60_000 }, maxAttempts: 3 });
    const errors = [1, 2, 3].map(networkError);
    const script = new Script(clock, errors);
    const request = send('upload', script.execute);
    await clock.advance(1_000);
    expect(script.calls).toEqual([0]);
    scheduler.retryNow();
    await flushMicrotasks();
    expect(script.calls).toEqual([0, 1_000]);
    scheduler.retryNow();
    await flushMicrotasks();
    // the third and last attempt: the count went on from where it was
    expect(script.calls).toEqual([0, 1_000, 1_000]);
    expect(request).toEqual({ settled: true, value: undefined, error: errors[2] });
  });

  it('keeps a Retry-After gate closed on retryNow: the server asked for the wait', async () => {
    const { clock, scheduler, send } = setup();
    const script = new Script(clock, [{ status: 429, headers: { 'retry-after': '30' }, body: {} }]);
    send('upload', script.execute);
    await clock.advance(1_000);
    scheduler.retryNow();
    await clock.advance(10_000);
    expect(script.calls).toEqual([0]);
    await clock.advance(30_000);
    expect(script.calls).toHaveLength(2);
    expect(script.calls[1]).toBeGreaterThanOrEqual(30_000);
  });

  it('retries 5xx answers and gives the caller the last one when attempts run out', async () => {
    const { clock, send } = setup({ maxAttempts: 3 });
    const answers: HttpResult[] = [500, 502, 503].map((status) => ({ status, headers: {}, body: null }));
    const script = new Script(clock, answers);
    const request = send('background', script.execute);
    await clock.advance(60_000);
    expect(script.calls).toEqual([0, 250, 750]);
    expect(request.value).toBe(answers[2]);
  });

  it('answers the caller with the first success after failed attempts', async () => {
    const { clock, send } = setup();
    const script = new Script(clock, [networkError(), { status: 500, headers: {}, body: null }]);
    const request = send('upload', script.execute);
    await clock.advance(60_000);
    expect(script.calls).toEqual([0, 250, 750]);
    expect(request.value).toBe(OK);
  });

  it('honours a custom backoff policy', async () => {
    const { clock, send } = setup({ backoff: { baseMs: 1_000, capMs: 1_500 }, maxAttempts: 4 });
    const script = new Script(clock, [networkError(), networkError(), networkError(), networkError()]);
    send('upload', script.execute);
    await clock.advance(60_000);
    // 0.5 * min(1500, 1000 * 2^n): 500, 750, 750
    expect(script.calls).toEqual([0, 500, 1_250, 2_000]);
  });

  it('starts the attempt count over when an attempt moved bytes', async () => {
    const { clock, send } = setup();
    const movedBytes = (context: AttemptContext) => {
      context.onBytes();
      return networkError();
    };
    const script = new Script(clock, [
      networkError(),
      networkError(),
      networkError(),
      movedBytes,
      networkError(),
      networkError(),
      networkError(),
      networkError(),
    ]);
    const request = send('upload', script.execute);
    await clock.advance(60_000);
    expect(script.calls).toEqual([0, 250, 750, 1_750, 2_000, 2_500, 3_500, 5_500]);
    expect(request.error).toMatchObject({ code: 'NETWORK_ERROR' });
  });

  it('does not repeat a non-idempotent request and says its outcome is unknown', async () => {
    const { clock, send } = setup();
    const script = new Script(clock, [networkError()]);
    const request = send('upload', script.execute, { idempotent: false });
    await clock.advance(60_000);
    expect(script.calls).toEqual([0]);
    expect(request.error).toBeInstanceOf(ApiError);
    expect(request.error).toMatchObject({
      status: null,
      code: 'NETWORK_ERROR',
      message: 'x',
      retryable: true,
      outcomeUnknown: true,
    });
  });

  it('gives a non-idempotent request its 5xx at once', async () => {
    const { clock, send } = setup();
    const answer: HttpResult = { status: 502, headers: {}, body: null };
    const script = new Script(clock, [answer]);
    const request = send('upload', script.execute, { idempotent: false });
    await clock.advance(60_000);
    expect(script.calls).toEqual([0]);
    expect(request.value).toBe(answer);
  });

  it('does not retry errors that are not retryable, nor final 4xx answers', async () => {
    const { clock, send } = setup();
    const badResponse = new ApiError({ status: 200, code: 'BAD_RESPONSE', message: 'Not JSON.', retryable: false });
    const failing = new Script(clock, [badResponse]);
    const notFound: HttpResult = { status: 404, headers: {}, body: errorBody('NOT_FOUND', 'No such file.', 'r') };
    const missing = new Script(clock, [notFound]);
    const first = send('interactive', failing.execute);
    const second = send('interactive', missing.execute);
    await clock.advance(60_000);
    expect([failing.calls, missing.calls]).toEqual([[0], [0]]);
    expect(first.error).toBe(badResponse);
    expect(second.value).toBe(notFound);
  });
});

describe('RequestScheduler after 401/403', () => {
  const refusal = (status: number, code: string, message: string, requestId: string): HttpResult => ({
    status,
    headers: {},
    body: errorBody(code, message, requestId),
  });

  /** The error a blocked account hands back to uploads and polling. */
  const blockedWith = (status: number, code: string, message: string, requestId: string | null) => ({
    name: 'ApiError',
    status,
    code,
    message,
    requestId,
    retryable: false,
  });

  it('after a 401, hands waiting and new uploads and polling back at once, lets interactive requests go, until unblock()', async () => {
    const { clock, scheduler, send, log, labelled } = setup();
    // one request left in this window, so what is sent next waits behind the 401 below
    const warm = new Script(clock, [
      {
        status: 200,
        headers: { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset-after': '60' },
        body: null,
      },
    ]);
    await scheduler.send('interactive', warm.execute);
    const refused = refusal(401, 'UNAUTHENTICATED', 'The token is not valid.', 'req-401');
    const script = new Script(clock, [refused]);
    const first = send('upload', script.execute);
    const waitingUpload = send('upload', labelled('waiting-upload'));
    const waitingPoll = send('background', labelled('waiting-poll'));
    expect(scheduler.state()).toMatchObject({ queued: 2, inFlight: 1 });
    await flushMicrotasks();
    expect(first.value).toBe(refused);
    const handedBack = blockedWith(401, 'UNAUTHENTICATED', 'The token is not valid.', 'req-401');
    expect(waitingUpload.error).toBeInstanceOf(ApiError);
    expect(waitingUpload.error).toMatchObject(handedBack);
    expect(waitingPoll.error).toMatchObject(handedBack);

    const lateUpload = send('upload', labelled('late-upload'));
    send('interactive', labelled('list'));
    await clock.advance(10 * 60_000);
    expect(lateUpload.error).toMatchObject(handedBack);
    expect(log).toEqual(['list@0']);
    expect(scheduler.state()).toEqual({
      limit: 2,
      remaining: 2,
      gateOpensInMs: 0,
      gateReason: null,
      blocked: { status: 401, code: 'UNAUTHENTICATED', message: 'The token is not valid.', requestId: 'req-401' },
      queued: 0,
      inFlight: 0,
    });

    scheduler.unblock();
    const after = send('upload', labelled('upload-after-unblock'));
    await flushMicrotasks();
    expect(log).toEqual(['list@0', 'upload-after-unblock@600000']);
    expect(after.value).toBe(OK);
    expect(scheduler.state().blocked).toBeNull();
  });

  it('blocks on 403 TOKEN_DISABLED with the server message and request id', async () => {
    const { clock, scheduler, send, log, labelled } = setup();
    const script = new Script(clock, [refusal(403, 'TOKEN_DISABLED', 'This token was disabled.', 'req-403')]);
    send('background', script.execute);
    await flushMicrotasks();
    const upload = send('upload', labelled('upload'));
    await clock.advance(60_000);
    expect(log).toEqual([]);
    expect(upload.error).toMatchObject(blockedWith(403, 'TOKEN_DISABLED', 'This token was disabled.', 'req-403'));
    expect(scheduler.state().blocked).toEqual({
      status: 403,
      code: 'TOKEN_DISABLED',
      message: 'This token was disabled.',
      requestId: 'req-403',
    });
  });

  it('explains a refusal without an error envelope', async () => {
    const { clock, scheduler, send } = setup();
    const script = new Script(clock, [{ status: 401, headers: {}, body: '<html>Unauthorized</html>' }]);
    send('upload', script.execute);
    await flushMicrotasks();
    expect(scheduler.state().blocked).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
      message: 'The server refused the token (HTTP 401).',
      requestId: null,
      // the app's own sentence: the UI says it in its language
      text: { key: 'core.errors.tokenRefused', values: { status: 401 } },
    });
  });

  it('blocks on 403 TOKEN_EXPIRED too, without retrying the refused request', async () => {
    const { clock, scheduler, send } = setup();
    const expired = refusal(403, 'TOKEN_EXPIRED', 'This token expired.', 'req-x');
    const script = new Script(clock, [expired]);
    const request = send('upload', script.execute);
    await clock.advance(60_000);
    expect(script.calls).toEqual([0]);
    expect(request.value).toBe(expired);
    expect(scheduler.state().blocked).toEqual({
      status: 403,
      code: 'TOKEN_EXPIRED',
      message: 'This token expired.',
      requestId: 'req-x',
    });
  });

  it('blocks on 403 TOKEN_ABILITY_DENIED only for a send with blockOnDenied', async () => {
    const { clock, scheduler, send, log, labelled } = setup();
    const denied = refusal(403, 'TOKEN_ABILITY_DENIED', 'The token may not import remote files.', 'req-a');
    const importRequest = new Script(clock, [denied]);
    const first = send('interactive', importRequest.execute);
    await flushMicrotasks();
    expect(first.value).toBe(denied);
    expect(scheduler.state().blocked).toBeNull();
    send('upload', labelled('upload-1'));
    await flushMicrotasks();
    expect(log).toEqual(['upload-1@0']);

    const uploadRequest = new Script(clock, [refusal(403, 'TOKEN_ABILITY_DENIED', 'No upload permission.', 'req-b')]);
    send('upload', uploadRequest.execute, { blockOnDenied: true });
    await flushMicrotasks();
    const second = send('upload', labelled('upload-2'));
    await clock.advance(60_000);
    expect(log).toEqual(['upload-1@0']);
    expect(second.error).toMatchObject(blockedWith(403, 'TOKEN_ABILITY_DENIED', 'No upload permission.', 'req-b'));
    expect(scheduler.state().blocked).toEqual({
      status: 403,
      code: 'TOKEN_ABILITY_DENIED',
      message: 'No upload permission.',
      requestId: 'req-b',
    });
  });
});

describe('RequestScheduler while the API is disabled', () => {
  const disabled: HttpResult = {
    status: 503,
    headers: {},
    body: errorBody('API_DISABLED', 'The API is disabled for maintenance.', 'req-503'),
  };

  it('holds uploads behind an api-disabled gate with growing backoff, then answers with the 200', async () => {
    const { clock, scheduler, send } = setup();
    const script = new Script(clock, [disabled, disabled]);
    const request = send('upload', script.execute);
    await flushMicrotasks();
    // backoff with a jitter of 0.5 + random / 2 = 0.75: 0.75 * 5 s, then 0.75 * 10 s
    expect(scheduler.state()).toEqual({
      limit: null,
      remaining: null,
      gateOpensInMs: 3_750,
      gateReason: 'api-disabled',
      blocked: null,
      queued: 1,
      inFlight: 0,
    });
    await clock.advance(60_000);
    expect(script.calls).toEqual([0, 3_750, 11_250]);
    expect(request.value).toBe(OK);
  });

  it('answers an interactive request with the 503 at once, and lets it pass a closed api-disabled gate', async () => {
    const { clock, send } = setup();
    const upload = new Script(clock, [disabled]);
    send('upload', upload.execute);
    await flushMicrotasks();
    const screen = new Script(clock, [disabled]);
    const request = send('interactive', screen.execute);
    await clock.advance(100);
    expect(screen.calls).toEqual([0]);
    expect(request.value).toBe(disabled);
  });

  it('waits as long as the Retry-After of the 503 says', async () => {
    const { clock, send } = setup();
    const script = new Script(clock, [{ ...disabled, headers: { 'retry-after': '30' } }]);
    send('background', script.execute);
    await clock.advance(60_000);
    expect(script.calls).toEqual([0, 30_000]);
  });
});

describe('RequestScheduler cancellation', () => {
  it('rejects a queued request with ABORTED when its signal aborts, and never executes it', async () => {
    const { clock, scheduler, send } = setup();
    const gate = new Script(clock, [{ status: 429, headers: { 'retry-after': '5' }, body: null }]);
    send('interactive', gate.execute);
    await flushMicrotasks();
    const controller = new AbortController();
    const cancelled = new Script(clock, []);
    const request = send('upload', cancelled.execute, { signal: controller.signal });
    await clock.advance(1_000);
    expect(scheduler.state().queued).toBe(2);
    controller.abort();
    await flushMicrotasks();
    expect(request.error).toBeInstanceOf(ApiError);
    expect(request.error).toMatchObject({ code: 'ABORTED', retryable: false });
    expect(scheduler.state().queued).toBe(1);
    await clock.advance(60_000);
    expect(cancelled.calls).toEqual([]);
    expect(gate.calls).toEqual([0, 5_250 + WINDOW_MARGIN_MS]);
  });

  it('rejects at once a request whose signal is already aborted', async () => {
    const { clock, send } = setup();
    const script = new Script(clock, []);
    const request = send('interactive', script.execute, { signal: AbortSignal.abort() });
    await clock.advance(1_000);
    expect(script.calls).toEqual([]);
    expect(request.error).toMatchObject({ code: 'ABORTED' });
  });

  it('rejects with ABORTED and does not retry when the signal aborts during an attempt', async () => {
    const { clock, send } = setup();
    const controller = new AbortController();
    let attemptSignalAborted = false;
    const script = new Script(clock, [
      (context) => {
        controller.abort();
        attemptSignalAborted = context.signal.aborted;
        return networkError();
      },
    ]);
    const request = send('upload', script.execute, { signal: controller.signal });
    await clock.advance(60_000);
    expect(attemptSignalAborted).toBe(true);
    expect(script.calls).toEqual([0]);
    expect(request.error).toMatchObject({ code: 'ABORTED' });
  });
});
