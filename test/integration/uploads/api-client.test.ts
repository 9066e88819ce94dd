import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/api-client/api-error.js';
import { MediaApiClient } from '../../../src-main/api-client/media-api-client.js';
import { requestsTo, startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

describe('MediaApiClient: tolerant of what the spec leaves open, strict about what it promises', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  let client: MediaApiClient;

  beforeEach(async () => {
    server = await startTestServer();
    proxy = await startFaultProxy(new URL(server.baseUrl).origin);
    client = new MediaApiClient({ baseUrl: `${proxy.url}/api/v1/`, token: server.token });
  });

  afterEach(async () => {
    await client.close();
    await proxy.close();
    await server.close();
  });

  const answer = (status: number, body: unknown) =>
    proxy.addRule({ match: requestsTo('/api/v1/account'), fault: { kind: 'status', status, body } });

  it('reads every field of the real server and keeps fields it does not know', async () => {
    const account = await client.getAccount();
    expect(account).toMatchObject({ username: 'demo', files: 0, remote_jobs: { pending: 0 } });
    answer(200, { success: true, data: { ...account, plan: 'premium', avatar: 'x.png' } });
    expect(await client.getAccount()).toMatchObject({ plan: 'premium', avatar: 'x.png' });
  });

  it('turns a malformed answer into a clear, non-retryable BAD_RESPONSE', async () => {
    answer(200, { success: true, data: { id: 7 } });
    const error = (await client.getAccount().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'BAD_RESPONSE', status: 200, retryable: false });
    expect(error.message).toMatch(/^The server's answer to GET \/account is not what the API describes: /);
  });

  it('stops reading an answer larger than any API answer, says it is not one, and goes on', async () => {
    const account = await client.getAccount();
    // valid, read whole: only the cut (4 MiB) makes it fail
    answer(200, Buffer.from(JSON.stringify({ success: true, data: { ...account, padding: 'x'.repeat(6 * 2 ** 20) } })));
    await expect(client.getAccount()).rejects.toMatchObject({ code: 'BAD_RESPONSE', status: 200, retryable: false });
    expect(await client.getAccount()).toMatchObject({ username: 'demo' });
  });

  it('reports a non-JSON error page by its status, and an error envelope by its code and request id', async () => {
    answer(404, '<html>not here</html>');
    await expect(client.getAccount()).rejects.toMatchObject({
      code: 'HTTP_ERROR',
      status: 404,
      message: 'GET /account failed with HTTP 404 and no error details.',
    });
    const missing = (await client.getFile('nope').catch((e: unknown) => e)) as ApiError;
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404, retryable: false });
    expect(missing.describe()).toMatch(/\(request id [0-9a-f-]{36}\)$/);
  });

  it('never lets the token into an error, even when a server echoes it back', async () => {
    answer(403, {
      success: false,
      error: { code: 'TOKEN_DISABLED', message: `token ${server.token} is disabled` },
      request_id: '3f0e2a4c-8b1d-4c5e-9f6a-7b8c9d0e1f2a',
    });
    const error = (await client.getAccount().catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('token [redacted] is disabled');
    expect(JSON.stringify(error) + String(error.stack)).not.toContain(server.token);
  });

  it('refuses a base URL that is not http(s) or does not end with /api/v1, before any request', () => {
    expect(() => new MediaApiClient({ baseUrl: 'ftp://x/api/v1', token: 't' })).toThrow(/http:\/\/ or https:\/\//);
    expect(() => new MediaApiClient({ baseUrl: 'https://x/api', token: 't' })).toThrow(/must end with \/api\/v1/);
    expect(() => new MediaApiClient({ baseUrl: 'not a url', token: 't' })).toThrow(/Not a URL/);
    expect(proxy.requests).toEqual([]);
  });
});
