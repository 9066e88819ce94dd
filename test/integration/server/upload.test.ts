import { randomBytes, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSchema, PLAN_FILE_SIZE_LIMIT_BYTES } from '../../../src-shared/api/index.js';
import { multipart, rawRequest } from '../../helpers/raw-http.js';
import { sha256, startTestServer, type TestServer } from '../../helpers/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: 10_000, conversions: false });
});
afterAll(() => t.close());

/** The Dropzone fields of chunk `index` of `content` split in `chunkSize` pieces. */
function chunkOf(content: Buffer, chunkSize: number, index: number, dzuuid: string) {
  const total = Math.ceil(content.length / chunkSize);
  return {
    fields: {
      dzuuid,
      dzchunkindex: index,
      dztotalchunkcount: total,
      dzchunksize: chunkSize,
      dztotalfilesize: content.length,
      dzchunkbyteoffset: index * chunkSize,
    },
    bytes: content.subarray(index * chunkSize, Math.min(content.length, (index + 1) * chunkSize)),
  };
}

function sendChunk(
  content: Buffer,
  chunkSize: number,
  index: number,
  dzuuid: string,
  filename = 'movie.mp4',
  token = t.token,
) {
  const { fields, bytes } = chunkOf(content, chunkSize, index, dzuuid);
  return t.upload(fields, { filename, content: bytes, contentType: 'video/mp4' }, token);
}

async function download(url: string): Promise<Buffer> {
  const res = await rawRequest(url);
  expect(res.status).toBe(200);
  return res.body;
}

async function filesNamed(name: string, token = t.token) {
  return (await t.api(`/files?search=${encodeURIComponent(name)}&per_page=100`, { token })).json.data.filter(
    (f: { filename: string }) => f.filename === name,
  );
}

