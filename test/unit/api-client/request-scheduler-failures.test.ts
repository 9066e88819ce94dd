import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/api-client/api-error.js';
import { WINDOW_MARGIN_MS } from '../../../src-main/api-client/rate-budget.js';
import type { AttemptContext, HttpResult } from '../../../src-main/api-client/request-scheduler.js';
import { flushMicrotasks } from '../../helpers/fake-clock.js';
import { errorBody, networkError, OK, Script, setup } from '../../helpers/scheduler-fixture.js';

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
