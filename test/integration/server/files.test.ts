import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileDetailSchema, FileSchema, FileStatusSchema, type MediaFile } from '../../../src-shared/api/index.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { openWithPassword, startTestServer, type TestServer } from '../../helpers/test-server.js';

let t: TestServer;
let other: string;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: 10_000, conversions: false });
  other = t.newAccount('other');
});
afterAll(() => t.close());

async function uploadText(name: string, content = `content of ${name}`, token = t.token) {
  const res = await t.upload({}, { filename: name, content: Buffer.from(content) }, token);
  expect(res.status).toBe(201);
  return FileSchema.parse(res.json.data);
}

describe('File fields', () => {
  it('a stored file has every field of the spec, with links on the file host', async () => {
    const file = await uploadText('report.txt', 'twelve bytes');
    expect(file).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
      name: 'report.txt',
      filename: 'report.txt',
      mime: 'text/plain',
      extension: 'txt',
      size_bytes: 12,
      visibility: 'private',
      password_protected: false,
      allow_online_watch: true,
      downloads: 0,
      stream_views: 0,
      urls: {
        page: `${t.fileHost}/${file.id}/file`,
        watch: `${t.fileHost}/${file.id}/watch`,
        embed: `${t.fileHost}/${file.id}/embed`,
      },
    });
  });

  it('list items do not carry description; GET /files/{id} does', async () => {
    const file = await uploadText('described.txt');
    await t.api(`/files/${file.id}`, { method: 'PATCH', json: { description: 'about it' } });
    const list = await t.api('/files?search=described');
    expect(list.json.data[0]).not.toHaveProperty('description');
    const one = await t.api(`/files/${file.id}`);
    expect(FileDetailSchema.parse(one.json.data).description).toBe('about it');
  });
});

describe('GET /account counters', () => {
  it('count files and bytes from the stored rows', async () => {
    const token = t.newAccount('counter');
    await uploadText('a.txt', 'aaaa', token);
    await uploadText('b.txt', 'bbbbbb', token);
    const account = (await t.api('/account', { token })).json.data;
    expect([account.username, account.files, account.storage_bytes]).toEqual(['counter', 2, 10]);
  });
});

describe('GET /files', () => {
  let token: string;
  beforeAll(async () => {
    token = t.newAccount('lister');
    for (let i = 1; i <= 30; i++) await uploadText(`clip-${String(i).padStart(2, '0')}.txt`, 'x', token);
    await uploadText('100%_real.txt', 'x', token);
  });

  it('pages with meta: 31 files, 25 per page by default', async () => {
    const first = await t.api('/files', { token });
    expect(first.json.meta).toEqual({ current_page: 1, last_page: 2, per_page: 25, total: 31 });
    expect(first.json.data).toHaveLength(25);
    const second = await t.api('/files?page=2', { token });
    expect(second.json.data).toHaveLength(6);
    const ids = new Set([...first.json.data, ...second.json.data].map((f: { id: string }) => f.id));
    expect(ids.size).toBe(31);
  });

  it('a page past the last is empty with the right meta', async () => {
    const res = await t.api('/files?page=9&per_page=10', { token });
    expect(res.json.data).toEqual([]);
    expect(res.json.meta).toEqual({ current_page: 9, last_page: 4, per_page: 10, total: 31 });
  });

  it('search filters by name or stored filename, % and _ taken literally', async () => {
    expect((await t.api('/files?search=clip-1', { token })).json.meta.total).toBe(10);
    expect((await t.api('/files?search=100%25_', { token })).json.data.map((f: { name: string }) => f.name)).toEqual([
      '100%_real.txt',
    ]);
    expect((await t.api('/files?search=%25', { token })).json.meta.total).toBe(1);
    const renamed = (await t.api('/files?search=clip-30', { token })).json.data[0];
    await t.api(`/files/${renamed.id}`, { token, method: 'PATCH', json: { name: 'Holiday' } });
    expect((await t.api('/files?search=clip-30', { token })).json.data[0].name).toBe('Holiday');
    expect((await t.api('/files?search=holi', { token })).json.data[0].filename).toBe('clip-30.txt');
  });

  it.each([
    ['page=1', 200],
    ['page=0', 422],
    ['per_page=100', 200],
    ['per_page=101', 422],
    ['per_page=1', 200],
    ['per_page=0', 422],
    ['page=abc', 422],
    [`search=${'s'.repeat(255)}`, 200],
    [`search=${'s'.repeat(256)}`, 422],
  ])('limit %s → %i', async (query, status) => {
    const res = await t.api(`/files?${query}`, { token });
    expect(res.status).toBe(status);
    if (status === 422) {
      expect(res.json.error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.json.error.details)).toEqual([query.split('=')[0]]);
    }
  });
});

describe('isolation between accounts', () => {
  it("another account's file is 404 NOT_FOUND for every route, never 403, and is not listed", async () => {
    const mine = await uploadText('mine.txt');
    for (const [method, path, json] of [
      ['GET', `/files/${mine.id}`],
      ['GET', `/files/${mine.id}/status`],
      ['PATCH', `/files/${mine.id}`, { name: 'stolen' }],
      ['DELETE', `/files/${mine.id}`],
    ] as const) {
      const res = await t.api(path, { method, json, token: other });
      expect([res.status, res.json.error.code]).toEqual([404, 'NOT_FOUND']);
    }
    expect((await t.api('/files', { token: other })).json.data.map((f: { id: string }) => f.id)).not.toContain(mine.id);
    expect((await t.api(`/files/${mine.id}`)).json.data.name).toBe('mine.txt');
  });
});

