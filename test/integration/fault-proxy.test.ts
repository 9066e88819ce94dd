import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nthRequestTo, requestsTo, startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { multipart, rawRequest, type RawRequest, type RawResponse } from '../helpers/raw-http.js';
import { sha256, startTestServer, type TestServer } from '../helpers/test-server.js';
import { waitFor } from '../helpers/local-http-server.js';

const UPLOAD = '/api/v1/files/upload';

let t: TestServer;
let proxy: FaultProxy;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: 10_000, conversions: false });
});
afterAll(() => t.close());
beforeEach(async () => {
  proxy = await startFaultProxy(t.fileHost);
  t.server.uploadLog.clear();
  t.server.requestLog.clear();
});
afterEach(() => proxy.close());

/** An API request through the proxy, with the demo token. */
function viaProxy(path: string, request: RawRequest = {}): Promise<RawResponse> {
  return rawRequest(`${proxy.url}/api/v1${path}`, {
    ...request,
    headers: { Accept: 'application/json', Authorization: `Bearer ${t.token}`, ...request.headers },
  });
}

/** One chunk of `content` as a single-chunk Dropzone upload, through the proxy. */
function uploadViaProxy(content: Buffer, dzuuid: string, filename = 'clip.mp4'): Promise<RawResponse> {
  const { body, contentType } = multipart(
    {
      dzuuid,
      dzchunkindex: 0,
      dztotalchunkcount: 1,
      dzchunksize: content.length,
      dztotalfilesize: content.length,
      dzchunkbyteoffset: 0,
    },
    { filename, content, contentType: 'video/mp4' },
  );
  return viaProxy('/files/upload', { method: 'POST', body, headers: { 'Content-Type': contentType } });
}

const uploadsOf = (dzuuid: string) => t.server.uploadLog.entries().filter((entry) => entry.dzuuid === dzuuid);

describe('pass-through', () => {
  it('relays status, headers and body of an answer unchanged', async () => {
    const direct = await t.api('/account');
    const proxied = await viaProxy('/account');
    expect(proxied.status).toBe(200);
    expect(proxied.json).toEqual(direct.json);
    expect(proxied.headers['content-type']).toBe(direct.headers['content-type']);
    expect(proxied.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(proxied.headers['x-ratelimit-limit']).toBe('10000');
    expect(proxied.headers['x-ratelimit-reset-after']).toMatch(/^\d+\.\d{3}$/);

    const missing = await viaProxy('/nowhere?x=1');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('NOT_FOUND');
    expect(missing.json.request_id).toBe(missing.headers['x-request-id']);

    expect(proxy.requests).toEqual([
      {
        method: 'GET',
        path: '/api/v1/account',
        at: expect.any(Number),
        fault: null,
        status: 200,
        answeredAt: null,
        endedAt: expect.any(Number),
      },
      {
        method: 'GET',
        path: '/api/v1/nowhere',
        at: expect.any(Number),
        fault: null,
        status: 404,
        answeredAt: null,
        endedAt: expect.any(Number),
      },
    ]);
  });

  it('streams an upload up and keeps the query string, byte for byte', async () => {
    const content = randomBytes(3 * 1024 * 1024);
    const res = await uploadViaProxy(content, randomUUID(), 'through-proxy.mp4');
    expect(res.status).toBe(201);
    const stored = await rawRequest(`${res.json.data.urls.page}`);
    expect(sha256(stored.body)).toBe(sha256(content));

    const found = await viaProxy('/files?search=through-proxy');
    expect(found.json.data.map((file: { filename: string }) => file.filename)).toEqual(['through-proxy.mp4']);
  });

  it('answers 502 with the error envelope when the server cannot be reached', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const orphan = await startFaultProxy(`http://127.0.0.1:${port}`);
    try {
      const res = await rawRequest(`${orphan.url}/api/v1/account`);
      expect(res.status).toBe(502);
      expect(res.json).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR' } });
      expect(orphan.requests[0]).toMatchObject({ fault: null, status: 502 });
    } finally {
      await orphan.close();
    }
  });
});

