import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nthRequestTo, requestsTo, startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import {
  openEngine,
  sha256File,
  sha256Url,
  tempDir,
  writeRandomFile,
  type EngineFixture,
} from '../../helpers/engine-fixture.js';

const UPLOAD = '/api/v1/files/upload';
const CHUNK = 1_000_000;

interface ListedFile {
  id: string;
  filename: string;
  size_bytes: number;
}

describe('uploads through a faulty network', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  let fixture: EngineFixture;
  let files: Awaited<ReturnType<typeof tempDir>>;

  beforeEach(async () => {
    server = await startTestServer();
    proxy = await startFaultProxy(new URL(server.baseUrl).origin);
    files = await tempDir('media-sync-faults-');
  });

  afterEach(async () => {
    await fixture?.close();
    await proxy.close();
    await server.close();
    await files.remove();
  });

  async function listServerFiles(): Promise<ListedFile[]> {
    const response = await server.api('/files?per_page=100');
    return (JSON.parse(response.body.toString()) as { data: ListedFile[] }).data;
  }

  async function expectEveryFileOnceAndIdentical(paths: string[]): Promise<void> {
    const listed = await listServerFiles();
    expect(listed.map((f) => f.filename).sort()).toEqual(paths.map((p) => p.split('/').at(-1)).sort());
    for (const path of paths) {
      const file = listed.find((f) => f.filename === path.split('/').at(-1))!;
      expect(await sha256Url(`${server.fileHost}/${file.id}/file`)).toBe(await sha256File(path));
    }
  }

  it('survives resets, closes, stalls, 5xx, a 429 and lost final answers: every file once, identical', async () => {
    const paths: string[] = [];
    for (let i = 0; i < 3; i++) {
      const path = join(files.path, `large-${i}.mp4`);
      await writeRandomFile(path, 4 * CHUNK + 123_456, 100 + i);
      paths.push(path);
    }
    for (let i = 0; i < 4; i++) {
      const path = join(files.path, `small-${i}.mp4`);
      await writeFile(path, `small file ${i} `.repeat(1000));
      paths.push(path);
    }
    const faults = [
      { kind: 'reset-mid-body', afterBytes: 200_000 },
      { kind: 'close-before-response' },
      { kind: 'stall', ms: Infinity },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 502, body: '<html>Bad gateway</html>' },
      { kind: 'status', status: 429, headers: { 'Retry-After': '2' } },
      { kind: 'lose-response' },
      { kind: 'lose-response' },
      { kind: 'lose-response' },
    ] as const;
    faults.forEach((fault, i) => proxy.addRule({ match: nthRequestTo(UPLOAD, 1 + i * 2), fault }));

    fixture = await openEngine(`${proxy.url}/api/v1`, server.token, {
      chunkSize: CHUNK,
      client: { noProgressTimeoutMs: 1_000 },
    });
    const { queue } = fixture.engine;
    for (const path of paths) await queue.enqueue({ accountId: fixture.accountId, path });
    queue.start();
    await queue.whenIdle();
    for (let i = 0; i < 20 && fixture.engine.uploads.list().some((item) => item.state.kind === 'retrying'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      queue.poke();
      await queue.whenIdle();
    }

    expect(fixture.engine.uploads.list().map((item) => item.state.kind)).toEqual(paths.map(() => 'done'));
    await expectEveryFileOnceAndIdentical(paths);
    expect(proxy.requests.filter((r) => r.fault !== null).length).toBe(faults.length);

    // nothing left during the Retry-After of the 429. Chunks of other files sent
    // before the client read that answer may still arrive just after it; the
    // first 500 ms after the answer are theirs.
    const limited = proxy.requests.find((r) => r.fault === 'status' && r.status === 429)!;
    const from = limited.answeredAt! + 500;
    const inside = proxy.requests.filter((r) => r.at > from && r.at < limited.at + 2_000);
    expect(inside).toEqual([]);
  });

  it('a lost answer to a small upload is found on the server instead of being sent twice', async () => {
    const path = join(files.path, 'clip.mp4');
    await writeFile(path, 'clip'.repeat(5000));
    proxy.addRule({ match: nthRequestTo(UPLOAD, 0), fault: { kind: 'lose-response' } });
    fixture = await openEngine(`${proxy.url}/api/v1`, server.token);
    const { item } = await fixture.engine.queue.enqueue({ accountId: fixture.accountId, path });
    fixture.engine.queue.start();
    await fixture.engine.queue.whenIdle();
    // the failure waits for its retry time; make it due now
    await fixture.engine.queue.retry(item.id);
    await fixture.engine.queue.whenIdle();

    expect(fixture.engine.queue.get(item.id)!.state.kind).toBe('done');
    expect(server.server.uploadLog.entries().length).toBe(1);
    await expectEveryFileOnceAndIdentical([path]);
  });

  it('a lost answer to the last chunk: the file is found by name and size, not assembled twice', async () => {
    const path = join(files.path, 'three-chunks.mp4');
    await writeRandomFile(path, 2 * CHUNK + 10, 5);
    // chunks 0 and 1 go first; the last chunk is the third upload request
    proxy.addRule({ match: nthRequestTo(UPLOAD, 2), fault: { kind: 'lose-response' } });
    fixture = await openEngine(`${proxy.url}/api/v1`, server.token, { chunkSize: CHUNK });
    const { item } = await fixture.engine.queue.enqueue({ accountId: fixture.accountId, path });
    fixture.engine.queue.start();
    await fixture.engine.queue.whenIdle();
    await fixture.engine.queue.retry(item.id);
    await fixture.engine.queue.whenIdle();

    expect(fixture.engine.queue.get(item.id)!.state.kind).toBe('done');
    // each chunk reached the server once: the lost last chunk was not sent again
    expect(
      server.server.uploadLog
        .entries()
        .map((u) => u.chunkIndex)
        .sort(),
    ).toEqual([0, 1, 2]);
    await expectEveryFileOnceAndIdentical([path]);
  });

  /** The upload answer as the server gave it, but saying the file it made has 1 byte. */
  const claimsOneByte = (body: unknown) => {
    const answer = body as { data: Record<string, unknown> };
    return { ...answer, data: { ...answer.data, size_bytes: 1 } };
  };

  it('a file the service stored at another size is deleted and sent again from the first byte, once', async () => {
    const path = join(files.path, 'three-chunks.mp4');
    await writeRandomFile(path, 2 * CHUNK + 10, 6);
    // the last chunk is the third upload request
    proxy.addRule({ match: nthRequestTo(UPLOAD, 2), fault: { kind: 'rewrite-response', rewrite: claimsOneByte } });
    fixture = await openEngine(`${proxy.url}/api/v1`, server.token, { chunkSize: CHUNK });
    const { item } = await fixture.engine.queue.enqueue({ accountId: fixture.accountId, path });
    fixture.engine.queue.start();
    await fixture.engine.queue.whenIdle();

    const done = fixture.engine.queue.get(item.id)!;
    expect(done.state.kind).toBe('done');
    expect(done.restarts).toBe(1);
    // every chunk twice, under two dzuuids; one file on the server, the right one
    const uploads = server.server.uploadLog.entries();
    expect(uploads.map((u) => u.chunkIndex).sort()).toEqual([0, 0, 1, 1, 2, 2]);
    await expectEveryFileOnceAndIdentical([path]);
  });

  it('an answer that names the file without its size is checked with one GET of the file', async () => {
    const path = join(files.path, 'clip.mp4');
    await writeFile(path, 'clip'.repeat(5000));
    const withoutSize = (body: unknown) => {
      const answer = body as { data: Record<string, unknown> };
      return { ...answer, data: { id: answer.data['id'] } };
    };
    proxy.addRule({ match: nthRequestTo(UPLOAD, 0), fault: { kind: 'rewrite-response', rewrite: withoutSize } });
    fixture = await openEngine(`${proxy.url}/api/v1`, server.token);
    const { item } = await fixture.engine.queue.enqueue({ accountId: fixture.accountId, path });
    fixture.engine.queue.start();
    await fixture.engine.queue.whenIdle();

    expect(fixture.engine.queue.get(item.id)!.state.kind).toBe('done');
    const [file] = await listServerFiles();
    const reads = proxy.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/files'));
    expect(reads.map((r) => r.path)).toEqual([`/api/v1/files/${file!.id}`]);
    await expectEveryFileOnceAndIdentical([path]);
  });

  it('a second wrong size fails the upload, saying what the service stored, with the request id', async () => {
    const path = join(files.path, 'clip.mp4');
    await writeFile(path, 'clip'.repeat(5000));
    proxy.addRule({ match: requestsTo(UPLOAD), fault: { kind: 'rewrite-response', rewrite: claimsOneByte }, times: 2 });
    fixture = await openEngine(`${proxy.url}/api/v1`, server.token);
    const { item } = await fixture.engine.queue.enqueue({ accountId: fixture.accountId, path });
    fixture.engine.queue.start();
    await fixture.engine.queue.whenIdle();

    const failed = fixture.engine.queue.get(item.id)!.state;
    expect(failed).toEqual({
      kind: 'failed',
      reason: {
        message: 'The service stored 1 bytes; the file has 20,000. The incomplete copy was deleted.',
        code: null,
        requestId: expect.stringMatching(/\S/) as unknown as string,
      },
    });
    expect(server.server.uploadLog.entries()).toHaveLength(2);
    expect(await listServerFiles()).toEqual([]);
  });
});
