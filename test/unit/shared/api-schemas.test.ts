import { describe, expect, it } from 'vitest';
import {
  AccountSchema,
  ChunkFieldsSchema,
  CreateRemoteUploadsBodySchema,
  ErrorEnvelopeSchema,
  FileSchema,
  FileStatusSchema,
  ListFilesQuerySchema,
  PageQuerySchema,
  RemoteJobSchema,
  UpdateFileBodySchema,
  charLength,
  describeErrorValue,
  expectedChunkLength,
  listEnvelope,
} from '../../../src-shared/api/index.js';

const file = {
  id: 'abc123',
  name: 'clip.mp4',
  filename: 'clip.mp4',
  mime: 'video/mp4',
  extension: 'mp4',
  size_bytes: 10,
  visibility: 'public',
  password_protected: false,
  allow_online_watch: true,
  downloads: 0,
  stream_views: 0,
  urls: {
    page: 'https://f.example/abc123/file',
    watch: 'https://f.example/abc123/watch',
    embed: 'https://f.example/abc123/embed',
  },
};

describe('response schemas', () => {
  it('keep fields the spec does not list instead of rejecting them', () => {
    const parsed = FileSchema.parse({ ...file, thumbnail: 'x.jpg' });
    expect(parsed).toMatchObject({ thumbnail: 'x.jpg' });
  });

  it('reject a File whose size is not an integer', () => {
    expect(FileSchema.safeParse({ ...file, size_bytes: 1.5 }).success).toBe(false);
  });

  it('parse a file list with its pagination meta', () => {
    const envelope = listEnvelope(FileSchema).parse({
      success: true,
      data: [file],
      meta: { current_page: 1, last_page: 1, per_page: 25, total: 1 },
    });
    expect(envelope.data[0]?.id).toBe('abc123');
  });

  it('parse an account with its remote job counters', () => {
    const account = {
      id: 'a1',
      username: 'u',
      email: 'u@example.test',
      status: true,
      files: 2,
      storage_bytes: 20,
      remote_jobs: { pending: 0, running: 1, completed: 2, failed: 0 },
    };
    expect(AccountSchema.parse(account)).toEqual(account);
    expect(AccountSchema.safeParse({ ...account, remote_jobs: { pending: 0 } }).success).toBe(false);
  });

  it('accept a status without conversion, and check updated_at format when there is one', () => {
    const status = { file: { id: 'a', name: 'n', allow_online_watch: true } };
    expect(FileStatusSchema.parse(status).conversion).toBeUndefined();
    const conversion = { status: 'completed', stage: 'adaptive', attempts: 1, duration_seconds: 3, error: null };
    expect(
      FileStatusSchema.safeParse({ ...status, conversion: { ...conversion, updated_at: '2026-01-02 03:04:05' } })
        .success,
    ).toBe(true);
    expect(
      FileStatusSchema.safeParse({ ...status, conversion: { ...conversion, updated_at: '2026-01-02T03:04:05Z' } })
        .success,
    ).toBe(false);
  });

  it('know the five job statuses and nothing else', () => {
    const job = {
      id: '0b7c7e8e-0d0a-4c36-9a53-bd7d1c3f9a11',
      host: 'h',
      name: 'n',
      status: 'pending',
      stage: 'queued',
      attempts: 0,
      bytes_downloaded: 0,
      bytes_total: null,
      progress_percent: null,
      error: null,
      file_id: null,
    };
    expect(RemoteJobSchema.safeParse(job).success).toBe(true);
    expect(RemoteJobSchema.safeParse({ ...job, status: 'paused' }).success).toBe(false);
  });

  it('read an error envelope with a known code and a UUID request id', () => {
    const envelope = {
      success: false,
      error: { code: 'NOT_FOUND', message: 'File not found.' },
      request_id: '0b7c7e8e-0d0a-4c36-9a53-bd7d1c3f9a11',
    };
    expect(ErrorEnvelopeSchema.safeParse(envelope).success).toBe(true);
    expect(ErrorEnvelopeSchema.safeParse({ ...envelope, request_id: 'req-1' }).success).toBe(false);
    expect(ErrorEnvelopeSchema.safeParse({ ...envelope, error: { code: 'TEAPOT', message: '' } }).success).toBe(false);
  });

  it('describe an error value of any shape in words', () => {
    expect(describeErrorValue(null)).toBeNull();
    expect(describeErrorValue('boom')).toBe('boom');
    expect(describeErrorValue({ code: 'X', message: 'the source answered HTTP 404' })).toBe(
      'the source answered HTTP 404',
    );
    expect(describeErrorValue(42)).toBe('42');
  });
});

describe('query limits', () => {
  it('default page 1 and per_page 25', () => {
    expect(PageQuerySchema.parse({})).toEqual({ page: 1, per_page: 25 });
  });

  it.each([
    [{ page: '1' }, true],
    [{ page: '0' }, false],
    [{ per_page: '100' }, true],
    [{ per_page: '101' }, false],
    [{ per_page: '0' }, false],
    [{ page: 'two' }, false],
    [{ page: '1.5' }, false],
  ])('%o valid: %s', (query, valid) => {
    expect(PageQuerySchema.safeParse(query).success).toBe(valid);
  });

  it('count search length in characters, 255 allowed, 256 not', () => {
    expect(ListFilesQuerySchema.safeParse({ search: '🎬'.repeat(255) }).success).toBe(true);
    expect(ListFilesQuerySchema.safeParse({ search: '🎬'.repeat(256) }).success).toBe(false);
    expect(charLength('🎬a')).toBe(2);
  });
});