describe('single request upload', () => {
  it('stores the file byte for byte and answers 201 with the File', async () => {
    const content = randomBytes(256 * 1024);
    const res = await t.upload({ visibility: 1 }, { filename: 'single.bin', content });
    expect(res.status).toBe(201);
    const file = FileSchema.parse(res.json.data);
    expect(file).toMatchObject({ filename: 'single.bin', size_bytes: content.length, visibility: 'public' });
    expect(sha256(await download(file.urls.page))).toBe(sha256(content));
  });

  it.each([
    ['1', 'public'],
    ['0', 'private'],
    ['true', 'public'],
    ['false', 'private'],
  ])('visibility %s → %s', async (value, visibility) => {
    const res = await t.upload({ visibility: value }, { filename: 'v.txt', content: Buffer.from('v') });
    expect(res.json.data.visibility).toBe(visibility);
  });

  it('private when no visibility is sent', async () => {
    const res = await t.upload({}, { filename: 'default.txt', content: Buffer.from('v') });
    expect(res.json.data.visibility).toBe('private');
  });

  it.each([
    [
      'visibility other than 1/0',
      { visibility: 'yes' },
      { filename: 'a.txt', content: Buffer.from('a') },
      'visibility',
    ],
    ['no file part', { visibility: 1 }, undefined, 'file'],
    ['a file part under another name', {}, { filename: 'a.txt', content: Buffer.from('a'), field: 'upload' }, 'file'],
  ])('422 for %s', async (_label, fields, file, detail) => {
    const res = await t.upload(fields, file);
    expect([res.status, res.json.error.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(Object.keys(res.json.error.details)).toContain(detail);
  });

  it('422 for a body that is not multipart', async () => {
    const res = await t.api('/files/upload', { method: 'POST', json: { file: 'x' } });
    expect([res.status, res.json.error.code]).toEqual([422, 'VALIDATION_ERROR']);
  });

  it('keeps only the base name of a file part named with a path', async () => {
    const res = await t.upload({}, { filename: '../../etc/passwd', content: Buffer.from('x') });
    expect(res.json.data.filename).toBe('passwd');
  });
});

describe('chunked upload (Dropzone fields)', () => {
  const chunkSize = 1024 * 1024;

  it('assembles chunks sent out of order into a byte-identical file', async () => {
    const content = randomBytes(5 * chunkSize + 12345);
    const dzuuid = randomUUID();
    const order = [3, 0, 5, 2, 4, 1];
    const answers = [];
    for (const index of order) answers.push(await sendChunk(content, chunkSize, index, dzuuid, 'out-of-order.mp4'));
    for (const partial of answers.slice(0, -1)) {
      expect(partial.status).toBe(200);
      expect(partial.json.data).toMatchObject({ dzuuid, total_chunks: 6 });
    }
    expect(answers.map((a) => a.json.data.received_chunks).slice(0, -1)).toEqual([1, 2, 3, 4, 5]);
    const last = answers.at(-1)!;
    expect(last.status).toBe(201);
    const file = FileSchema.parse(last.json.data);
    expect(file).toMatchObject({ filename: 'out-of-order.mp4', size_bytes: content.length, mime: 'video/mp4' });
    expect(sha256(await download(file.urls.page))).toBe(sha256(content));
  });

  it('takes 3 chunks in parallel and still assembles exactly one identical file', async () => {
    const content = randomBytes(9 * chunkSize + 1);
    const dzuuid = randomUUID();
    const indexes = [...Array(10).keys()];
    const results = [];
    for (let i = 0; i < indexes.length; i += 3) {
      results.push(
        ...(await Promise.all(
          indexes.slice(i, i + 3).map((index) => sendChunk(content, chunkSize, index, dzuuid, 'parallel.mp4')),
        )),
      );
    }
    const finished = results.filter((r) => r.status === 201);
    expect(finished).toHaveLength(1);
    expect(sha256(await download(finished[0]!.json.data.urls.page))).toBe(sha256(content));
    expect(await filesNamed('parallel.mp4')).toHaveLength(1);
  });

  it('assembles once when the two last chunks race', async () => {
    const content = randomBytes(4 * chunkSize);
    const dzuuid = randomUUID();
    await sendChunk(content, chunkSize, 0, dzuuid, 'race.mp4');
    await sendChunk(content, chunkSize, 1, dzuuid, 'race.mp4');
    const answers = await Promise.all([
      sendChunk(content, chunkSize, 2, dzuuid, 'race.mp4'),
      sendChunk(content, chunkSize, 3, dzuuid, 'race.mp4'),
    ]);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const files = await filesNamed('race.mp4');
    expect(files).toHaveLength(1);
    // The other answer is either "3 of 4 received" or, if it saw the set complete, the same file.
    for (const answer of answers) expect([files[0].id, undefined]).toContain(answer.json.data.id);
    expect(sha256(await download(files[0].urls.page))).toBe(sha256(content));
  });

  it('assembles once when the final chunk is sent twice at the same time, and both get the same file', async () => {
    const content = randomBytes(3 * chunkSize);
    const dzuuid = randomUUID();
    await sendChunk(content, chunkSize, 0, dzuuid, 'twice.mp4');
    await sendChunk(content, chunkSize, 1, dzuuid, 'twice.mp4');
    const [a, b] = await Promise.all([
      sendChunk(content, chunkSize, 2, dzuuid, 'twice.mp4'),
      sendChunk(content, chunkSize, 2, dzuuid, 'twice.mp4'),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.json.data.id).toBe(b.json.data.id);
    expect(await filesNamed('twice.mp4')).toHaveLength(1);
    expect(sha256(await download(a.json.data.urls.page))).toBe(sha256(content));
  });

  it('answers the same file when a chunk is re-sent after assembly, with no duplicate', async () => {
    const content = randomBytes(2 * chunkSize + 7);
    const dzuuid = randomUUID();
    let created;
    for (const index of [0, 1, 2]) created = await sendChunk(content, chunkSize, index, dzuuid, 'resent.mp4');
    const again = await sendChunk(content, chunkSize, 2, dzuuid, 'resent.mp4');
    expect(again.status).toBe(200);
    expect(again.json.data.id).toBe(created!.json.data.id);
    expect(await filesNamed('resent.mp4')).toHaveLength(1);
  });

  it('accepts the fields after the file part as well', async () => {
    const content = randomBytes(1000);
    const { fields, bytes } = chunkOf(content, 600, 1, randomUUID());
    const first = chunkOf(content, 600, 0, fields.dzuuid);
    await t.upload(first.fields, { filename: 'late-fields.bin', content: first.bytes });
    const { body, contentType } = multipart(fields, { filename: 'late-fields.bin', content: bytes }, 'file-first');
    const res = await t.api('/files/upload', { method: 'POST', body, headers: { 'Content-Type': contentType } });
    expect(res.status).toBe(201);
    expect(sha256(await download(res.json.data.urls.page))).toBe(sha256(content));
  });

  it('keeps chunks of the same dzuuid of two accounts apart', async () => {
    const otherToken = t.newAccount('chunky');
    const dzuuid = randomUUID();
    const mine = randomBytes(2000);
    const theirs = randomBytes(2000);
    await sendChunk(mine, 1000, 0, dzuuid, 'shared-uuid.bin');
    await sendChunk(theirs, 1000, 0, dzuuid, 'shared-uuid.bin', otherToken);
    const a = await sendChunk(mine, 1000, 1, dzuuid, 'shared-uuid.bin');
    const b = await sendChunk(theirs, 1000, 1, dzuuid, 'shared-uuid.bin', otherToken);
    expect(sha256(await download(a.json.data.urls.page))).toBe(sha256(mine));
    expect(sha256(await download(b.json.data.urls.page))).toBe(sha256(theirs));
  });

  describe('consistency checks (422)', () => {
    const content = randomBytes(3000);

    it('a chunk whose bytes do not match its place in the file', async () => {
      const { fields } = chunkOf(content, 1000, 0, randomUUID());
      const res = await t.upload(fields, { filename: 'short.bin', content: Buffer.alloc(999) });
      expect(res.status).toBe(422);
      expect(res.json.error.details.file[0]).toContain('1000 bytes');
    });

    it('only some of the dz fields', async () => {
      const res = await t.upload(
        { dzuuid: randomUUID(), dzchunkindex: 0 },
        { filename: 'partial.bin', content: Buffer.alloc(10) },
      );
      expect(res.status).toBe(422);
      expect(Object.keys(res.json.error.details)).toEqual(
        expect.arrayContaining(['dztotalchunkcount', 'dzchunksize', 'dztotalfilesize', 'dzchunkbyteoffset']),
      );
    });

    it.each([
      ['a chunk count that does not fit the sizes', { dztotalchunkcount: 4 }, 'dztotalchunkcount'],
      ['an offset that is not index × chunk size', { dzchunkbyteoffset: 1 }, 'dzchunkbyteoffset'],
      ['an index past the last chunk', { dzchunkindex: 3, dzchunkbyteoffset: 3000 }, 'dzchunkindex'],
      ['a chunk size over 90 MB', { dzchunksize: 90_000_001, dztotalchunkcount: 1 }, 'dzchunksize'],
    ])('%s', async (_label, overrides, field) => {
      const { fields, bytes } = chunkOf(content, 1000, 0, randomUUID());
      const res = await t.upload({ ...fields, ...overrides }, { filename: 'bad.bin', content: bytes });
      expect(res.status).toBe(422);
      expect(Object.keys(res.json.error.details)).toContain(field);
    });

    it.each([
      ['filename', chunkOf(content, 1000, 1, ''), 'renamed.bin'],
      ['total size', chunkOf(Buffer.concat([content, Buffer.alloc(1)]), 1000, 1, ''), 'first.bin'],
      ['chunk size', chunkOf(content, 1500, 1, ''), 'first.bin'],
    ])('a later chunk of the same dzuuid with another %s', async (_label, later, filename) => {
      const dzuuid = randomUUID();
      await sendChunk(content, 1000, 0, dzuuid, 'first.bin');
      const res = await t.upload({ ...later.fields, dzuuid }, { filename, content: later.bytes });
      expect(res.status).toBe(422);
      expect(res.json.error.details.dzuuid[0]).toContain('different');
    });
  });

  it('accepts a full 90 MB chunk under the default body cap', async () => {
    const content = randomBytes(90_000_000 + 10);
    const dzuuid = randomUUID();
    const first = await sendChunk(content, 90_000_000, 0, dzuuid, 'ninety.bin');
    expect(first.status).toBe(200);
    const last = await sendChunk(content, 90_000_000, 1, dzuuid, 'ninety.bin');
    expect(last.status).toBe(201);
    expect(last.json.data.size_bytes).toBe(content.length);
  });
});

describe('unfinished chunked uploads per account', () => {
  it('10 at most: a new dzuuid past them is 422 on dzuuid, its bytes unread; a started one goes on, and finishing one makes room', async () => {
    const token = t.newAccount('many-unfinished');
    const content = randomBytes(2000);
    const started = Array.from({ length: 10 }, () => randomUUID());
    for (const dzuuid of started) {
      expect((await sendChunk(content, 1000, 0, dzuuid, 'part.bin', token)).status).toBe(200);
    }
    const chunksBefore = (await readdir(join(t.dataDir, 'chunks'))).length;

    const eleventh = randomUUID();
    const refused = await sendChunk(content, 1000, 0, eleventh, 'part.bin', token);
    expect([refused.status, refused.json.error.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(refused.json.error.message).toMatch(
      /^This account has 10 unfinished chunked uploads, the most it may have at once/,
    );
    expect(refused.json.error.details).toEqual({ dzuuid: [refused.json.error.message] });
    expect(t.server.uploadLog.entries().filter((entry) => entry.dzuuid === eleventh)).toEqual([
      expect.objectContaining({ status: 422, bytes: 0 }),
    ]);
    expect(await readdir(join(t.dataDir, 'chunks'))).toHaveLength(chunksBefore);
    // another account has its own room
    expect((await sendChunk(content, 1000, 0, randomUUID(), 'part.bin')).status).toBe(200);

    // a chunk of an upload already started is taken, and the file it finishes makes room for a new one
    expect((await sendChunk(content, 1000, 1, started[0]!, 'part.bin', token)).status).toBe(201);
    expect((await sendChunk(content, 1000, 0, eleventh, 'part.bin', token)).status).toBe(200);
    expect((await sendChunk(content, 1000, 0, randomUUID(), 'part.bin', token)).status).toBe(422);
  });

  it('first chunks of many new uploads sent at once open no more than the cap', async () => {
    const token = t.newAccount('racing-unfinished');
    const content = randomBytes(2000);
    const statuses = await Promise.all(
      Array.from({ length: 16 }, () => sendChunk(content, 1000, 0, randomUUID(), 'race.bin', token)),
    );
    expect(statuses.map((res) => res.status).sort()).toEqual([...Array(10).fill(200), ...Array(6).fill(422)]);
  });
});

describe('plan limits (4 GB free, 15 GB premium per file)', () => {
  const firstChunk = (total: number, token: string) => {
    const chunkSize = 1024;
    return t.upload(
      {
        dzuuid: randomUUID(),
        dzchunkindex: 0,
        dztotalchunkcount: Math.ceil(total / chunkSize),
        dzchunksize: chunkSize,
        dztotalfilesize: total,
        dzchunkbyteoffset: 0,
      },
      { filename: 'huge.mkv', content: randomBytes(chunkSize) },
      token,
    );
  };

  it.each([
    ['free', PLAN_FILE_SIZE_LIMIT_BYTES.free],
    ['premium', PLAN_FILE_SIZE_LIMIT_BYTES.premium],
  ] as const)(
    '%s: exactly the limit is accepted, one byte more is 422 before any byte is kept',
    async (plan, limit) => {
      const token = t.newAccount(`plan-${plan}`, plan);
      expect((await firstChunk(limit, token)).status).toBe(200);
      const over = await firstChunk(limit + 1, token);
      expect([over.status, over.json.error.code]).toEqual([422, 'VALIDATION_ERROR']);
      expect(over.json.error.details.file[0]).toContain(`${plan} plan`);
    },
  );

  it('a free account may send what only premium allows: no', async () => {
    const res = await firstChunk(PLAN_FILE_SIZE_LIMIT_BYTES.free + 1, t.newAccount('freebie'));
    expect(res.status).toBe(422);
  });
});

describe('edge proxy body cap', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ bodyLimitBytes: 64 * 1024, conversions: false });
  });
  afterAll(() => small.close());

  it('refuses a body declared over the cap with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await small.upload({}, { filename: 'big.bin', content: randomBytes(100 * 1024) });
    expect([res.status, res.json.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(res.json.error.message).toContain('chunks');
  });

  it('refuses a chunked-encoding body that grows past the cap, keeping nothing', async () => {
    const { body, contentType } = multipart({}, { filename: 'streamed.bin', content: randomBytes(200 * 1024) });
    const url = new URL(`${small.baseUrl}/files/upload`);
    const response = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), '127.0.0.1', () => {
        socket.write(
          `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${small.token}\r\n` +
            `Content-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\n\r\n`,
        );
        socket.write(`${body.length.toString(16)}\r\n`);
        socket.write(body);
        socket.write('\r\n0\r\n\r\n');
      });
      let received = '';
      socket.on('data', (data) => {
        received += data.toString();
        if (received.includes('}')) socket.destroy();
      });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      socket.setTimeout(10_000, () => socket.destroy());
    });
    expect(response).toMatch(/^HTTP\/1\.1 413/);
    expect(response).toContain('PAYLOAD_TOO_LARGE');
    expect((await small.api('/files')).json.meta.total).toBe(0);
    expect(await readdir(join(small.dataDir, 'tmp'))).toEqual([]);
  });
});

