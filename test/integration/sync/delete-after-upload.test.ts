import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { mkdir, readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FolderOptionsInput } from '../../../src-shared/model/folder-options.js';
import type { Engine } from '../../../src-main/core/engine.js';
import { FreedesktopTrash } from '../../../src-main/system/freedesktop-trash.js';
import { countFiles, PathRules } from '../../../src-main/sync/folder-walk.js';
import { openEngine, tempDir, type EngineFixture } from '../../helpers/engine-fixture.js';
import { startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const SETTLE_MS = 300;
const UID = process.getuid?.() ?? 0;

/**
 * "Delete after upload" on real files, through the freedesktop.org Trash of
 * a temporary $XDG_DATA_HOME (issue 30, item 7): a last look before each
 * file goes, sidecars with their media file, and nothing that failed, was
 * skipped or was found on the service.
 */
describe('Delete after upload: to the Trash, after a last look', () => {
  let server: TestServer;
  let proxy: FaultProxy | undefined;
  let fixture: EngineFixture | undefined;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let folder: string;
  let trashHome: string;

  beforeEach(async () => {
    server = await startTestServer({ rateLimit: 100_000, conversions: false });
    temp = await tempDir('media-sync-delete-');
    folder = join(temp.path, 'Card');
    await mkdir(folder);
    trashHome = join(temp.path, 'share', 'Trash');
  });

  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
    await proxy?.close();
    proxy = undefined;
    await server.close();
    await temp.remove();
  });

  async function watch(options: FolderOptionsInput, baseUrl = server.baseUrl): Promise<Engine> {
    const trash = new FreedesktopTrash({ dataHome: join(temp.path, 'share'), uid: UID });
    fixture = await openEngine(baseUrl, server.token, { settleMs: SETTLE_MS, trash });
    fixture.engine.queue.start();
    await fixture.engine.sync.addFolder(fixture.accountId, folder, { afterUpload: { kind: 'delete' }, ...options });
    return fixture.engine;
  }

  async function settled(engine: Engine, count: number): Promise<void> {
    await waitFor(
      () => {
        const items = engine.uploads.list();
        const ended = items.filter((item) => ['done', 'failed', 'cancelled'].includes(item.state.kind));
        return items.length >= count && ended.length === items.length ? true : undefined;
      },
      30_000,
      `${count} uploads to end`,
    );
    await engine.sync.whenSettled();
    await engine.queue.whenIdle();
  }

  const trashed = async () => (await readdir(join(trashHome, 'files')).catch(() => [] as string[])).sort();
  const infoOf = (name: string) => readFile(join(trashHome, 'info', `${name}.trashinfo`), 'utf8');
  const serverNames = async () =>
    (JSON.parse((await server.api('/files?per_page=100')).body.toString()) as { data: { filename: string }[] }).data
      .map((file) => file.filename)
      .sort();

  it('puts each uploaded file in the Trash with its .trashinfo, and its sidecars with it', async () => {
    const engine = await watch({});
    await mkdir(join(folder, 'DCIM'));
    const files = {
      'DCIM/IMG_0001.JPG': 'a photo',
      'DCIM/IMG_0001.xmp': '<x:xmpmeta>edits</x:xmpmeta>',
      'DCIM/IMG_0001.AAE': '<plist>apple edits</plist>',
      'GX010042.MP4': 'a clip',
      'GX010042.LRV': 'its low-resolution proxy',
      'GX010042.MP4.srt': 'subtitles named after the whole name',
      'notes.txt': 'no sidecars',
    };
    for (const [relPath, content] of Object.entries(files)) await writeFile(join(folder, relPath), content);
    await settled(engine, 7);
    await waitFor(async () => ((await trashed()).length === 7 ? true : undefined), 10_000, 'all 7 in the Trash');

    expect(await trashed()).toEqual(
      Object.keys(files)
        .map((relPath) => relPath.split('/').pop())
        .sort(),
    );
    expect(await readdir(folder)).toEqual(['DCIM']);
    expect(await readdir(join(folder, 'DCIM'))).toEqual([]);
    expect(await readFile(join(trashHome, 'files', 'IMG_0001.xmp'), 'utf8')).toBe('<x:xmpmeta>edits</x:xmpmeta>');
    expect(await infoOf('IMG_0001.JPG')).toMatch(
      new RegExp(
        `^\\[Trash Info\\]\\nPath=${folder}/DCIM/IMG_0001\\.JPG\\nDeletionDate=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\n$`,
      ),
    );
    // each file went up once: sidecars are uploaded as the folder's files, and then go with their media file
    expect(await serverNames()).toEqual(
      Object.keys(files)
        .map((relPath) => relPath.split('/').pop())
        .sort(),
    );
  });

  it('never touches a file that failed, was cancelled or was found on the service; a sidecar stays with its media file', async () => {
    // on the service already: found.mp4 as it is here
    const earlier = join(temp.path, 'earlier');
    await mkdir(earlier);
    await writeFile(join(earlier, 'found.mp4'), 'the same bytes');
    const engine = await watch({ skipExisting: true });
    await engine.queue.enqueue({ accountId: fixture!.accountId, path: join(earlier, 'found.mp4') });
    await engine.queue.whenIdle();

    await engine.queue.pauseAll(null);
    await writeFile(join(folder, 'found.mp4'), 'the same bytes');
    // over the free plan's 4 GiB (sparse: no disk used): it fails before a byte is sent
    await writeFile(join(folder, 'huge.mov'), '');
    await truncate(join(folder, 'huge.mov'), 4.5 * 1024 ** 3);
    await writeFile(join(folder, 'huge.srt'), 'its subtitles, uploaded, and staying with it');
    await writeFile(join(folder, 'cancelled.mp4'), 'the person cancels this one');
    await writeFile(join(folder, 'sent.mp4'), 'this one goes');
    await waitFor(() => (engine.uploads.list().length === 6 ? true : undefined), 20_000, 'the 5 files queued');
    const cancelled = engine.uploads.list().find((item) => item.fileName === 'cancelled.mp4')!;
    await engine.queue.cancel(cancelled.id);
    engine.queue.resumeAll();
    await settled(engine, 6);
    await waitFor(async () => ((await trashed()).length === 1 ? true : undefined), 10_000, 'sent.mp4 in the Trash');

    const fromFolder = engine.uploads.list().filter((item) => item.folderId !== null);
    const states = Object.fromEntries(fromFolder.map((item) => [item.fileName, item.state.kind]));
    expect(states).toEqual({
      'found.mp4': 'done',
      'huge.mov': 'failed',
      'huge.srt': 'done',
      'cancelled.mp4': 'cancelled',
      'sent.mp4': 'done',
    });
    expect(await trashed()).toEqual(['sent.mp4']);
    expect((await readdir(folder)).sort()).toEqual(['cancelled.mp4', 'found.mp4', 'huge.mov', 'huge.srt']);
  });

  it('a file changed after its last read stays, and its new content is queued, uploaded and then put in the Trash', async () => {
    proxy = await startFaultProxy(new URL(server.baseUrl).origin);
    const path = join(folder, 'take.mov');
    // the details' PATCH comes once the upload was checked: the second take is saved over the first meanwhile
    proxy.addRule({
      match: (request) => request.method === 'PATCH',
      fault: {
        kind: 'rewrite-response',
        rewrite: (body) => {
          appendFileSync(path, randomBytes(4096));
          return body;
        },
      },
    });
    await writeFile(path, 'the first take');
    const engine = await watch({ allowOnlineWatch: true }, `${proxy.url}/api/v1`);
    await settled(engine, 2);
    await waitFor(
      async () => ((await trashed()).length === 1 ? true : undefined),
      10_000,
      'the second take in the Trash',
    );

    expect(await readdir(folder)).toEqual([]);
    expect(await trashed()).toEqual(['take.mov']);
    const inTrash = join(trashHome, 'files', 'take.mov');
    expect((await readFile(inTrash)).subarray(0, 14).toString()).toBe('the first take');
    expect((await readFile(inTrash)).length).toBe(14 + 4096);
    // the first take went up before it changed, the final one after: as any file edited after its upload
    const items = engine.uploads.list();
    expect(items.map((item) => [item.state.kind, item.size])).toEqual([
      ['done', 14],
      ['done', 14 + 4096],
    ]);
    expect(await serverNames()).toEqual(['take.mov', 'take.mov']);
  });

  it('counts the files it would put in the Trash before it is turned on: those the folder takes and has not sent', async () => {
    await mkdir(join(folder, 'sub'));
    for (const name of ['a.mp4', 'b.mp4', 'sub/c.mp4', '.hidden.mp4', 'd.mp4.part']) {
      await writeFile(join(folder, name), name);
    }
    const trash = new FreedesktopTrash({ dataHome: join(temp.path, 'share'), uid: UID });
    fixture = await openEngine(server.baseUrl, server.token, { settleMs: SETTLE_MS, trash });
    const { sync, queue } = fixture.engine;
    const deleting = { afterUpload: { kind: 'delete' as const } };
    expect(await sync.countToRemove(folder, null, deleting)).toEqual({ files: 3, more: false });
    expect(await sync.countToRemove(folder, null, { ...deleting, includeSubfolders: false })).toEqual({
      files: 2,
      more: false,
    });
    expect(await sync.countToRemove(folder, null, { ...deleting, uploadExisting: false })).toEqual({
      files: 0,
      more: false,
    });
    // the walk is bounded: it stops at its count (or its time) and says there are more
    const rules = new PathRules({ includeSubfolders: true });
    expect(await countFiles(folder, rules, () => true, { files: 2, ms: 60_000, now: () => 0 })).toEqual({
      files: 2,
      more: true,
    });
    let clock = 0;
    const late = await countFiles(folder, rules, () => true, { files: 100, ms: 10, now: () => (clock += 20) });
    expect(late).toEqual({ files: 1, more: true });
    await expect(sync.countToRemove(join(folder, 'nowhere'), null, deleting)).rejects.toMatchObject({
      code: 'FOLDER_NOT_FOUND',
    });

    // watched, keeping its files: what it sent is no longer counted, what arrived since is
    queue.start();
    const watched = await sync.addFolder(fixture.accountId, folder);
    await settled(fixture.engine, 3);
    await queue.pauseAll(null);
    await writeFile(join(folder, 'e.mp4'), 'arrived later');
    await waitFor(() => (fixture!.engine.uploads.list().length === 4 ? true : undefined), 10_000, 'e.mp4 queued');
    expect(await sync.countToRemove(folder, watched.id, deleting)).toEqual({ files: 1, more: false });
  });
});
