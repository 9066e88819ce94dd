import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PENDING_INTENTS } from '../../../src-main/core/intent-inbox.js';
import type { AppIntent } from '../../../src-shared/ipc/ipc-contract.js';
import { callCore, openCoreFixture, resultOf, type CoreFixture } from '../../helpers/app-core-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';

/**
 * Links and opened files on the real core: AppCore on a real Engine (SQLite
 * in a temp folder) against the reference server. A link only ever waits
 * for a page; opened files go to the real queue and are uploaded.
 */
describe('AppCore: media-sync:// links and opened files', () => {
  let fixture: CoreFixture;
  let server: CoreFixture['server'];
  let files: CoreFixture['files'];
  let engine: CoreFixture['engine'];
  let core: CoreFixture['core'];
  let events: CoreFixture['events'];
  let signIn: CoreFixture['signIn'];

  beforeEach(async () => {
    fixture = await openCoreFixture('media-sync-links-');
    ({ server, files, engine, core, events, signIn } = fixture);
  });

  afterEach(() => fixture.close());

  const take = (): Promise<AppIntent[]> => callCore(core, 'app:takeIntents', {});

  const available = () => events.filter((event) => event.name === 'app:intentsAvailable').map((e) => e.payload);
  const remoteRequests = () =>
    server.server.requestLog.entries().filter((entry) => entry.path.startsWith('/api/v1/remote-uploads'));

  it('keeps a link for the page, tells it so, and hands it out once; an import link asks nothing of the server', async () => {
    await signIn();
    const address = 'https://videos.example.com/holiday.mp4';
    const link = `media-sync://import?url=${encodeURIComponent(address)}`;
    const opened = await resultOf(core, 'app:openLink', { link });
    expect(opened).toEqual({ ok: true, value: { kind: 'import', id: 1, url: address } });
    expect(available()).toEqual([{ count: 1 }]);

    const search = await callCore(core, 'app:openLink', { link: 'media-sync://files?search=holiday' });
    expect(search).toEqual({ kind: 'files', id: 2, search: 'holiday' });
    expect(available()).toEqual([{ count: 1 }, { count: 2 }]);

    expect(await take()).toEqual([
      { kind: 'import', id: 1, url: address },
      { kind: 'files', id: 2, search: 'holiday' },
    ]);
    expect(await take()).toEqual([]);

    // nothing was sent for the import link: no job on the server, no request to its routes
    expect(remoteRequests()).toEqual([]);
    const jobs = await server.api('/remote-uploads');
    expect(jobs.json.data).toEqual([]);
  });

  it('answers a malformed link with the reason, and changes nothing', async () => {
    await signIn();
    const result = await resultOf(core, 'app:openLink', {
      link: `media-sync://import?url=${encodeURIComponent('ftp://media.example.com/v.mp4')}`,
    });
    expect(result).toEqual({
      ok: true,
      value: {
        kind: 'invalidLink',
        id: 1,
        link: 'media-sync://import?url=ftp%3A%2F%2Fmedia.example.com%2Fv.mp4',
        message: 'The address to import uses ftp; only http and https links can be imported.',
        text: { key: 'core.remoteUrl.link.scheme', values: { scheme: 'ftp' } },
      },
    });
    expect(await take()).toHaveLength(1);
    expect(await resultOf(core, 'app:openLink', { link: 'x'.repeat(70_000) })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    });
    expect(remoteRequests()).toEqual([]);
    expect(await resultOf(core, 'uploads:list', {})).toEqual({ ok: true, value: { items: [], total: 0 } });
  });

  it('keeps the last 20 intents while no page takes them', async () => {
    for (let i = 1; i <= MAX_PENDING_INTENTS + 5; i++) {
      await callCore(core, 'app:openLink', { link: `media-sync://files?search=clip-${i}` });
    }
    const waiting = await take();
    expect(waiting.map((intent) => intent.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 6));
    expect(available().at(-1)).toEqual({ count: MAX_PENDING_INTENTS });
  });

  it('queues opened files for the default account and uploads them; a missing path, a folder or a FIFO is named and skipped', async () => {
    const accountId = await signIn();
    await writeFile(join(files.path, 'a.mp4'), 'first clip');
    await writeFile(join(files.path, 'b.mp4'), 'second clip');
    await writeFile(join(files.path, 'c.mp4'), 'third clip');
    await mkdir(join(files.path, 'holiday'));
    execFileSync('mkfifo', [join(files.path, 'pipe.mp4')]);

    const intent = await callCore(core, 'app:openFiles', {
      paths: [
        join(files.path, 'a.mp4'),
        'b.mp4', // relative to the second instance's working directory
        pathToFileURL(join(files.path, 'c.mp4')).href, // as a Linux file manager passes it
        join(files.path, 'gone.mp4'),
        join(files.path, 'holiday'),
        join(files.path, 'pipe.mp4'),
      ],
      workingDirectory: files.path,
    });
    expect(intent).toEqual({
      kind: 'filesQueued',
      id: 1,
      account: { id: accountId, username: 'demo', baseUrl: server.baseUrl },
      queued: { count: 3, names: ['a.mp4', 'b.mp4', 'c.mp4'] },
      uploadedBefore: { count: 0, names: [] },
      skipped: {
        count: 3,
        files: [
          { name: 'gone.mp4', reason: 'missing' },
          { name: 'holiday', reason: 'folder' },
          { name: 'pipe.mp4', reason: 'notAFile' },
        ],
      },
    });
    expect(await take()).toEqual([intent]);

    await waitFor(
      () => (engine.uploads.list().every((item) => item.state.kind === 'done') ? true : undefined),
      15_000,
      'the three uploads',
    );
    const uploaded = await server.api('/files?per_page=100');
    expect((uploaded.json.data as { filename: string }[]).map((file) => file.filename).sort()).toEqual([
      'a.mp4',
      'b.mp4',
      'c.mp4',
    ]);
    expect(engine.uploads.list().map((item) => item.accountId)).toEqual([accountId, accountId, accountId]);

    // the same files again: the queue does not send them twice, and says so
    const again = await callCore(core, 'app:openFiles', {
      paths: [join(files.path, 'a.mp4'), join(files.path, 'gone.mp4')],
    });
    expect(again).toMatchObject({
      kind: 'filesNotQueued',
      reason: 'nothingQueued',
      opened: { count: 2, names: ['a.mp4', 'gone.mp4'] },
      uploadedBefore: { count: 1, names: ['a.mp4'] },
      skipped: { count: 1, files: [{ name: 'gone.mp4', reason: 'missing' }] },
    });
    expect(engine.uploads.list()).toHaveLength(3);
  });

  it('names the first five of many opened files and counts the rest', async () => {
    await signIn();
    await resultOf(core, 'uploads:pauseAll', { until: null });
    const paths: string[] = [];
    for (let i = 1; i <= 7; i++) {
      paths.push(join(files.path, `clip-${i}.mp4`));
      await writeFile(paths.at(-1)!, `clip ${i}`);
    }
    const intent = await callCore(core, 'app:openFiles', { paths });
    expect(intent).toMatchObject({
      kind: 'filesQueued',
      queued: { count: 7, names: ['clip-1.mp4', 'clip-2.mp4', 'clip-3.mp4', 'clip-4.mp4', 'clip-5.mp4'] },
    });
    expect(engine.uploads.list()).toHaveLength(7);
  });

  it('with no account signed in, says to sign in first and queues nothing', async () => {
    await writeFile(join(files.path, 'a.mp4'), 'a clip');
    const result = await resultOf(core, 'app:openFiles', { paths: ['a.mp4'], workingDirectory: files.path });
    const intent = result.ok ? result.value : result.error;
    expect(intent).toEqual({
      kind: 'filesNotQueued',
      id: 1,
      reason: 'signInFirst',
      account: null,
      opened: { count: 1, names: ['a.mp4'] },
      uploadedBefore: { count: 0, names: [] },
      skipped: { count: 0, files: [] },
    });
    expect(await take()).toEqual([intent]);
    expect(engine.uploads.list()).toEqual([]);
    expect(server.server.requestLog.entries()).toEqual([]);
  });
});