describe('stale partial uploads', () => {
  const DAY = 24 * 60 * 60 * 1000;
  let clock: { now: () => number };
  let aged: TestServer;
  beforeAll(async () => {
    let now = Date.now();
    clock = { now: () => now };
    Object.defineProperty(clock, 'advance', { value: (ms: number) => (now += ms) });
    aged = await startTestServer({ clock, conversions: false, rateLimit: 1000 });
  });
  afterAll(() => aged.close());
  const advance = (ms: number) => (clock as unknown as { advance: (ms: number) => void }).advance(ms);

  const chunk = (content: Buffer, index: number, dzuuid: string) => {
    const { fields, bytes } = chunkOf(content, 1000, index, dzuuid);
    return aged.upload(fields, { filename: 'stale.bin', content: bytes });
  };

  it('keeps chunks for 24 hours', async () => {
    const content = randomBytes(2000);
    const dzuuid = randomUUID();
    await chunk(content, 0, dzuuid);
    advance(DAY - 1000);
    expect(await aged.server.sweepStaleUploads()).toBe(0);
    expect((await chunk(content, 1, dzuuid)).status).toBe(201);
  });

  it('drops chunks that have waited more than 24 hours: the rest alone makes no file', async () => {
    const content = randomBytes(2000);
    const dzuuid = randomUUID();
    await chunk(content, 0, dzuuid);
    advance(DAY + 1000);
    expect(await aged.server.sweepStaleUploads()).toBeGreaterThanOrEqual(1);
    const res = await chunk(content, 1, dzuuid);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ received_chunks: 1, total_chunks: 2 });
    expect(await readdir(join(aged.dataDir, 'chunks'))).toHaveLength(1);
  });

  it('an upload idle for 24 hours no longer counts against the cap of 10 unfinished ones', async () => {
    const token = aged.newAccount('idle-unfinished');
    const content = randomBytes(2000);
    const send = (dzuuid: string) => {
      const { fields, bytes } = chunkOf(content, 1000, 0, dzuuid);
      return aged.upload(fields, { filename: 'idle.bin', content: bytes }, token);
    };
    for (let i = 0; i < 10; i++) expect((await send(randomUUID())).status).toBe(200);
    expect((await send(randomUUID())).status).toBe(422);
    advance(DAY + 1000);
    expect((await send(randomUUID())).status).toBe(200);
  });

  it('forgets an assembled dzuuid after 24 hours, so a re-sent chunk starts over', async () => {
    const content = randomBytes(2000);
    const dzuuid = randomUUID();
    await chunk(content, 0, dzuuid);
    const done = await chunk(content, 1, dzuuid);
    expect(done.status).toBe(201);
    advance(DAY + 1000);
    await aged.server.sweepStaleUploads();
    const resent = await chunk(content, 1, dzuuid);
    expect(resent.status).toBe(200);
    expect(resent.json.data.received_chunks).toBe(1);
  });
});
