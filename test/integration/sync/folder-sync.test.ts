import { appendFile, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src-main/core/engine.js';
import { FreedesktopTrash } from '../../../src-main/system/freedesktop-trash.js';
import { openEngine, sha256File, sha256Url, tempDir, type EngineFixture } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { serverFiles as listServerFiles, uploadsDone } from '../../helpers/watched-folder.js';

const SETTLE_MS = 300;

describe('folder sync against the reference server', () => {
  let server: TestServer;
  let fixture: EngineFixture | undefined;
  let folder: Awaited<ReturnType<typeof tempDir>>;
  /** the $XDG_DATA_HOME of the Trash that "Delete after upload" uses */
  let dataHome: Awaited<ReturnType<typeof tempDir>>;
  const trashed = () => readdir(join(dataHome.path, 'Trash', 'files')).catch(() => [] as string[]);

  beforeEach(async () => {
    server = await startTestServer({ rateLimit: 100_000 });
    folder = await tempDir('media-sync-watched-');
    dataHome = await tempDir('media-sync-data-home-');
  });

  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
    await server.close();
    await folder.remove();
    await dataHome.remove();
  });

  const engineOptions = () => ({
    settleMs: SETTLE_MS,
    trash: new FreedesktopTrash({ dataHome: dataHome.path, uid: process.getuid?.() ?? 0 }),
  });

  const serverFiles = () => listServerFiles(server);

  async function watch(options: Parameters<Engine['sync']['addFolder']>[2] = {}) {
    fixture = await openEngine(server.baseUrl, server.token, engineOptions());
    fixture.engine.queue.start();
    await fixture.engine.sync.addFolder(fixture.accountId, folder.path, options);
    return fixture.engine;
  }

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('uploads a slowly written file once, complete, after the writer stops', async () => {
    const engine = await watch();
    const path = join(folder.path, 'recording.mp4');
    await writeFile(path, 'start;');
    for (let i = 0; i < 6; i++) {
      await pause(150);
      await appendFile(path, `piece ${i};`.repeat(500));
    }
    await uploadsDone(engine, 1);
    await pause(SETTLE_MS * 3);
    const listed = await serverFiles();
    expect(listed.map((f) => f.filename)).toEqual(['recording.mp4']);
    expect(await sha256Url(`${server.fileHost}/${listed[0]!.id}/file`)).toBe(await sha256File(path));
    expect(server.server.uploadLog.entries().length).toBe(1);
  });

  it('ignores a .part download and picks the file up when it is renamed to its real name', async () => {
    const engine = await watch();
    const partial = join(folder.path, 'movie.mp4.part');
    await writeFile(partial, 'downloaded bytes '.repeat(2000));
    await writeFile(join(folder.path, '.hidden.mp4'), 'hidden');
    await writeFile(join(folder.path, '~$draft.mp4'), 'office lock');
    await pause(SETTLE_MS * 3);
    expect(engine.uploads.list()).toEqual([]);
    await rename(partial, join(folder.path, 'movie.mp4'));
    await uploadsDone(engine, 1);
    expect((await serverFiles()).map((f) => f.filename)).toEqual(['movie.mp4']);
  });

  it('uploads 2,000 files dropped at once, each exactly once', async () => {
    const engine = await watch();
    await Promise.all(
      Array.from({ length: 2_000 }, (_, i) =>
        writeFile(join(folder.path, `img-${String(i).padStart(4, '0')}.jpg`), `photo ${i}`),
      ),
    );
    // a bound against a hang, not a speed figure: ~30 s alone, much longer beside other test files on 2 cores
    await uploadsDone(engine, 2_000, 150_000);
    const names = (await serverFiles()).map((f) => f.filename);
    expect(names.length).toBe(2_000);
    expect(new Set(names).size).toBe(2_000);
    expect(server.server.uploadLog.entries().length).toBe(2_000);
  }, 180_000);

  it('finds files added while it was stopped, and does not upload the old ones again', async () => {
    const engine = await watch();
    await writeFile(join(folder.path, 'before.mp4'), 'before');
    await uploadsDone(engine, 1);
    const dataDir = fixture!.dataDir;
    await engine.close();

    await writeFile(join(folder.path, 'while-off-1.mp4'), 'one');
    await mkdir(join(folder.path, 'sub'));
    await writeFile(join(folder.path, 'sub', 'while-off-2.mp4'), 'two');
    const reopened = await Engine.open({ dataDir, settleMs: SETTLE_MS });
    fixture = { ...fixture!, engine: reopened };
    reopened.queue.start();
    await reopened.sync.start();
    await uploadsDone(reopened, 3);
    await pause(SETTLE_MS * 3);
    expect((await serverFiles()).map((f) => f.filename).sort()).toEqual([
      'before.mp4',
      'while-off-1.mp4',
      'while-off-2.mp4',
    ]);
    expect(server.server.uploadLog.entries().length).toBe(3);
  });

  it('counts a file the person uploaded themselves as sent: not uploaded again once the queue is cleared', async () => {
    fixture = await openEngine(server.baseUrl, server.token, { settleMs: SETTLE_MS });
    const engine = fixture.engine;
    engine.queue.start();
    // a drop on the window, before the folder was watched; then one while it is
    await writeFile(join(folder.path, 'dropped.mp4'), 'dropped on the window');
    await engine.queue.enqueue({ accountId: fixture.accountId, path: join(folder.path, 'dropped.mp4') });
    await uploadsDone(engine, 1);
    await engine.sync.addFolder(fixture.accountId, folder.path);
    await writeFile(join(folder.path, 'mine.mp4'), 'uploaded with media-sync upload');
    await engine.queue.enqueue({ accountId: fixture.accountId, path: join(folder.path, 'mine.mp4') });
    await uploadsDone(engine, 2);
    await engine.sync.rescan();
    await engine.sync.whenSettled();
    expect(engine.queue.clearFinished()).toBe(2);
    const dataDir = fixture.dataDir;
    await engine.close();

    const reopened = await Engine.open({ dataDir, settleMs: SETTLE_MS });
    fixture = { ...fixture, engine: reopened };
    reopened.queue.start();
    await reopened.sync.start();
    await reopened.sync.rescan();
    await reopened.sync.whenSettled();
    await reopened.queue.whenIdle();
    expect(reopened.uploads.list()).toEqual([]);
    expect(server.server.uploadLog.entries().length).toBe(2);
  });

  it('does not upload a renamed or moved file again', async () => {
    const engine = await watch();
    await mkdir(join(folder.path, 'sorted'));
    await writeFile(join(folder.path, 'a.mp4'), 'the same bytes '.repeat(100));
    await uploadsDone(engine, 1);
    await rename(join(folder.path, 'a.mp4'), join(folder.path, 'sorted', 'b.mp4'));
    await waitFor(() => engine.index.lookup(1, 'sorted/b.mp4'), 10_000, 'the index to follow the rename');
    await pause(SETTLE_MS * 3);
    expect(server.server.uploadLog.entries().length).toBe(1);
    expect(engine.index.lookup(1, 'a.mp4')).toBeUndefined();
  });

  it('only new files when asked, and moves uploaded files into a subfolder that is not watched', async () => {
    await writeFile(join(folder.path, 'old.mp4'), 'was here before');
    const engine = await watch({ uploadExisting: false, afterUpload: { kind: 'move', subfolder: 'Uploaded' } });
    await writeFile(join(folder.path, 'new.mp4'), 'arrived later');
    await uploadsDone(engine, 1);
    await waitFor(
      async () => ((await readdir(folder.path)).includes('Uploaded') ? true : undefined),
      5_000,
      'the move',
    );
    await pause(SETTLE_MS * 3);
    expect((await serverFiles()).map((f) => f.filename)).toEqual(['new.mp4']);
    expect((await readdir(folder.path)).sort()).toEqual(['Uploaded', 'old.mp4']);
    expect(await readdir(join(folder.path, 'Uploaded'))).toEqual(['new.mp4']);
    expect(server.server.uploadLog.entries().length).toBe(1);
  });

  it("uploads with the folder's visibility and online-watch choice, then puts the local file in the Trash when asked", async () => {
    const engine = await watch({ visibility: 'public', allowOnlineWatch: false, afterUpload: { kind: 'delete' } });
    await writeFile(join(folder.path, 'share.mp4'), 'to share');
    await uploadsDone(engine, 1);
    await waitFor(async () => ((await readdir(folder.path)).length === 0 ? true : undefined), 5_000, 'the delete');
    expect(await trashed()).toEqual(['share.mp4']);
    const listed = JSON.parse((await server.api('/files')).body.toString()) as {
      data: { visibility: string; allow_online_watch: boolean }[];
    };
    expect(listed.data).toMatchObject([{ visibility: 'public', allow_online_watch: false }]);
    // visibility went in the upload, allow_online_watch in one PATCH: two requests for this file
    const sent = server.server.requestLog.entries().filter((r) => r.method !== 'GET');
    expect(sent.map((r) => r.method)).toEqual(['POST', 'PATCH']);
  });

  it('skips a file already on the service by name and size when asked, leaves it in place, and uploads the rest', async () => {
    fixture = await openEngine(server.baseUrl, server.token, engineOptions());
    const { engine } = fixture;
    engine.queue.start();
    // on the service already: holiday.mp4 as it is here, and a clip.mp4 of another size
    const earlier = await tempDir('media-sync-earlier-');
    try {
      await writeFile(join(earlier.path, 'holiday.mp4'), 'the holiday');
      await writeFile(join(earlier.path, 'clip.mp4'), 'an older cut');
      for (const name of ['holiday.mp4', 'clip.mp4'])
        await engine.queue.enqueue({ accountId: fixture.accountId, path: join(earlier.path, name) });
      await uploadsDone(engine, 2);
    } finally {
      await earlier.remove();
    }
    const before = new Map((await serverFiles()).map((file) => [file.filename, file.id]));
    await writeFile(join(folder.path, 'holiday.mp4'), 'the holiday');
    await writeFile(join(folder.path, 'clip.mp4'), 'the final cut, longer');
    await writeFile(join(folder.path, 'notes.mp4'), 'new');

    await engine.sync.addFolder(fixture.accountId, folder.path, {
      skipExisting: true,
      afterUpload: { kind: 'delete' },
    });
    await uploadsDone(engine, 5);

    const fromFolder = engine.uploads.list().filter((item) => item.folderId !== null);
    const holiday = fromFolder.find((item) => item.fileName === 'holiday.mp4')!;
    expect(holiday.state).toMatchObject({ kind: 'done', fileId: before.get('holiday.mp4'), existing: true });
    expect(fromFolder.filter((item) => item.state.kind === 'done' && !item.state.existing)).toHaveLength(2);
    // the found file stays where it is: a name and a size are no proof that it is the same file
    await waitFor(async () => ((await readdir(folder.path)).length === 1 ? true : undefined), 5_000, 'the deletes');
    expect(await readdir(folder.path)).toEqual(['holiday.mp4']);
    expect((await trashed()).sort()).toEqual(['clip.mp4', 'notes.mp4']);
    expect((await serverFiles()).map((file) => file.filename).sort()).toEqual([
      'clip.mp4',
      'clip.mp4',
      'holiday.mp4',
      'notes.mp4',
    ]);
    const uploads = server.server.requestLog.entries().filter((r) => r.method === 'POST');
    expect(uploads).toHaveLength(4);
  });
});
