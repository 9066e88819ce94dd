import { join } from 'node:path';
import { readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../helpers/local-http-server.js';
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

  it('3 chunks in flight, pieces not aligned to chunks: byte-identical, progress at most every 100 ms and ending full', async () => {
    fixture = await openEngine(server.baseUrl, server.token, { chunkSize: 7_000_000, chunksPerFile: 3 });
    const { queue } = fixture.engine;
    const path = join(files.path, 'odd sizes.mp4');
    const size = 61_234_567;
    await writeRandomFile(path, size, 13);
    const events: number[] = [];
    queue.onDidProgress(({ state }) => {
      if (state.kind === 'uploading') events.push(state.sentBytes);
    });
    const started = performance.now();
    const { item } = await queue.enqueue({ accountId: fixture.accountId, path });
    queue.start();
    await queue.whenIdle();
    const elapsedMs = performance.now() - started;

    const done = queue.get(item.id)!;
    expect(done.state.kind).toBe('done');
    const fileId = done.state.kind === 'done' ? done.state.fileId : '';
    expect(await sha256Url(`${server.fileHost}/${fileId}/file`)).toBe(await sha256File(path));
    const chunks = Math.ceil(size / 7_000_000);
    expect(
      server.server.uploadLog
        .entries()
        .map((u) => u.chunkIndex)
        .sort((a, b) => a! - b!),
    ).toEqual([...Array(chunks).keys()]);
    // one announcement per acknowledged chunk, the last byte, and otherwise one per 100 ms: not one per 1 MiB piece
    expect(events.length).toBeLessThanOrEqual(chunks + 1 + Math.ceil(elapsedMs / 100) + 1);
    expect(events.at(-1)).toBe(size);
  });

  it('sends a small file in one request with its visibility, and patches only requested metadata', async () => {
    fixture = await openEngine(server.baseUrl, server.token);
    const plain = join(files.path, 'plain.mp4');
    const named = join(files.path, 'named.mp4');
    await writeFile(plain, 'x'.repeat(1000));
    await writeFile(named, 'y'.repeat(2000));
    const { queue } = fixture.engine;
    await queue.enqueue({ accountId: fixture.accountId, path: plain, visibility: 'public' });
    await queue.enqueue({
      accountId: fixture.accountId,
      path: named,
      metadata: { name: 'Holiday', description: 'Sea', password: 'beach-2026' },
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
    // the password was set on the server, and forgotten here once it was
    expect(JSON.parse((await server.api(`/files?search=Holiday`)).body.toString())).toMatchObject({
      data: [{ password_protected: true }],
    });
    expect(fixture.engine.uploads.list().map((item) => item.metadata)).toEqual([
      {},
      { name: 'Holiday', description: 'Sea' },
    ]);
    // the token lives in the 0600 vault file, never in the database
    const stored = await Promise.all(
      ['media-sync.db', 'media-sync.db-wal'].map((name) =>
        readFile(join(fixture.dataDir, name)).catch(() => Buffer.alloc(0)),
      ),
    );
    expect(Buffer.concat(stored).includes(server.token)).toBe(false);
    const vault = (await readdir(join(fixture.dataDir, 'credentials')))[0]!;
    expect((await stat(join(fixture.dataDir, 'credentials', vault))).mode & 0o777).toBe(0o600);
  });

  it('a token disabled mid-queue pauses the account with the reason, loses nothing, and a new token resumes it', async () => {
    fixture = await openEngine(server.baseUrl, server.token, { chunkSize: 1_000_000, concurrency: 1 });
    const { engine } = fixture;
    const paths: string[] = [];
    for (let i = 0; i < 4; i++) {
      paths.push(join(files.path, `part-${i}.mp4`));
      await writeRandomFile(paths[i]!, 3_500_000, 40 + i);
    }
    const disableAfterFirst = engine.queue.onDidChangeItem((item) => {
      if (item.state.kind === 'done') {
        disableAfterFirst.dispose();
        server.admin(['token', 'disable'], { token: server.token });
      }
    });
    for (const path of paths) await engine.queue.enqueue({ accountId: fixture.accountId, path });
    engine.queue.start();
    await engine.queue.whenIdle();

    const blocked = engine.client(fixture.accountId)!.scheduler.state().blocked;
    expect(blocked).toMatchObject({ status: 403, code: 'TOKEN_DISABLED', message: 'This token has been disabled.' });
    expect(blocked!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const kinds = engine.uploads.list().map((item) => item.state.kind);
    expect(kinds[0]).toBe('done');
    expect(kinds.slice(1)).toEqual(['queued', 'queued', 'queued']);

    const fresh = server.admin(['token', 'create'], { account: 'demo' }).token as string;
    await engine.signIn(server.baseUrl, fresh);
    await engine.queue.whenIdle();

    expect(engine.uploads.list().map((item) => item.state.kind)).toEqual(['done', 'done', 'done', 'done']);
    const listed = JSON.parse((await server.api('/files?per_page=100', { token: fresh })).body.toString()) as {
      data: { id: string; filename: string }[];
    };
    expect(listed.data.map((f) => f.filename).sort()).toEqual(paths.map((p) => p.split('/').at(-1)).sort());
    for (const path of paths) {
      const file = listed.data.find((f) => f.filename === path.split('/').at(-1))!;
      expect(await sha256Url(`${server.fileHost}/${file.id}/file`)).toBe(await sha256File(path));
    }
  });

  it('pauses and resumes one upload at its next chunk, cancels another, and a timed global pause ends by itself', async () => {
    fixture = await openEngine(server.baseUrl, server.token, {
      chunkSize: 1_000_000,
      bandwidthBytesPerSecond: 4_000_000,
      concurrency: 1,
    });
    const { queue } = fixture.engine;
    const [slow, other] = [join(files.path, 'slow.mp4'), join(files.path, 'other.mp4')];
    await writeRandomFile(slow, 6_000_000, 61);
    await writeRandomFile(other, 2_000_000, 62);
    const first = (await queue.enqueue({ accountId: fixture.accountId, path: slow })).item;
    const second = (await queue.enqueue({ accountId: fixture.accountId, path: other })).item;
    queue.start();
    await waitFor(() => (queue.get(first.id)!.ackedChunks.length >= 1 ? true : undefined), 10_000, 'a chunk');

    expect((await queue.pause(first.id))!.state).toEqual({ kind: 'paused', until: null });
    const ackedBeforePause = queue.get(first.id)!.ackedChunks;
    // the other item takes the free slot; cancel it
    expect((await queue.cancel(second.id))!.state.kind).toBe('cancelled');
    await queue.whenIdle();
    expect(queue.get(first.id)!.state.kind).toBe('paused');

    await queue.pauseAll(Date.now() + 600);
    expect((await queue.resume(first.id))!.state.kind).toBe('queued');
    expect(queue.status().pause?.until).toBeGreaterThan(Date.now());
    await waitFor(() => (queue.get(first.id)!.state.kind === 'done' ? true : undefined), 15_000, 'the upload');

    const chunks = server.server.uploadLog.entries().filter((u) => u.fileName === 'slow.mp4');
    expect(new Set(chunks.map((c) => c.dzuuid)).size).toBe(1);
    // resumed where it stopped: an acknowledged chunk is never sent again; at most the 3 in flight are
    for (const index of ackedBeforePause) expect(chunks.filter((c) => c.chunkIndex === index).length).toBe(1);
    expect(chunks.length).toBeLessThanOrEqual(6 + 3);
    const listed = JSON.parse((await server.api('/files')).body.toString()) as { data: { filename: string }[] };
    expect(listed.data.map((f) => f.filename)).toEqual(['slow.mp4']);
    expect(queue.clearFinished()).toBe(2);
    expect(fixture.engine.uploads.list()).toEqual([]);
  });

  it('an item paused for a while goes by itself when its time comes, after the one queued behind it', async () => {
    fixture = await openEngine(server.baseUrl, server.token, { concurrency: 1 });
    const { queue } = fixture.engine;
    const [later, now] = [join(files.path, 'later.jpg'), join(files.path, 'now.jpg')];
    await writeFile(later, 'for later');
    await writeFile(now, 'for now');
    const first = (await queue.enqueue({ accountId: fixture.accountId, path: later })).item;
    const until = Date.now() + 600;
    expect((await queue.pause(first.id, until))!.state).toEqual({ kind: 'paused', until });
    const kinds: string[] = [];
    queue.onDidChangeItem((item) => item.id === first.id && kinds.push(item.state.kind));
    await queue.enqueue({ accountId: fixture.accountId, path: now });
    queue.start();
    await waitFor(() => (queue.get(first.id)!.state.kind === 'done' ? true : undefined), 15_000, 'the paused item');
    expect(kinds).toEqual(['queued', 'uploading', 'done']);
    expect(server.server.uploadLog.entries().map((entry) => entry.fileName)).toEqual(['now.jpg', 'later.jpg']);
  });

  it('a file gone before its turn fails with a reason a person can act on; enqueued again, the same item goes', async () => {
    fixture = await openEngine(server.baseUrl, server.token);
    const { queue } = fixture.engine;
    const path = join(files.path, 'moved-away.mp4');
    await writeFile(path, 'soon gone');
    const { item } = await queue.enqueue({ accountId: fixture.accountId, path });
    await rm(path);
    queue.start();
    await queue.whenIdle();
    expect(queue.get(item.id)!.state).toEqual({
      kind: 'failed',
      reason: { message: `Cannot read ${path}: it no longer exists.`, code: null, requestId: null },
    });

    await writeFile(path, 'back again');
    const again = await queue.enqueue({ accountId: fixture.accountId, path });
    expect(again).toMatchObject({ outcome: 'resumed', item: { id: item.id } });
    await queue.whenIdle();
    expect(queue.get(item.id)!.state.kind).toBe('done');
    expect(fixture.engine.uploads.list().length).toBe(1);
  });
});