describe('GET /files/{id}/status', () => {
  it('has the file part and no conversion when no conversion job exists', async () => {
    const file = await uploadText('plain.txt');
    const res = await t.api(`/files/${file.id}/status`);
    expect(FileStatusSchema.parse(res.json.data)).toEqual({
      file: { id: file.id, name: 'plain.txt', allow_online_watch: true },
    });
  });
});

describe('PATCH /files/{id}', () => {
  it('changes only the fields sent and answers the updated file', async () => {
    const file = await uploadText('edit-me.txt');
    const res = await t.api(`/files/${file.id}`, {
      method: 'PATCH',
      json: { name: 'Edited', visibility: true, allow_online_watch: false, description: 'd' },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      id: file.id,
      name: 'Edited',
      filename: 'edit-me.txt',
      visibility: 'public',
      allow_online_watch: false,
      description: 'd',
    });
    const again = await t.api(`/files/${file.id}`, { method: 'PATCH', json: { visibility: false } });
    expect(again.json.data).toMatchObject({ name: 'Edited', visibility: 'private', allow_online_watch: false });
  });

  it('sets, changes and removes a password (null removes it)', async () => {
    const file = await uploadText('secret.txt');
    expect(
      (await t.api(`/files/${file.id}`, { method: 'PATCH', json: { password: 'hunter2' } })).json.data
        .password_protected,
    ).toBe(true);
    expect((await rawRequest(`${t.fileHost}/${file.id}/file`)).status).toBe(401);
    expect((await openWithPassword(`${t.fileHost}/${file.id}/file`, 'hunter2')).text).toBe('content of secret.txt');
    await t.api(`/files/${file.id}`, { method: 'PATCH', json: { password: 'changed' } });
    expect((await openWithPassword(`${t.fileHost}/${file.id}/file`, 'hunter2')).status).toBe(401);
    const removed = await t.api(`/files/${file.id}`, { method: 'PATCH', json: { password: null } });
    expect(removed.json.data.password_protected).toBe(false);
    expect((await rawRequest(`${t.fileHost}/${file.id}/file`)).status).toBe(200);
  });

  it('description null clears it', async () => {
    const file = await uploadText('desc.txt');
    await t.api(`/files/${file.id}`, { method: 'PATCH', json: { description: 'x' } });
    expect(
      (await t.api(`/files/${file.id}`, { method: 'PATCH', json: { description: null } })).json.data.description,
    ).toBeNull();
  });

  it.each([
    [{ name: 'n'.repeat(255) }, 200],
    [{ name: 'n'.repeat(256) }, 422],
    [{ name: '🎞'.repeat(255) }, 200],
    [{ description: 'd'.repeat(1000) }, 200],
    [{ description: 'd'.repeat(1001) }, 422],
    [{ visibility: 'public' }, 422],
    [{ allow_online_watch: 'yes' }, 422],
    [{ password: '' }, 422],
    [{ unknown_field: 1 }, 422],
  ])('%o → %i', async (json, status) => {
    const file = await uploadText('limits.txt');
    const res = await t.api(`/files/${file.id}`, { method: 'PATCH', json });
    expect(res.status).toBe(status);
    if (status === 422) expect(res.json.error.details).toBeDefined();
  });

  it('drops control and direction characters from a name, as an upload does; a name of nothing else is 422', async () => {
    const uploaded = await t.upload({}, { filename: 'clip\u202egpj.txt', content: Buffer.from('x') });
    expect(uploaded.json.data).toMatchObject({ name: 'clipgpj.txt', filename: 'clipgpj.txt' });
    const file = uploaded.json.data as MediaFile;
    const renamed = await t.api(`/files/${file.id}`, { method: 'PATCH', json: { name: 'Holiday\u202e4pm.mp4\u0000' } });
    expect([renamed.status, renamed.json.data.name]).toEqual([200, 'Holiday4pm.mp4']);
    const empty = await t.api(`/files/${file.id}`, { method: 'PATCH', json: { name: '\u202e\u0000' } });
    expect([empty.status, empty.json.error.details]).toEqual([422, { name: ['must not be blank'] }]);
    expect((await t.api(`/files/${file.id}`)).json.data.name).toBe('Holiday4pm.mp4');
  });

  it('a refused PATCH changes nothing', async () => {
    const file = await uploadText('unchanged.txt');
    await t.api(`/files/${file.id}`, { method: 'PATCH', json: { name: 'ok', description: 'd'.repeat(1001) } });
    expect((await t.api(`/files/${file.id}`)).json.data.name).toBe('unchanged.txt');
  });
});

describe('DELETE /files/{id}', () => {
  it('removes the row and the bytes, and a second delete is 404', async () => {
    const file = await uploadText('doomed.txt');
    expect((await rawRequest(file.urls.page)).status).toBe(200);
    const res = await t.api(`/files/${file.id}`, { method: 'DELETE' });
    expect(res.json).toMatchObject({ success: true, data: { id: file.id, deleted: true } });
    expect((await t.api(`/files/${file.id}`)).status).toBe(404);
    expect((await rawRequest(file.urls.page)).status).toBe(404);
    expect((await t.api(`/files/${file.id}`, { method: 'DELETE' })).status).toBe(404);
  });
});