describe('reset-mid-body', () => {
  it('cuts the upload after N bytes on both sides: the client errors, the server logs an aborted upload', async () => {
    const content = randomBytes(1024 * 1024);
    const dzuuid = randomUUID();
    proxy.addRule({ match: nthRequestTo(UPLOAD, 0), fault: { kind: 'reset-mid-body', afterBytes: 300_000 } });

    await expect(uploadViaProxy(content, dzuuid)).rejects.toMatchObject({ code: expect.stringMatching(/^E/) });
    const aborted = await waitFor(() => uploadsOf(dzuuid)[0], 5_000, 'the log entry', 10);
    expect(aborted).toMatchObject({ chunkIndex: 0, status: 0 });
    expect(aborted.bytes).toBeGreaterThan(0);
    expect(aborted.bytes).toBeLessThan(300_000);
    expect(proxy.requests[0]).toMatchObject({ path: UPLOAD, fault: 'reset-mid-body', status: null });

    // The rule is used up: the same chunk sent again goes through and makes the file.
    const again = await uploadViaProxy(content, dzuuid);
    expect(again.status).toBe(201);
    expect(uploadsOf(dzuuid).map((entry) => entry.status)).toEqual([0, 201]);
  });

  it('with 0 bytes the server gets the head only', async () => {
    proxy.addRule({ match: requestsTo(UPLOAD), fault: { kind: 'reset-mid-body', afterBytes: 0 } });
    const dzuuid = randomUUID();
    await expect(uploadViaProxy(randomBytes(100_000), dzuuid)).rejects.toThrow();
    const request = await waitFor(
      () => t.server.requestLog.entries().find((entry) => entry.path === UPLOAD),
      5_000,
      'the log entry',
      10,
    );
    expect(request.status).toBe(0);
    // Whether the handler started before the reset or not, it read no field and no byte.
    for (const upload of t.server.uploadLog.entries())
      expect(upload).toMatchObject({ dzuuid: null, bytes: 0, status: 0 });
  });
});

describe('close-before-response', () => {
  it('reads the request, forwards nothing and closes: the client errors and the server never hears of it', async () => {
    proxy.addRule({ match: requestsTo(UPLOAD, 'POST'), fault: { kind: 'close-before-response' } });
    const dzuuid = randomUUID();
    await expect(uploadViaProxy(randomBytes(500_000), dzuuid)).rejects.toThrow();
    expect(proxy.requests[0]).toMatchObject({ fault: 'close-before-response', status: null });

    // A request after it passes, so the server's logs are up to date when read.
    expect((await viaProxy('/account')).status).toBe(200);
    expect(t.server.requestLog.entries().map((entry) => entry.path)).toEqual(['/api/v1/account']);
    expect(uploadsOf(dzuuid)).toEqual([]);
  });
});

describe('stall', () => {
  it('holds the request for the given time, then forwards it', async () => {
    proxy.addRule({ match: () => true, fault: { kind: 'stall', ms: 300 } });
    const started = performance.now();
    const pending = viaProxy('/account');
    // Only a lower bound on time: well inside the stall the server has seen nothing.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(t.server.requestLog.entries()).toEqual([]);
    const res = await pending;
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(proxy.requests[0]).toMatchObject({ fault: 'stall', status: 200 });
  });

  it('with Infinity holds it until the client times out, and never forwards it', async () => {
    proxy.addRule({ match: () => true, fault: { kind: 'stall', ms: Infinity } });
    const failure = await new Promise<Error>((resolve) => {
      const req = http.request(`${proxy.url}/api/v1/account`, { agent: false, timeout: 200 });
      req.on('timeout', () => req.destroy(new Error('client timeout')));
      req.on('error', resolve);
      req.on('response', () => resolve(new Error('unexpected answer')));
      req.end();
    });
    expect(failure.message).toBe('client timeout');
    expect(proxy.requests[0]).toMatchObject({ fault: 'stall', status: null });
    expect(t.server.requestLog.entries()).toEqual([]);
  });

  it('with Infinity is released by close()', async () => {
    proxy.addRule({ match: () => true, fault: { kind: 'stall', ms: Infinity } });
    const pending = viaProxy('/account');
    await waitFor(() => proxy.requests[0], 5_000, 'the log entry', 10);
    await proxy.close();
    await expect(pending).rejects.toThrow();
  });
});

