import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: 1000 });
});
afterAll(() => t.close());

const token = (flags: Record<string, unknown>) =>
  t.admin(['token', 'create'], { account: 'demo', ...flags }).token as string;

describe('Authentication (spec table of errors)', () => {
  it('401 UNAUTHENTICATED: missing Bearer token', async () => {
    const res = await t.api('/account', { token: null });
    expect([res.status, res.json.error.code]).toEqual([401, 'UNAUTHENTICATED']);
  });

  it('401 UNAUTHENTICATED: invalid Bearer token', async () => {
    const res = await t.api('/account', { token: 'mfs_not-a-real-token' });
    expect([res.status, res.json.error.code]).toEqual([401, 'UNAUTHENTICATED']);
  });

  it('401 UNAUTHENTICATED: a scheme other than Bearer', async () => {
    const res = await t.api('/account', { token: null, headers: { Authorization: `Basic ${t.token}` } });
    expect(res.status).toBe(401);
  });

  it('403 TOKEN_DISABLED: token disabled', async () => {
    const res = await t.api('/account', { token: token({ disabled: true }) });
    expect([res.status, res.json.error.code]).toEqual([403, 'TOKEN_DISABLED']);
  });

  it('a token disabled while in use is refused from the next request on, and works again when enabled', async () => {
    const live = token({});
    expect((await t.api('/account', { token: live })).status).toBe(200);
    t.admin(['token', 'disable'], { token: live });
    expect((await t.api('/account', { token: live })).json.error.code).toBe('TOKEN_DISABLED');
    t.admin(['token', 'enable'], { token: live });
    expect((await t.api('/account', { token: live })).status).toBe(200);
  });

  it('403 TOKEN_EXPIRED: token expired', async () => {
    const shortLived = token({ 'expires-in': '1' });
    expect((await t.api('/account', { token: shortLived })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await t.api('/account', { token: shortLived });
    expect([res.status, res.json.error.code]).toEqual([403, 'TOKEN_EXPIRED']);
  });

  it('403 IP_NOT_ALLOWED: the request comes from outside the allow-list (IPv4 and IPv6 ranges)', async () => {
    for (const ip of ['10.0.0.0/8', '2001:db8::/32', '10.0.0.0/8,2001:db8::/32']) {
      const res = await t.api('/account', { token: token({ ip }) });
      expect([res.status, res.json.error.code]).toEqual([403, 'IP_NOT_ALLOWED']);
    }
  });

  it('an allow-list that holds the client address lets it in', async () => {
    for (const ip of ['127.0.0.0/8', '127.0.0.1', '10.0.0.0/8,127.0.0.1/32', '::ffff:127.0.0.1/128']) {
      expect((await t.api('/account', { token: token({ ip }) })).status).toBe(200);
    }
  });

  describe('403 TOKEN_ABILITY_DENIED: each endpoint needs its permission', () => {
    const jobId = '0b7c7e8e-0d0a-4c36-9a53-bd7d1c3f9a11';
    const routes: [string, string, string, unknown?][] = [
      ['GET', '/account', 'files:read'],
      ['GET', '/files', 'files:read'],
      ['GET', '/files/x', 'files:read'],
      ['GET', '/files/x/status', 'files:read'],
      ['PATCH', '/files/x', 'files:write', { name: 'n' }],
      ['DELETE', '/files/x', 'files:write'],
      ['POST', '/files/upload', 'files:write'],
      ['GET', '/remote-uploads', 'files:read'],
      ['GET', `/remote-uploads/${jobId}`, 'files:read'],
      ['POST', '/remote-uploads', 'remote:write', { urls: ['https://v.example/a.mp4'] }],
      ['POST', `/remote-uploads/${jobId}/cancel`, 'remote:write'],
      ['POST', `/remote-uploads/${jobId}/retry`, 'remote:write'],
    ];
    const others: Record<string, string> = {
      'files:read': 'files:write,remote:write',
      'files:write': 'files:read,remote:write',
      'remote:write': 'files:read,files:write',
    };

    it.each(routes)('%s %s needs %s', async (method, path, permission, json) => {
      const without = await t.api(path, { method, json, token: token({ abilities: others[permission] }) });
      expect([without.status, without.json.error.code]).toEqual([403, 'TOKEN_ABILITY_DENIED']);
      expect(without.json.error.message).toContain(permission);
      const withIt = await t.api(path, { method, json, token: token({ abilities: permission }) });
      expect(withIt.json?.error?.code).not.toBe('TOKEN_ABILITY_DENIED');
    });
  });

  it('the token never appears in an error message', async () => {
    const disabled = token({ disabled: true });
    const res = await t.api('/account', { token: disabled });
    expect(res.text).not.toContain(disabled);
  });
});

describe('503 API_DISABLED', () => {
  it('answers every request while an administrator has the API off, and recovers when it is on', async () => {
    t.admin(['api', 'disable']);
    try {
      for (const path of ['/account', '/files']) {
        const res = await t.api(path);
        expect([res.status, res.json.error.code]).toEqual([503, 'API_DISABLED']);
        expect(res.headers['x-request-id']).toBe(res.json.request_id);
      }
    } finally {
      t.admin(['api', 'enable']);
    }
    expect((await t.api('/account')).status).toBe(200);
  });
});

describe('IP allow-list over IPv6', () => {
  let v6: TestServer;
  beforeAll(async () => {
    v6 = await startTestServer({ host: '::1', rateLimit: 1000, conversions: false });
  });
  afterAll(() => v6.close());

  it('lets ::1 in through an IPv6 range and refuses it with an IPv4-only list', async () => {
    expect(v6.baseUrl).toMatch(/^http:\/\/\[::1\]:\d+\/api\/v1$/);
    const allowed = v6.admin(['token', 'create'], { account: 'demo', ip: '::1/128' }).token as string;
    const ipv4Only = v6.admin(['token', 'create'], { account: 'demo', ip: '127.0.0.0/8' }).token as string;
    const range = v6.admin(['token', 'create'], { account: 'demo', ip: '2001:db8::/32' }).token as string;
    expect((await v6.api('/account', { token: allowed })).status).toBe(200);
    expect((await v6.api('/account', { token: ipv4Only })).json.error.code).toBe('IP_NOT_ALLOWED');
    expect((await v6.api('/account', { token: range })).json.error.code).toBe('IP_NOT_ALLOWED');
  });
});