describe('PATCH /files body', () => {
  it.each([
    [{ name: 'n'.repeat(255) }, true],
    [{ name: 'n'.repeat(256) }, false],
    [{ name: '   ' }, false],
    [{ description: 'd'.repeat(1000) }, true],
    [{ description: 'd'.repeat(1001) }, false],
    [{ description: null }, true],
    [{ password: null }, true],
    [{ password: '' }, false],
    [{ visibility: 'public' }, false],
    [{ visibility: true, allow_online_watch: false }, true],
    [{ colour: 'red' }, false],
  ])('%o valid: %s', (body, valid) => {
    expect(UpdateFileBodySchema.safeParse(body).success).toBe(valid);
  });

  it('drops control and direction characters from a name, then counts and checks what is left', () => {
    expect(UpdateFileBodySchema.parse({ name: 'Holiday\u202e4pm.mp4\u0000' })).toEqual({ name: 'Holiday4pm.mp4' });
    expect(UpdateFileBodySchema.parse({ name: `${'n'.repeat(255)}\u2066` }).name).toHaveLength(255);
    expect(UpdateFileBodySchema.safeParse({ name: '\u202e\u0000\u200f' }).success).toBe(false);
    // a description may hold lines
    expect(UpdateFileBodySchema.parse({ description: 'one\ntwo' })).toEqual({ description: 'one\ntwo' });
  });
});

describe('POST /remote-uploads body', () => {
  const url = 'https://videos.example/clip.mp4';
  it.each([
    [{ urls: [url] }, true],
    [{ urls: [] }, false],
    [{ urls: ['ftp://videos.example/clip.mp4'] }, false],
    [{ urls: ['not a url'] }, false],
    [{ urls: ['https://user:pass@videos.example/clip.mp4'] }, false],
    [{ urls: [url], name: 'n'.repeat(240) }, true],
    [{ urls: [url], name: 'n'.repeat(241) }, false],
    [{ urls: [url], description: 'd'.repeat(1001) }, false],
    [{ urls: [url], blocked_countries: Array(250).fill('de') }, true],
    [{ urls: [url], blocked_countries: Array(251).fill('DE') }, false],
    [{ urls: [url], blocked_countries: ['DEU'] }, false],
    [{ urls: [url], folder_id: 0 }, false],
    [{ urls: [url], folder_id: null, password: null, name: null }, true],
  ])('%o valid: %s', (body, valid) => {
    expect(CreateRemoteUploadsBodySchema.safeParse(body).success).toBe(valid);
  });

  it("drops control and direction characters from the name, as from an uploaded file's", () => {
    expect(CreateRemoteUploadsBodySchema.parse({ urls: [url], name: 'clip\u202egpj.exe' }).name).toBe('clipgpj.exe');
    expect(CreateRemoteUploadsBodySchema.safeParse({ urls: [url], name: '\u0007' }).success).toBe(false);
  });

  it('upper-cases country codes', () => {
    expect(CreateRemoteUploadsBodySchema.parse({ urls: [url], blocked_countries: ['de'] }).blocked_countries).toEqual([
      'DE',
    ]);
  });
});

describe('chunk fields', () => {
  const chunk = (overrides: Record<string, string> = {}) => ({
    dzuuid: 'f6b1b3c8-1111-4d55-9ad7-1c9d3a0e2a11',
    dzchunkindex: '1',
    dztotalchunkcount: '3',
    dzchunksize: '1000',
    dztotalfilesize: '2500',
    dzchunkbyteoffset: '1000',
    ...overrides,
  });

  it('accept a consistent chunk and give the bytes it must hold', () => {
    const fields = ChunkFieldsSchema.parse(chunk());
    expect(expectedChunkLength(fields)).toBe(1000);
    expect(expectedChunkLength(ChunkFieldsSchema.parse(chunk({ dzchunkindex: '2', dzchunkbyteoffset: '2000' })))).toBe(
      500,
    );
  });

  it.each([
    ['a chunk count that does not match the sizes', { dztotalchunkcount: '4' }, 'dztotalchunkcount'],
    ['an index past the last chunk', { dzchunkindex: '3', dzchunkbyteoffset: '3000' }, 'dzchunkindex'],
    ['an offset that is not index × size', { dzchunkbyteoffset: '999' }, 'dzchunkbyteoffset'],
    [
      'a chunk size over 90 MB',
      { dzchunksize: '90000001', dztotalchunkcount: '1', dzchunkindex: '0', dzchunkbyteoffset: '0' },
      'dzchunksize',
    ],
    ['a negative index', { dzchunkindex: '-1' }, 'dzchunkindex'],
    ['a dzuuid with a slash', { dzuuid: '../x' }, 'dzuuid'],
  ])('reject %s', (_label, overrides, field) => {
    const result = ChunkFieldsSchema.safeParse(chunk(overrides));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain(field);
  });

  it('accept a 90 MB chunk size exactly', () => {
    const fields = ChunkFieldsSchema.parse(
      chunk({
        dzchunksize: '90000000',
        dztotalfilesize: '100000000',
        dztotalchunkcount: '2',
        dzchunkindex: '1',
        dzchunkbyteoffset: '90000000',
      }),
    );
    expect(expectedChunkLength(fields)).toBe(10_000_000);
  });
});
