import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import {
  openEngine,
  sha256File,
  sha256Url,
  tempDir,
  writeRandomFile,
  type EngineFixture,
} from '../../helpers/engine-fixture.js';

describe('upload engine against the reference server', () => {
  let server: TestServer;
  let fixture: EngineFixture;
  let files: Awaited<ReturnType<typeof tempDir>>;

  beforeEach(async () => {
    server = await startTestServer();
    files = await tempDir('media-sync-files-');
  });

  afterEach(async () => {
    await fixture?.close();
    await server.close();
    await files.remove();
  });

  it('uploads a 300 MB file in 90 MB chunks, byte-identical, one request per chunk', async () => {
    fixture = await openEngine(server.baseUrl, server.token);
    const path = join(files.path, 'big clip.mp4');
    await writeRandomFile(path, 300_000_000, 7);
    const { item } = await fixture.engine.queue.enqueue({ accountId: fixture.accountId, path });
    fixture.engine.queue.start();
    await fixture.engine.queue.whenIdle();

    const done = fixture.engine.queue.get(item.id)!;
    expect(done.state.kind).toBe('done');
    const fileId = done.state.kind === 'done' ? done.state.fileId : '';
    const uploads = server.server.uploadLog.entries();
    expect(uploads.map((u) => u.chunkIndex).sort()).toEqual([0, 1, 2, 3]);
    expect(new Set(uploads.map((u) => u.dzuuid)).size).toBe(1);
    expect(uploads.every((u) => u.fileName === 'big clip.mp4')).toBe(true);
    // the last chunk goes alone, after every other chunk was acknowledged
    expect(uploads.at(-1)!.chunkIndex).toBe(3);
    expect(await sha256Url(`${server.fileHost}/${fileId}/file`)).toBe(await sha256File(path));
  });

  it('sends a small file in one request with its visibility, and patches only requested metadata', async () => {
    fixture = await openEngine(server.baseUrl, server.token);
    const plain = join(files.path, 'plain.mp4');
    const named = join(files.path, 'named.mp4');
    await writeFile(plain, 'x'.repeat(1000));
    await writeFile(named, 'y'.repeat(2000));
    const { queue } = fixture.engine;
    await queue.enqueue({ accountId: fixture.accountId, path: plain, visibility: true });
    await queue.enqueue({
      accountId: fixture.accountId,
      path: named,
      metadata: { name: 'Holiday', description: 'Sea' },
    });
    queue.start();
    await queue.whenIdle();

    const requests = server.server.requestLog.entries().filter((r) => r.path !== '/api/v1/account');
    expect(requests.filter((r) => r.method === 'POST').length).toBe(2);
    expect(requests.filter((r) => r.method === 'PATCH').length).toBe(1);
    const listed = JSON.parse((await server.api('/files')).body.toString()) as {
      data: { name: string; visibility: string }[];
    };
    expect(listed.data.map((f) => [f.name, f.visibility]).sort()).toEqual([
      ['Holiday', 'private'],
      ['plain.mp4', 'public'],
    ]);
  });
});
