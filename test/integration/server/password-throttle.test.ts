import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaFile } from '../../../src-shared/api/index.js';
import { PASSWORD_TRIES, PASSWORD_WINDOW_MS } from '../../../src-server/file-host/file-host-routes.js';
import { postForm, rawRequest } from '../../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/** The server's clock, moved by the test: a minute passes without waiting one. */
let offsetMs = 0;
const clock = { now: () => Date.now() + offsetMs };

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: 10_000, conversions: false, clock });
});
afterAll(() => t.close());

async function locked(name: string, password: string): Promise<MediaFile> {
  const file = (await t.upload({}, { filename: name, content: randomBytes(10) })).json.data as MediaFile;
  expect((await t.api(`/files/${file.id}`, { method: 'PATCH', json: { password } })).status).toBe(200);
  return file;
}

/** Wrong passwords until the form refuses to look (at most one more than the limit); their statuses. */
async function guess(url: string, localAddress?: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i <= PASSWORD_TRIES && statuses.at(-1) !== 429; i++) {
    statuses.push((await postForm(url, { password: `guess-${i}` }, {}, localAddress)).status);
  }
  return statuses;
}

describe('the password form of a protected file', () => {
  it('takes 10 wrong tries a minute per file and client, then answers 429 with Retry-After and says how long to wait', async () => {
    const file = await locked('guarded.mp4', 'right-one');
    const first = await postForm(file.urls.page, { password: 'nope' });
    expect([first.status, first.text]).toEqual([401, expect.stringContaining('You can try 9 more times in the next')]);

    const statuses = await guess(file.urls.page);
    expect(statuses).toEqual([...Array<number>(PASSWORD_TRIES - 1).fill(401), 429]);

    const refused = await postForm(file.urls.page, { password: 'right-one' });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(PASSWORD_WINDOW_MS / 1000);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect(refused.headers['content-type']).toContain('text/html');
    expect(refused.text).toContain(`Too many tries for this file's password. Wait ${retryAfter} second`);
    // the form is still there for when the time is up
    expect(refused.text).toContain(`<form method="post" action="/${file.id}/file">`);

    // another file, and another client of the same file, are not held back
    const other = await locked('other.mp4', 'other-one');
    expect((await postForm(other.urls.page, { password: 'wrong' })).status).toBe(401);
    expect((await postForm(other.urls.page, { password: 'other-one' })).status).toBe(303);
    expect((await postForm(file.urls.page, { password: 'wrong' }, {}, '127.0.0.2')).status).toBe(401);
    expect((await postForm(file.urls.page, { password: 'right-one' }, {}, '127.0.0.3')).status).toBe(303);

    // once the window is over, the right password opens the file
    offsetMs += PASSWORD_WINDOW_MS;
    const opened = await postForm(file.urls.page, { password: 'right-one' });
    expect(opened.status).toBe(303);
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    expect((await rawRequest(file.urls.page, { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it('counts the watch and embed forms of a file together with its download form', async () => {
    const file = await locked('shared.mp4', 'right-one');
    for (let i = 0; i < PASSWORD_TRIES; i++) {
      const url = [file.urls.page, file.urls.watch, file.urls.embed][i % 3]!;
      expect((await postForm(url, { password: `guess-${i}` })).status).toBe(401);
    }
    const last = await postForm(file.urls.watch, { password: 'wrong' });
    expect([last.status, last.text]).toEqual([429, expect.stringContaining('Wait')]);
  });

  it('a file without a password is not counted', async () => {
    const file = (await t.upload({}, { filename: 'open.txt', content: Buffer.from('x') })).json.data as MediaFile;
    for (let i = 0; i <= PASSWORD_TRIES; i++) {
      expect((await postForm(file.urls.page, { password: 'anything' })).status).toBe(303);
    }
  });
});
