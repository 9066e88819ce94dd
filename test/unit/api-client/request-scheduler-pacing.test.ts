import { describe, expect, it } from 'vitest';
import { WINDOW_MARGIN_MS } from '../../../src-main/api-client/rate-budget.js';
import type { HttpResult } from '../../../src-main/api-client/request-scheduler.js';
import { flushMicrotasks } from '../../helpers/fake-clock.js';
import { errorBody, OK, rateLimitedServer, Script, setup } from '../../helpers/scheduler-fixture.js';

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
