import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteJobSchema, type RemoteJob } from '../../../src-shared/api/index.js';
import { startLocalHttpServer, waitFor, type LocalHttpServer } from '../../helpers/local-http-server.js';
import { fakeMp4, serve, stalling } from '../../helpers/media-fixtures.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { openWithPassword, sha256, startTestServer, type TestServer } from '../../helpers/test-server.js';

let t: TestServer;
let source: LocalHttpServer;
const clip = fakeMp4(300_000);
const slow = stalling(fakeMp4(200_000), 100_000);

beforeAll(async () => {
  source = await startLocalHttpServer();
  source.route('/media/clip.mp4', serve(clip, 'video/mp4'));
  source.route('/media/slow.mp4', slow.handler);
  source.route(
    '/download',
    serve(clip, 'application/octet-stream', { 'content-disposition': 'attachment; filename="Holiday Trip.mp4"' }),
  );
  t = await startTestServer({ allowPrivateTargets: true, rateLimit: 10_000, conversions: false, remoteConcurrency: 1 });
});
afterAll(async () => {
  slow.release();
  await t.close();
  await source.close();
});

const create = (json: unknown, token = t.token) => t.api('/remote-uploads', { method: 'POST', json, token });
const job = async (id: string, token = t.token): Promise<RemoteJob> =>
  RemoteJobSchema.parse((await t.api(`/remote-uploads/${id}`, { token })).json.data);
const until = (id: string, statuses: string[], token = t.token) =>
  waitFor(
    async () => {
      const current = await job(id, token);
      return statuses.includes(current.status) ? current : undefined;
    },
    15_000,
    `job ${id} to be ${statuses.join(' or ')}`,
  );

describe('POST /remote-uploads', () => {
  it('202: one pending job per URL, stage queued, attempts 0, nothing known yet', async () => {
    const token = t.newAccount('importer');
    const res = await create({ urls: [`${source.origin}/missing/a.mp4`, `${source.origin}/missing/b%20c.mp4`] }, token);
    expect(res.status).toBe(202);
    expect(res.json.success).toBe(true);
    expect(res.json.message).toEqual(expect.any(String));
    expect(res.json.data.map((j: unknown) => RemoteJobSchema.parse(j))).toEqual([
      expect.objectContaining({ host: '127.0.0.1', name: 'a.mp4' }),
      expect.objectContaining({ host: '127.0.0.1', name: 'b c.mp4' }),
    ]);
    for (const created of res.json.data) {
      expect(created).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        host: '127.0.0.1',
        name: expect.any(String),
        status: 'pending',
        stage: 'queued',
        attempts: 0,
        bytes_downloaded: 0,
        bytes_total: null,
        progress_percent: null,
        error: null,
        file_id: null,
      });
    }
  });

  describe('limits', () => {
    const url = () => `${source.origin}/missing/x.mp4`;
    it.each([
      ['no urls', 422, 'urls', () => ({ urls: [] })],
      ['50 urls', 202, null, () => ({ urls: Array.from({ length: 50 }, url) })],
      ['51 urls', 422, 'urls', () => ({ urls: Array.from({ length: 51 }, url) })],
      ['name of 240 characters', 202, null, () => ({ urls: [url()], name: 'n'.repeat(240) })],
      ['name of 241 characters', 422, 'name', () => ({ urls: [url()], name: 'n'.repeat(241) })],
      ['description of 1000 characters', 202, null, () => ({ urls: [url()], description: 'd'.repeat(1000) })],
      ['description of 1001 characters', 422, 'description', () => ({ urls: [url()], description: 'd'.repeat(1001) })],
      ['250 blocked countries', 202, null, () => ({ urls: [url()], blocked_countries: Array(250).fill('DE') })],
      [
        '251 blocked countries',
        422,
        'blocked_countries',
        () => ({ urls: [url()], blocked_countries: Array(251).fill('DE') }),
      ],
      [
        'a three-letter country code',
        422,
        'blocked_countries.0',
        () => ({ urls: [url()], blocked_countries: ['DEU'] }),
      ],
      ['a URL that is not http(s)', 422, 'urls.0', () => ({ urls: ['ftp://files.example/a.mp4'] })],
      ['a URL with credentials', 422, 'urls.0', () => ({ urls: ['http://user:pw@files.example/a.mp4'] })],
      ['urls not an array', 422, 'urls', () => ({ urls: url() })],
      ['visibility not a boolean', 422, 'visibility', () => ({ urls: [url()], visibility: 1 })],
      ['an unknown field', 422, 'body', () => ({ urls: [url()], folder: 3 })],
      ['no body', 422, 'body', () => undefined],
    ])('%s → %s', async (_label, status, field, body) => {
      const res = await create(body(), t.newAccount(`limits-${Math.random().toString(36).slice(2)}`));
      expect(res.status).toBe(status);
      if (field) expect(Object.keys(res.json.error.details)).toContain(field);
      else expect(res.json.data.length).toBeGreaterThan(0);
    });
  });

  it("folder_id must be one of the account's folders", async () => {
    const theirs = t.admin(['folder', 'create'], { account: 'demo' }).folder_id as number;
    t.newAccount('foldered');
    const mine = t.admin(['folder', 'create'], { account: 'foldered' }).folder_id as number;
    const token = t.admin(['token', 'create'], { account: 'foldered' }).token as string;
    const refused = await create({ urls: [`${source.origin}/missing/f.mp4`], folder_id: theirs }, token);
    expect(refused.status).toBe(422);
    expect(refused.json.error.details.folder_id).toBeDefined();
    expect((await create({ urls: [`${source.origin}/missing/f.mp4`], folder_id: mine }, token)).status).toBe(202);
  });
});

