import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEngine, sha256File, sha256Url, tempDir, type EngineFixture } from '../../helpers/engine-fixture.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/**
 * The reference server refuses a new chunked upload while the account has as
 * many unfinished ones as it allows (422 on `dzuuid`). The app's answer: the
 * file fails at once with the server's words (a 4xx is not tried again by
 * itself), nothing else of the queue waits for it, and Retry sends it once
 * there is room.
 */
describe('an upload refused because the account has too many unfinished ones', () => {
  let server: TestServer;
  let fixture: EngineFixture;
  let files: Awaited<ReturnType<typeof tempDir>>;

  beforeEach(async () => {
    server = await startTestServer({ conversions: false, maxUnfinishedUploads: 2 });
    files = await tempDir('media-sync-unfinished-');
  });

  afterEach(async () => {
    await fixture?.close();
    await server.close();
    await files.remove();
  });

  /** Another client's upload left half-way: its first chunk of two; `finish` sends the second. */
  async function leftHalfWay() {
    const content = randomBytes(2000);
    const dzuuid = randomUUID();
    const send = (index: number) =>
      server.upload(
        {
          dzuuid,
          dzchunkindex: index,
          dztotalchunkcount: 2,
          dzchunksize: 1000,
          dztotalfilesize: 2000,
          dzchunkbyteoffset: index * 1000,
        },
        { filename: 'elsewhere.bin', content: content.subarray(index * 1000, (index + 1) * 1000) },
      );
    expect((await send(0)).status).toBe(200);
    return { finish: async () => expect((await send(1)).status).toBe(201) };
  }

  it('fails the file with the server’s words, lets the rest of the queue go, and Retry sends it once there is room', async () => {
    const first = await leftHalfWay();
    await leftHalfWay();
    fixture = await openEngine(server.baseUrl, server.token, { chunkSize: 1000 });
    const { queue } = fixture.engine;
    const big = join(files.path, 'chunked.mp4');
    const small = join(files.path, 'small.mp4');
    await writeFile(big, randomBytes(3500));
    await writeFile(small, randomBytes(500));
    const { item } = await queue.enqueue({ accountId: fixture.accountId, path: big });
    const { item: other } = await queue.enqueue({ accountId: fixture.accountId, path: small });
    queue.start();
    await queue.whenIdle();

    const failed = queue.get(item.id)!.state;
    expect(failed).toEqual({
      kind: 'failed',
      reason: {
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(/^This account has 2 unfinished chunked uploads, the most it may have at once/),
        requestId: expect.any(String),
      },
    });
    expect(queue.get(other.id)!.state.kind).toBe('done');
    const refused = server.server.uploadLog.entries().filter((entry) => entry.fileName === 'chunked.mp4');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((entry) => entry.status === 422 && entry.bytes === 0)).toBe(true);

    await first.finish();
    await queue.retry(item.id);
    await queue.whenIdle();
    const done = queue.get(item.id)!.state;
    expect(done.kind).toBe('done');
    const fileId = done.kind === 'done' ? done.fileId : '';
    expect(await sha256Url(`${server.fileHost}/${fileId}/file`)).toBe(await sha256File(big));
  });
});
