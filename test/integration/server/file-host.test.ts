import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileStatusSchema, SQL_DATETIME_PATTERN, type MediaFile } from '../../../src-shared/api/index.js';
import { makeTestVideo } from '../../helpers/ffmpeg.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { postForm, rawRequest } from '../../helpers/raw-http.js';
import { logSink, openWithPassword, sha256, startTestServer, type TestServer } from '../../helpers/test-server.js';

let t: TestServer;
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'file-host-test-'));
  t = await startTestServer({ rateLimit: 10_000, conversionRetryDelayMs: 50 });
});
afterAll(async () => {
  await t.close();
  await rm(scratch, { recursive: true, force: true });
});

async function upload(
  filename: string,
  content: Buffer,
  fields: Record<string, string | number> = {},
): Promise<MediaFile> {
  const res = await t.upload(fields, { filename, content });
  expect(res.status).toBe(201);
  return res.json.data;
}
const fileOf = async (id: string): Promise<MediaFile> => (await t.api(`/files/${id}`)).json.data;

describe('<file_host>/<id>/file', () => {
  it('serves the stored bytes with type, length and byte ranges', async () => {
    const content = randomBytes(10_000);
    const file = await upload('data.bin', content);
    const whole = await rawRequest(file.urls.page);
    expect(whole.status).toBe(200);
    expect(sha256(whole.body)).toBe(sha256(content));
    expect(whole.headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-length': '10000',
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    });
    expect(whole.headers['content-disposition']).toContain('attachment');

    const part = await rawRequest(file.urls.page, { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/10000');
    expect(part.body.equals(content.subarray(100, 200))).toBe(true);

    const tail = await rawRequest(file.urls.page, { headers: { Range: 'bytes=-10' } });
    expect(tail.body.equals(content.subarray(9990))).toBe(true);

    const beyond = await rawRequest(file.urls.page, { headers: { Range: 'bytes=20000-' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */10000');
  });

  it('counts downloads: a full GET or a range from 0, not HEAD or later ranges', async () => {
    const file = await upload('counted.bin', randomBytes(1000));
    await rawRequest(file.urls.page);
    await rawRequest(file.urls.page, { method: 'HEAD' });
    await rawRequest(file.urls.page, { headers: { Range: 'bytes=0-99' } });
    await rawRequest(file.urls.page, { headers: { Range: 'bytes=100-199' } });
    expect((await fileOf(file.id)).downloads).toBe(2);
  });

  it('sends media inline without a sandbox, so a browser plays it; a range of it too', async () => {
    for (const name of ['clip.mp4', 'song.mp3', 'photo.png', 'manual.pdf']) {
      const file = await upload(name, randomBytes(1000));
      for (const range of [undefined, 'bytes=0-1', 'bytes=500-']) {
        const res = await rawRequest(file.urls.page, range ? { headers: { Range: range } } : {});
        expect([name, res.status]).toEqual([name, range ? 206 : 200]);
        expect(res.headers['content-disposition']).toMatch(/^inline;/);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['content-security-policy']).toBeUndefined();
      }
    }
  });

  it('sandboxes whatever could run script, and sends it as a download unless it is plain text', async () => {
    const active = [
      ['page.html', '<script>alert(1)</script>'],
      ['drawing.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
      ['feed.xml', '<?xml version="1.0"?><x/>'],
      ['data.bin', 'opaque'],
    ];
    for (const [name, content] of active) {
      const res = await rawRequest((await upload(name!, Buffer.from(content!))).urls.page);
      expect([name, res.headers['content-security-policy']]).toEqual([name, 'sandbox']);
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    const text = await rawRequest((await upload('notes.txt', Buffer.from('hello'))).urls.page);
    expect([text.headers['content-security-policy'], text.headers['content-disposition']]).toEqual([
      'sandbox',
      expect.stringMatching(/^inline;/),
    ]);
  });

  it('an unknown file is a 404 envelope', async () => {
    const res = await rawRequest(`${t.fileHost}/nope12345678/file`);
    expect([res.status, res.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('<file_host>/<id>/watch and /embed', () => {
  it('are player pages with a strict CSP, and count stream views', async () => {
    const file = await upload('movie.mp4', randomBytes(100));
    const watch = await rawRequest(file.urls.watch);
    expect(watch.status).toBe(200);
    expect(watch.headers['content-type']).toContain('text/html');
    expect(watch.headers['content-security-policy']).toContain("script-src 'self'");
    expect(watch.text).toContain(`data-src="/${file.id}/file"`);
    expect(watch.text).toContain('<h1>movie.mp4</h1>');
    const embed = await rawRequest(file.urls.embed);
    expect(embed.status).toBe(200);
    expect(embed.headers['content-security-policy']).toContain('frame-ancestors *');
    expect((await fileOf(file.id)).stream_views).toBe(2);
  });

  it('escape the file name', async () => {
    const file = await upload('x.mp4', randomBytes(10));
    await t.api(`/files/${file.id}`, { method: 'PATCH', json: { name: '<img src=x onerror=alert(1)>' } });
    expect((await rawRequest(file.urls.watch)).text).not.toContain('<img src=x');
  });

  it('are off when the owner turned online watching off; the download still works', async () => {
    const file = await upload('nowatch.mp4', randomBytes(10));
    await t.api(`/files/${file.id}`, { method: 'PATCH', json: { allow_online_watch: false } });
    expect((await rawRequest(file.urls.watch)).status).toBe(403);
    expect((await rawRequest(file.urls.embed)).status).toBe(403);
    expect((await rawRequest(file.urls.page)).status).toBe(200);
  });

  it('serve the player scripts from the file host itself', async () => {
    for (const asset of ['hls.min.js', 'player.js', 'player.css']) {
      const res = await rawRequest(`${t.fileHost}/assets/${asset}`);
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(100);
    }
  });
});

describe('a password-protected file', () => {
  async function locked(name: string, password: string): Promise<MediaFile> {
    const file = await upload(name, randomBytes(10));
    await t.api(`/files/${file.id}`, { method: 'PATCH', json: { password } });
    return file;
  }

  it('asks for its password in a form that posts it, then redirects to the address with a cookie for that file', async () => {
    const file = await locked('locked.mp4', 'letmein');
    const ask = await rawRequest(file.urls.watch);
    expect(ask.status).toBe(401);
    expect(ask.text).toContain(`<form method="post" action="/${file.id}/watch">`);
    expect(ask.text).toContain('type="password"');

    const wrong = await postForm(file.urls.watch, { password: 'nope' });
    expect([wrong.status, wrong.text.includes('not right'), wrong.headers['set-cookie']]).toEqual([
      401,
      true,
      undefined,
    ]);

    const right = await postForm(file.urls.watch, { password: 'letmein' });
    expect([right.status, right.headers.location]).toEqual([303, `/${file.id}/watch`]);
    expect(String(right.headers['set-cookie'])).toContain(`Path=/${file.id}; HttpOnly; SameSite=Lax`);
    const cookie = String(right.headers['set-cookie']).split(';')[0]!;
    expect((await rawRequest(file.urls.watch, { headers: { Cookie: cookie } })).status).toBe(200);
    expect((await rawRequest(file.urls.page, { headers: { Cookie: cookie } })).status).toBe(200);
    await t.api(`/files/${file.id}`, { method: 'PATCH', json: { password: 'changed' } });
    expect((await rawRequest(file.urls.page, { headers: { Cookie: cookie } })).status).toBe(401);
    expect((await postForm(`${t.fileHost}/nope12345678/file`, { password: 'x' })).status).toBe(404);
  });

  it('takes no password from the address, so no link or history carries one', async () => {
    const file = await locked('query.mp4', 'letmein');
    for (const url of [file.urls.page, file.urls.watch, `${t.fileHost}/${file.id}/hls/master.m3u8`]) {
      const res = await rawRequest(`${url}?password=letmein`);
      expect([url, res.status, res.headers['set-cookie']]).toEqual([url, 401, undefined]);
      expect(res.text).not.toContain('not right');
    }
  });

  it('refuses the form posted from another site, and a body larger than a password needs', async () => {
    const file = await locked('csrf.mp4', 'letmein');
    const foreign = await postForm(file.urls.page, { password: 'letmein' }, { Origin: 'https://elsewhere.example' });
    expect([foreign.status, foreign.headers['set-cookie']]).toEqual([403, undefined]);
    const sandboxed = await postForm(file.urls.page, { password: 'letmein' }, { Origin: 'null' });
    expect(sandboxed.status).toBe(403);
    const own = await postForm(file.urls.page, { password: 'letmein' }, { Origin: t.fileHost });
    expect(own.status).toBe(303);
    const huge = await postForm(file.urls.page, { password: 'letmein', padding: 'x'.repeat(10_000) });
    expect([huge.status, huge.headers['set-cookie']]).toEqual([413, undefined]);
  });

  it('never puts its password in a log line', async () => {
    const sink = logSink();
    const logging = await startTestServer({ logLevel: 'debug', logStream: sink.stream, conversions: false });
    try {
      const password = 'correct-horse-7f3a';
      const res = await logging.upload({}, { filename: 'logged.mp4', content: randomBytes(10) });
      const file = res.json.data as MediaFile;
      await logging.api(`/files/${file.id}`, { method: 'PATCH', json: { password } });
      await rawRequest(`${file.urls.page}?password=${password}`);
      await postForm(file.urls.page, { password: 'wrong' });
      expect((await openWithPassword(file.urls.page, password)).status).toBe(200);
      // the three requests that carried a password; the last GET's line may never come: a client that closes as
      // soon as it has the streamed file ends the response before it finishes, and fastify logs no onResponse then
      await waitFor(
        () => (sink.text().split(`"path":"/${file.id}/file"`).length > 3 ? true : undefined),
        10_000,
        'the log',
      );
      expect(sink.text()).not.toContain(password);
      expect(JSON.stringify(logging.server.requestLog.entries())).not.toContain(password);
    } finally {
      await logging.close();
    }
  });
});

describe('HLS conversion with ffmpeg', () => {
  it('runs on this machine (ffmpeg is installed by .ci/run)', () => {
    expect(t.server.conversions, 'ffmpeg and ffprobe must be on PATH').toBe(true);
  });

  it('converts an uploaded video to HLS: status completed, stage adaptive, real playlist and segments', async () => {
    const video = await makeTestVideo(scratch, 2);
    const file = await upload('testsrc.mp4', video);
    const status = await waitFor(
      async () => {
        const data = FileStatusSchema.parse((await t.api(`/files/${file.id}/status`)).json.data);
        return ['completed', 'failed'].includes(data.conversion?.status ?? '') ? data : undefined;
      },
      30_000,
      'the conversion',
    );
    expect(status).toEqual({
      file: { id: file.id, name: 'testsrc.mp4', allow_online_watch: true },
      conversion: {
        status: 'completed',
        stage: 'adaptive',
        attempts: 1,
        duration_seconds: 2,
        error: null,
        updated_at: expect.stringMatching(SQL_DATETIME_PATTERN),
      },
    });

    const master = await rawRequest(`${t.fileHost}/${file.id}/hls/master.m3u8`);
    expect(master.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(master.text).toMatch(
      /^#EXTM3U\n[\s\S]*#EXT-X-STREAM-INF:BANDWIDTH=\d+,RESOLUTION=320x240\nv0\/index\.m3u8\n$/,
    );
    const variant = await rawRequest(`${t.fileHost}/${file.id}/hls/v0/index.m3u8`);
    const segments = variant.text.split('\n').filter((line) => line.endsWith('.ts'));
    expect(segments.length).toBeGreaterThan(0);
    expect(variant.text).toContain('#EXT-X-ENDLIST');
    const segment = await rawRequest(`${t.fileHost}/${file.id}/hls/v0/${segments[0]}`);
    expect(segment.headers['content-type']).toBe('video/mp2t');
    expect(segment.body[0]).toBe(0x47);

    expect((await rawRequest(file.urls.watch)).text).toContain(`data-hls="/${file.id}/hls/master.m3u8"`);
    expect((await rawRequest(`${t.fileHost}/${file.id}/hls/../../server.sqlite`)).status).toBe(404);
  });

  it('fails after 3 attempts with a readable error for a "video" ffmpeg cannot read, without the server\'s paths', async () => {
    const file = await upload('broken.mp4', Buffer.from('not a video '.repeat(400)));
    const status = await waitFor(
      async () => {
        const data = FileStatusSchema.parse((await t.api(`/files/${file.id}/status`)).json.data);
        return data.conversion?.status === 'failed' ? data : undefined;
      },
      30_000,
      'the conversion to fail',
    );
    expect(status.conversion).toMatchObject({
      status: 'failed',
      stage: 'probing',
      attempts: 3,
      // ffprobe said "<data dir>/files/<id>: Invalid data found when processing input"
      error: 'The file is not a video that can be read.',
    });
    expect((await rawRequest(file.urls.watch)).text).not.toContain('data-hls');
  });

  it('creates no conversion job for a file that is not a video', async () => {
    const file = await upload('notes.txt', Buffer.from('not a video'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await t.api(`/files/${file.id}/status`)).json.data.conversion).toBeUndefined();
  });

  it('deleting a converted file removes its HLS rendition too', async () => {
    const file = await upload('short.mp4', await makeTestVideo(scratch, 1));
    await waitFor(
      async () => {
        const data = (await t.api(`/files/${file.id}/status`)).json.data;
        return data.conversion?.status === 'completed' ? true : undefined;
      },
      30_000,
      'the conversion',
    );
    expect((await rawRequest(`${t.fileHost}/${file.id}/hls/master.m3u8`)).status).toBe(200);
    await t.api(`/files/${file.id}`, { method: 'DELETE' });
    expect((await rawRequest(`${t.fileHost}/${file.id}/hls/master.m3u8`)).status).toBe(404);
  });
});