describe('import end to end from a local source', () => {
  it('downloads the URL, applies every option to the new file and sets file_id', async () => {
    const folder = t.admin(['folder', 'create'], { account: 'demo' }).folder_id as number;
    const res = await create({
      urls: [`${source.origin}/media/clip.mp4`],
      name: 'Imported clip',
      description: 'from the web',
      folder_id: folder,
      visibility: true,
      allow_online_watch: false,
      password: 'open sesame',
      blocked_countries: ['de', 'FR'],
    });
    expect(res.status).toBe(202);
    const done = await until(res.json.data[0].id, ['completed', 'failed']);
    expect(done).toMatchObject({
      status: 'completed',
      stage: 'completed',
      attempts: 1,
      bytes_downloaded: clip.length,
      bytes_total: clip.length,
      progress_percent: 100,
      error: null,
      file_id: expect.any(String),
    });
    const file = (await t.api(`/files/${done.file_id}`)).json.data;
    expect(file).toMatchObject({
      name: 'Imported clip',
      filename: 'Imported clip.mp4',
      description: 'from the web',
      mime: 'video/mp4',
      size_bytes: clip.length,
      visibility: 'public',
      allow_online_watch: false,
      password_protected: true,
    });
    const bytes = await openWithPassword(file.urls.page, 'open sesame');
    expect(sha256(bytes.body)).toBe(sha256(clip));
    const blocked = await openWithPassword(file.urls.page, 'open sesame', { 'CF-IPCountry': 'DE' });
    expect(blocked.status).toBe(451);
    expect((await rawRequest(file.urls.watch)).status).toBe(401);
  });

  it("names the stored file after the source's Content-Disposition when it sends one", async () => {
    const res = await create({ urls: [`${source.origin}/download`] });
    const done = await until(res.json.data[0].id, ['completed', 'failed']);
    const file = (await t.api(`/files/${done.file_id}`)).json.data;
    expect([done.name, file.name, file.filename]).toEqual(['download', 'download', 'Holiday Trip.mp4']);
  });

  it('fails with a readable error when the source answers 404, and counts it on the account', async () => {
    const token = t.newAccount('unlucky');
    const res = await create({ urls: [`${source.origin}/missing/gone.mp4`] }, token);
    const failed = await until(res.json.data[0].id, ['failed', 'completed'], token);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'SOURCE_HTTP_ERROR', message: 'the source answered HTTP 404' },
    });
    expect((await t.api('/account', { token })).json.data.remote_jobs).toEqual({
      pending: 0,
      running: 0,
      completed: 0,
      failed: 1,
    });
  });
});

describe('GET /remote-uploads', () => {
  it('pages the account’s jobs, newest first, with meta', async () => {
    const token = t.newAccount('pager');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await create({ urls: [`${source.origin}/missing/${i}.mp4`] }, token)).json.data[0].id);
    const page = await t.api('/remote-uploads?per_page=2', { token });
    expect(page.json.meta).toEqual({ current_page: 1, last_page: 2, per_page: 2, total: 3 });
    expect(page.json.data.map((j: RemoteJob) => j.id)).toEqual([ids[2], ids[1]]);
    expect((await t.api('/remote-uploads?page=2&per_page=2', { token })).json.data.map((j: RemoteJob) => j.id)).toEqual(
      [ids[0]],
    );
    expect((await t.api('/remote-uploads?per_page=101', { token })).status).toBe(422);
    expect((await t.api('/remote-uploads?page=0', { token })).status).toBe(422);
  });

  it("another account's job, an unknown and a malformed id are all 404", async () => {
    const mine = (await create({ urls: [`${source.origin}/missing/own.mp4`] })).json.data[0].id;
    const other = t.newAccount('snoop');
    for (const [method, path] of [
      ['GET', `/remote-uploads/${mine}`],
      ['POST', `/remote-uploads/${mine}/cancel`],
      ['POST', `/remote-uploads/${mine}/retry`],
      ['GET', '/remote-uploads/00000000-0000-4000-8000-000000000000'],
      ['GET', '/remote-uploads/not-a-uuid'],
    ] as const) {
      const res = await t.api(path, { method, token: other });
      expect([res.status, res.json.error.code]).toEqual([404, 'NOT_FOUND']);
    }
    expect((await t.api('/remote-uploads', { token: other })).json.meta.total).toBe(0);
  });
});