describe('status', () => {
  it('answers 429 with Retry-After and the error envelope without forwarding', async () => {
    proxy.addRule({
      match: nthRequestTo(UPLOAD, 0),
      fault: { kind: 'status', status: 429, headers: { 'Retry-After': '2' } },
    });
    const dzuuid = randomUUID();
    const limited = await uploadViaProxy(randomBytes(200_000), dzuuid);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('2');
    expect(limited.json).toEqual({
      success: false,
      error: { code: 'RATE_LIMITED', message: expect.any(String) },
      request_id: limited.headers['x-request-id'],
    });
    expect(uploadsOf(dzuuid)).toEqual([]);
    // the made-up answer is timed, for tests that check what a client sent after reading it
    const [answered] = proxy.requests;
    expect(answered!.answeredAt).toBeGreaterThanOrEqual(answered!.at);

    const next = await uploadViaProxy(randomBytes(1000), dzuuid);
    expect(next.status).toBe(201);
    expect(proxy.requests.map(({ fault, status }) => [fault, status])).toEqual([
      ['status', 429],
      [null, 201],
    ]);
  });

  it('answers 5xx with a fitting code, or the body given, as many times as asked', async () => {
    proxy.addRule({ match: nthRequestTo('/api/v1/account', 0), fault: { kind: 'status', status: 503 } });
    proxy.addRule({ match: requestsTo('/api/v1/account'), fault: { kind: 'status', status: 500 }, times: 2 });
    proxy.addRule({ match: () => true, fault: { kind: 'status', status: 502, body: 'Bad Gateway' } });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await viaProxy('/account'));
    expect(answers.map((res) => [res.status, res.json?.error?.code ?? res.text])).toEqual([
      [503, 'API_DISABLED'],
      [500, 'INTERNAL_ERROR'],
      [500, 'INTERNAL_ERROR'],
      [502, 'Bad Gateway'],
      [200, answers[4]!.text],
    ]);
    expect(answers[4]!.json.success).toBe(true);
  });
});

describe('lose-response', () => {
  it('lets the server finish the upload, then drops the answer: the client errors, the server has the file', async () => {
    const content = randomBytes(400_000);
    const dzuuid = randomUUID();
    proxy.addRule({ match: nthRequestTo(UPLOAD, 0), fault: { kind: 'lose-response' } });

    await expect(uploadViaProxy(content, dzuuid)).rejects.toThrow();
    expect(uploadsOf(dzuuid)).toEqual([expect.objectContaining({ bytes: content.length, status: 201 })]);
    expect(t.server.requestLog.entries()).toEqual([expect.objectContaining({ path: UPLOAD, status: 201 })]);
    expect(proxy.requests[0]).toMatchObject({ fault: 'lose-response', status: 201 });

    // The client's retry of the lost chunk gets the same file, not a second one.
    const again = await uploadViaProxy(content, dzuuid);
    expect(again.status).toBe(200);
    const files = await viaProxy('/files?search=clip.mp4&per_page=100');
    expect(files.json.data.filter((file: { id: string }) => file.id === again.json.data.id)).toHaveLength(1);
  });
});

describe('matching', () => {
  it('gives matchers the head of each request with its place overall and per path', async () => {
    const seen: Array<[string, number, number, string | string[] | undefined]> = [];
    proxy.addRule({
      match: (request) => {
        seen.push([request.url, request.index, request.pathIndex, request.headers['x-test']]);
        return false;
      },
      fault: { kind: 'close-before-response' },
    });
    await viaProxy('/account', { headers: { 'X-Test': 'a' } });
    await viaProxy('/files?page=1');
    await viaProxy('/account');
    expect(seen).toEqual([
      ['/api/v1/account', 0, 0, 'a'],
      ['/api/v1/files?page=1', 1, 0, undefined],
      ['/api/v1/account', 2, 1, undefined],
    ]);
  });
});
