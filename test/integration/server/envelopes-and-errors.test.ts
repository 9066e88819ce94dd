import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { AccountSchema, ErrorEnvelopeSchema } from '../../../src-shared/api/index.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { logSink, startTestServer, type TestServer } from '../../helpers/test-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: 1000 });
});
afterAll(() => t.close());

describe('response envelopes', () => {
  it('success, single: success true and the Account in data', async () => {
    const res = await t.api('/account');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json.success).toBe(true);
    expect(AccountSchema.parse(res.json.data)).toEqual({
      id: expect.any(String),
      username: 'demo',
      email: expect.stringContaining('@'),
      status: true,
      files: 0,
      storage_bytes: 0,
      remote_jobs: { pending: 0, running: 0, completed: 0, failed: 0 },
    });
  });

  it('success, list: data array and pagination meta', async () => {
    const res = await t.api('/files');
    expect(res.json).toEqual({
      success: true,
      data: [],
      meta: { current_page: 1, last_page: 1, per_page: 25, total: 0 },
    });
  });

  it('error: success false, error {code, message} and a UUID request_id equal to X-Request-ID', async () => {
    const res = await t.api('/files/doesnotexist');
    expect(res.status).toBe(404);
    const envelope = ErrorEnvelopeSchema.parse(res.json);
    expect(envelope.error.code).toBe('NOT_FOUND');
    expect(envelope.request_id).toMatch(UUID);
    expect(res.headers['x-request-id']).toBe(envelope.request_id);
  });

  it('every response carries X-Request-ID and the rate headers, successes too', async () => {
    const res = await t.api('/account');
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(Number(res.headers['x-ratelimit-limit'])).toBe(1000);
    expect(Number(res.headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
  });

  it('each request gets its own request id', async () => {
    const [a, b] = await Promise.all([t.api('/account'), t.api('/account')]);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('requests that match nothing', () => {
  it.each([
    ['GET', '/api/v1/nothing-here'],
    ['PUT', '/api/v1/files'],
    ['DELETE', '/api/v1/account'],
    ['GET', '/no/such/page'],
  ])('%s %s → 404 envelope, not an HTML page', async (method, path) => {
    const res = await rawRequest(`${t.fileHost}${path}`, { method, headers: { Authorization: `Bearer ${t.token}` } });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(ErrorEnvelopeSchema.parse(res.json).error.code).toBe('NOT_FOUND');
  });

  it('an unknown /api/v1 route asks for the token first: 401 without one, 403 for a disabled one, 404 only to a token', async () => {
    const disabled = t.admin(['token', 'create'], { account: 'demo', disabled: true }).token as string;
    for (const [method, path] of [
      ['GET', '/api/v1/nothing-here'],
      ['PUT', '/api/v1/files'],
      ['POST', '/api/v1/admin/tokens'],
    ] as const) {
      const at = (headers: Record<string, string> = {}) => rawRequest(`${t.fileHost}${path}`, { method, headers });
      const missing = await at();
      expect([path, missing.status, missing.json.error.code]).toEqual([path, 401, 'UNAUTHENTICATED']);
      expect((await at({ Authorization: 'Bearer mfs_not-a-token' })).status).toBe(401);
      expect((await at({ Authorization: `Bearer ${disabled}` })).json.error.code).toBe('TOKEN_DISABLED');
      expect((await at({ Authorization: `Bearer ${t.token}` })).status).toBe(404);
    }
  });

  it('a broken percent escape → 400 BAD_REQUEST envelope, with no error or stack in the log', async () => {
    const log = logSink();
    const logging = await startTestServer({ logLevel: 'info', logStream: log.stream, conversions: false });
    try {
      for (const path of ['/%', '/%E0%A4%A', '/api/v1/%', '/api/v1/files/%E0%A4%A', '/abcdefabcdef/hls/%E0']) {
        const res = await rawRequest(`${logging.fileHost}${path}`, {
          headers: { Authorization: `Bearer ${logging.token}` },
        });
        expect([path, res.status]).toEqual([path, 400]);
        const envelope = ErrorEnvelopeSchema.parse(res.json);
        expect(envelope.error).toEqual({ code: 'BAD_REQUEST', message: expect.stringContaining('percent escape') });
        expect(res.headers['x-request-id']).toBe(envelope.request_id);
      }
      expect(log.text()).not.toMatch(/"level":50|\bat .*\.(ts|js):\d+/);
    } finally {
      await logging.close();
    }
  });

  it('malformed JSON → 422 VALIDATION_ERROR envelope without a stack trace', async () => {
    const file = await t.upload({}, { filename: 'a.txt', content: Buffer.from('hello') });
    const res = await t.api(`/files/${file.json.data.id}`, {
      method: 'PATCH',
      body: '{"name": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('VALIDATION_ERROR');
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('a JSON body that is not an object → 422', async () => {
    const res = await t.api('/remote-uploads', { method: 'POST', json: ['http://x.example/a.mp4'] });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('VALIDATION_ERROR');
  });

  it('an unsupported content type → 422 envelope', async () => {
    const res = await t.api('/remote-uploads', {
      method: 'POST',
      body: 'urls=http://x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('VALIDATION_ERROR');
  });
});

describe('connections that never finish their headers', () => {
  it('are answered 408 and closed after the headers timeout', async () => {
    const quick = await startTestServer({ headersTimeoutMs: 500 });
    try {
      const { port } = new URL(quick.baseUrl);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.write('GET /api/v1/account HTTP/1.1\r\nHost: x\r\n'),
        );
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    } finally {
      await quick.close();
    }
  });
});