describe('remote job transitions', () => {
  it('running: shows progress, cancel is requested (stage cancelling), then the job is cancelled', async () => {
    const token = t.newAccount('canceller');
    const id = (await create({ urls: [`${source.origin}/media/slow.mp4`] }, token)).json.data[0].id;
    const running = await waitFor(
      async () => {
        const current = await job(id, token);
        return current.bytes_downloaded >= 100_000 ? current : undefined;
      },
      15_000,
      'download progress',
    );
    expect(running).toMatchObject({
      status: 'running',
      stage: 'downloading',
      bytes_total: 200_000,
      progress_percent: 50,
    });

    const cancel = await t.api(`/remote-uploads/${id}/cancel`, { method: 'POST', token });
    expect(cancel.status).toBe(200);
    expect(['running', 'cancelled']).toContain(cancel.json.data.status);
    if (cancel.json.data.status === 'running') expect(cancel.json.data.stage).toBe('cancelling');
    const cancelled = await until(id, ['cancelled', 'completed', 'failed'], token);
    expect(cancelled).toMatchObject({ status: 'cancelled', file_id: null });
    expect((await t.api('/files', { token })).json.meta.total).toBe(0);

    const again = await t.api(`/remote-uploads/${id}/cancel`, { method: 'POST', token });
    expect([again.status, again.json.error.code]).toEqual([409, 'REMOTE_JOB_NOT_CANCELLABLE']);
  });

  it('pending → cancelled at once; cancelled → retry → pending, queued', async () => {
    const token = t.newAccount('queue-jumper');
    // The only worker is busy with a stalled download, so the second job stays pending.
    const blocker = (await create({ urls: [`${source.origin}/media/slow.mp4`] }, token)).json.data[0].id;
    await until(blocker, ['running'], token);
    const id = (await create({ urls: [`${source.origin}/media/clip.mp4`] }, token)).json.data[0].id;
    const cancel = await t.api(`/remote-uploads/${id}/cancel`, { method: 'POST', token });
    expect(cancel.json.data).toMatchObject({ status: 'cancelled' });

    const retry = await t.api(`/remote-uploads/${id}/retry`, { method: 'POST', token });
    expect(retry.status).toBe(200);
    expect(retry.json.data).toMatchObject({ status: 'pending', stage: 'queued', bytes_downloaded: 0, error: null });

    await t.api(`/remote-uploads/${blocker}/cancel`, { method: 'POST', token });
    const done = await until(id, ['completed', 'failed'], token);
    expect(done.status).toBe('completed');
  });

  it('completed: cancel is 409 REMOTE_JOB_NOT_CANCELLABLE and retry is 409 REMOTE_JOB_NOT_RETRYABLE', async () => {
    const id = (await create({ urls: [`${source.origin}/media/clip.mp4`] })).json.data[0].id;
    await until(id, ['completed']);
    const cancel = await t.api(`/remote-uploads/${id}/cancel`, { method: 'POST' });
    expect([cancel.status, cancel.json.error.code]).toEqual([409, 'REMOTE_JOB_NOT_CANCELLABLE']);
    const retry = await t.api(`/remote-uploads/${id}/retry`, { method: 'POST' });
    expect([retry.status, retry.json.error.code]).toEqual([409, 'REMOTE_JOB_NOT_RETRYABLE']);
  });

  it('failed → retry → pending, and the next attempt is counted', async () => {
    const id = (await create({ urls: [`${source.origin}/media/late.mp4`] })).json.data[0].id;
    const failed = await until(id, ['failed']);
    expect(failed.attempts).toBe(1);
    source.route('/media/late.mp4', serve(clip, 'video/mp4'));
    const retry = await t.api(`/remote-uploads/${id}/retry`, { method: 'POST' });
    expect(retry.json.data).toMatchObject({ status: 'pending', stage: 'queued', error: null });
    const done = await until(id, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'completed', attempts: 2 });
  });
});
