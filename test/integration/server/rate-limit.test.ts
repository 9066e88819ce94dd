import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: 5, rateWindowMs: 2000, conversions: false });
});
afterAll(() => t.close());

describe('rate limit per token and IP', () => {
  it('counts down X-RateLimit-Remaining, then 429 RATE_LIMITED with Retry-After in seconds, then reopens', async () => {
    const token = t.newAccount('busy');
    const remaining = [];
    const resetAfter = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.api('/account', { token });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      remaining.push(Number(res.headers['x-ratelimit-remaining']));
      resetAfter.push(res.headers['x-ratelimit-reset-after']);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    // Seconds with millisecond precision, counting down within the one 2 s window.
    expect(resetAfter[0]).toBe('2.000');
    for (const value of resetAfter) expect(value).toMatch(/^\d+\.\d{3}$/);
    const seconds = resetAfter.map(Number);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
    expect(seconds.at(-1)).toBeGreaterThan(0);

    const limited = await t.api('/account', { token });
    expect([limited.status, limited.json.error.code]).toEqual([429, 'RATE_LIMITED']);
    const retryAfter = limited.headers['retry-after'];
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(2);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 - 1);
    const limitedResetAfter = Number(limited.headers['x-ratelimit-reset-after']);
    expect(limitedResetAfter).toBeGreaterThan(0);
    expect(limitedResetAfter).toBeLessThanOrEqual(Math.min(seconds.at(-1)!, Number(retryAfter)));
    expect(limited.headers['x-request-id']).toBe(limited.json.request_id);

    await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000));
    expect((await t.api('/account', { token })).status).toBe(200);
  });

  it('one token over its limit does not stop another', async () => {
    const first = t.newAccount('first');
    const second = t.newAccount('second');
    for (let i = 0; i < 6; i++) await t.api('/account', { token: first });
    expect((await t.api('/account', { token: first })).status).toBe(429);
    const other = await t.api('/account', { token: second });
    expect(other.status).toBe(200);
    expect(other.headers['x-ratelimit-reset-after']).toBe('2.000');
  });

  it('uploads count like any other request', async () => {
    const token = t.newAccount('uploader');
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await t.upload({}, { filename: `f${i}.txt`, content: Buffer.from('x') }, token)).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
