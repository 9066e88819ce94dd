import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadLogEntry } from '../../../src-server/http/traffic-log.js';
import { multipart } from '../../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { waitFor } from '../../helpers/local-http-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: 3, rateWindowMs: 60_000, conversions: false });
});
afterAll(() => t.close());

function uploadsOf(dzuuid: string): UploadLogEntry[] {
  return t.server.uploadLog.entries().filter((entry) => entry.dzuuid === dzuuid);
}

describe('upload log', () => {
  it('holds every chunk of a chunked upload with its fields, bytes and status', async () => {
    // Each test uses a fresh account: the rate limit of this server is 3 per window.
    const token = t.newAccount('chunker');
    const content = randomBytes(2500);
    const dzuuid = randomUUID();
    const statuses = [];
    for (const index of [2, 0, 1]) {
      const fields = {
        dzuuid,
        dzchunkindex: index,
        dztotalchunkcount: 3,
        dzchunksize: 1000,
        dztotalfilesize: content.length,
        dzchunkbyteoffset: index * 1000,
      };
      const bytes = content.subarray(index * 1000, (index + 1) * 1000);
      statuses.push((await t.upload(fields, { filename: 'dir/clip.mp4', content: bytes }, token)).status);
    }
    expect(statuses).toEqual([200, 200, 201]);

    const before = Date.now();
    expect(uploadsOf(dzuuid)).toEqual([
      { dzuuid, chunkIndex: 2, totalChunks: 3, fileName: 'clip.mp4', bytes: 500, status: 200, at: expect.any(Number) },
      { dzuuid, chunkIndex: 0, totalChunks: 3, fileName: 'clip.mp4', bytes: 1000, status: 200, at: expect.any(Number) },
      { dzuuid, chunkIndex: 1, totalChunks: 3, fileName: 'clip.mp4', bytes: 1000, status: 201, at: expect.any(Number) },
    ]);
    for (const entry of uploadsOf(dzuuid)) {
      expect(entry.at).toBeLessThanOrEqual(before);
      expect(entry.at).toBeGreaterThan(before - 60_000);
    }
  });

  it('holds a single-request upload and one the handler refused, but not one the gate refused', async () => {
    const token = t.newAccount('single');
    t.server.uploadLog.clear();
    expect((await t.upload({}, { filename: 'one.txt', content: Buffer.from('hello') }, token)).status).toBe(201);
    expect((await t.upload({ dzuuid: 'x' }, { filename: 'bad.txt', content: Buffer.from('x') }, token)).status).toBe(
      422,
    );
    expect((await t.upload({}, { filename: 'anon.txt', content: Buffer.from('x') }, 'not-a-token')).status).toBe(401);

    expect(t.server.uploadLog.entries()).toEqual([
      {
        dzuuid: null,
        chunkIndex: null,
        totalChunks: null,
        fileName: 'one.txt',
        bytes: 5,
        status: 201,
        at: expect.any(Number),
      },
      // Refused on its fields before the file part was read.
      {
        dzuuid: 'x',
        chunkIndex: null,
        totalChunks: null,
        fileName: 'bad.txt',
        bytes: 0,
        status: 422,
        at: expect.any(Number),
      },
    ]);
  });

  it('logs status 0 for an upload whose client went away mid-body', async () => {
    const dzuuid = randomUUID();
    const content = randomBytes(1_000_000);
    const fields = {
      dzuuid,
      dzchunkindex: 0,
      dztotalchunkcount: 1,
      dzchunksize: content.length,
      dztotalfilesize: content.length,
      dzchunkbyteoffset: 0,
    };
    const { body, contentType } = multipart(fields, { filename: 'cut.bin', content });
    const { port } = new URL(t.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/v1/files/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.newAccount('leaver')}\r\n` +
        `Content-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.subarray(0, 200_000));
    // Leave only once the handler is storing the file part, so the request surely reached it.
    const tmp = join(t.dataDir, 'tmp');
    await waitFor(
      () => (readdirSync(tmp).some((name) => statSync(join(tmp, name)).size > 0) ? true : undefined),
      5_000,
      'the first bytes on disk',
      10,
    );
    socket.destroy();

    const entry = await waitFor(() => uploadsOf(dzuuid)[0], 5_000, 'the log entry', 10);
    expect(entry).toMatchObject({ dzuuid, chunkIndex: 0, totalChunks: 1, fileName: 'cut.bin', status: 0 });
    expect(entry.bytes).toBeLessThan(content.length);
    const request = await waitFor(
      () => t.server.requestLog.entries().find((e) => e.path === '/api/v1/files/upload' && e.status === 0),
      5_000,
      'the log entry',
      10,
    );
    expect(request.method).toBe('POST');
  });
});

describe('request log', () => {
  it('holds every /api/v1 request with its status and no query string, a 429 included', async () => {
    const token = t.newAccount('counted');
    t.server.requestLog.clear();
    const started = Date.now();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.api('/files?search=secret&password=hunter2', { token })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await t.api('/nowhere', { token: null })).status).toBe(401);

    const entries = t.server.requestLog.entries();
    expect(entries.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      ...[200, 200, 200, 429].map((status) => ({ method: 'GET', path: '/api/v1/files', status })),
      { method: 'GET', path: '/api/v1/nowhere', status: 401 },
    ]);
    for (const entry of entries) {
      expect(entry.at).toBeGreaterThanOrEqual(started);
      expect(entry.at).toBeLessThanOrEqual(Date.now());
      expect(JSON.stringify(entry)).not.toContain(token);
    }
  });

  it('leaves out what is not /api/v1', async () => {
    t.server.requestLog.clear();
    await t.api('/account');
    const { status } = await fetch(`${t.fileHost}/nothing-here/file`);
    expect(status).toBe(404);
    expect(t.server.requestLog.entries().map((entry) => entry.path)).toEqual(['/api/v1/account']);
  });
});
