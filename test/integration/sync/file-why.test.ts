import { appendFile, mkdir, open, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { PLAN_FILE_SIZE_LIMIT_BYTES } from '../../../src-shared/api/limits.js';
import { englishText } from '../../../src-shared/i18n/message.js';
import type { FileWhy } from '../../../src-shared/ipc/ipc-contract.js';
import { fileWhyWords } from '../../../src-shared/model/file-why-words.js';
import { callCore, createAppCore, resultOf } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

type TempDir = Awaited<ReturnType<typeof tempDir>>;

/**
 * "Why this file?" (folders:why) on the real core, the reference server and
 * real folders: one answer per state a file of a watched folder can be in,
 * each with the words a person reads and the actions offered.
 */
describe('folders:why', () => {
  let server: TestServer;
  let data: TempDir;
  let disk: TempDir;
  let engine: Engine;
  let core: AppCore;
  let accountId: string;
  let watched: string;
  let folderId: number;

  beforeEach(async () => {
    server = await startTestServer({ conversions: false, rateLimit: 100_000 });
    data = await tempDir('media-sync-why-data-');
    disk = await tempDir('media-sync-why-files-');
    engine = await Engine.open({ dataDir: data.path, settleMs: 100, chunkSize: 1024 * 1024 });
    core = createAppCore(engine, data.path);
    await core.start();
    // premium here, free on the service: a file over the free plan's limit goes out and the service refuses it
    const account = await callCore(core, 'account:signIn', {
      baseUrl: server.baseUrl,
      token: server.token,
      plan: 'premium',
    });
    accountId = account.id;
    watched = join(disk.path, 'Camera');
    await mkdir(watched);
    const folder = await callCore(core, 'folders:add', {
      accountId,
      path: watched,
      options: { ignoreGlobs: ['*.draft'] },
    });
    folderId = folder.id;
  });

  afterEach(async () => {
    await core.dispose();
    await engine.close();
    await server.close();
    await data.remove();
    await disk.remove();
  });

  const why = (path: string) => callCore(core, 'folders:why', { path });
  const untilWhy = (path: string, what: string, check: (answer: FileWhy) => boolean) =>
    waitFor(
      async () => {
        const answer = await why(path);
        return check(answer) ? answer : undefined;
      },
      30_000,
      what,
    );
  const words = (answer: FileWhy) => {
    const { folder, verdict, next } = fileWhyWords(answer);
    return { folder: englishText(folder), verdict: englishText(verdict), next: englishText(next) };
  };

  it('names the rule that leaves a file alone (a default litter name, the folder’s glob, a hidden name)', async () => {
    const part = join(watched, 'clip.mp4.part');
    const draft = join(watched, 'notes.draft');
    const hidden = join(watched, '.cache', 'thumb.jpg');
    await mkdir(join(watched, '.cache'));
    for (const path of [part, draft, hidden]) await writeFile(path, 'bytes');
    await callCore(core, 'folders:rescan', { id: folderId });

    const byLitter = await why(part);
    expect(byLitter).toMatchObject({
      path: part,
      file: { size: 5 },
      folder: { id: folderId, path: watched, accountId },
      verdict: { kind: 'leftAlone', rule: { rule: 'litter', pattern: '*.part' } },
      actions: [{ kind: 'uploadAnyway', accountId }],
    });
    expect(words(byLitter)).toEqual({
      folder: `${watched}, watched live`,
      verdict: 'Left alone: names like “*.part” are never uploaded (temporary and system files).',
      next: 'The folder does not upload it while the rule holds.',
    });

    const byGlob = await why(draft);
    expect(byGlob.verdict).toEqual({ kind: 'leftAlone', rule: { rule: 'glob', pattern: '*.draft' } });
    expect(byGlob.actions).toEqual([
      { kind: 'uploadAnyway', accountId },
      { kind: 'removeRule', folderId, pattern: '*.draft' },
    ]);
    expect(words(byGlob).verdict).toBe('Left alone by the folder’s rule “*.draft”.');

    expect((await why(hidden)).verdict).toEqual({ kind: 'leftAlone', rule: { rule: 'hidden', segment: '.cache' } });
    // none of them went to the queue
    expect((await callCore(core, 'uploads:list', {})).total).toBe(0);
  });

  it('names the file rule that leaves a file alone (type, size, modified after)', async () => {
    const [folder] = await callCore(core, 'folders:list', {});
    const options = {
      ...folder!.options,
      fileTypes: { groups: ['videos' as const], extensions: [] },
      minSize: 100,
      modifiedAfter: Date.parse('2026-01-01T12:00:00Z'),
    };
    await callCore(core, 'folders:update', { id: folderId, options });
    const notes = join(watched, 'notes.txt');
    const tiny = join(watched, 'tiny.mp4');
    const old = join(watched, 'old.mp4');
    await writeFile(notes, 'x'.repeat(500));
    await writeFile(tiny, 'x');
    await writeFile(old, 'x'.repeat(500));
    const longAgo = new Date('2025-06-01T00:00:00Z');
    await utimes(old, longAgo, longAgo);

    const byType = await why(notes);
    expect(byType.verdict).toEqual({ kind: 'leftAlone', rule: { rule: 'type', allowed: ['videos'] } });
    expect(words(byType).verdict).toBe('Left alone: the folder does not take .txt files.');
    const bySize = await why(tiny);
    expect(bySize.verdict).toEqual({ kind: 'leftAlone', rule: { rule: 'size', min: 100, max: null } });
    expect(words(bySize).verdict).toBe('Left alone: the folder takes only files of at least 100 B.');
    const byDate = await why(old);
    expect(byDate.verdict).toEqual({ kind: 'leftAlone', rule: { rule: 'modified', after: options.modifiedAfter } });
    expect(words(byDate).verdict).toBe('Left alone: the folder takes only files modified after Jan 1, 2026.');
  });

  it('says when a path is outside every watched folder, holds no file, or is a folder; refuses a relative path', async () => {
    const outside = join(disk.path, 'elsewhere.mp4');
    await writeFile(outside, 'bytes');
    const answer = await why(outside);
    expect(answer).toMatchObject({
      folder: null,
      verdict: { kind: 'outside' },
      actions: [{ kind: 'uploadAnyway', accountId: null }],
    });
    expect(words(answer).folder).toBe('Not in a watched folder');

    const missing = await why(join(watched, 'IMG_0042.JPG'));
    expect(missing).toMatchObject({ file: null, folder: { id: folderId }, verdict: { kind: 'missing' }, actions: [] });
    expect(words(missing).verdict).toBe('There is no file at this path.');
    expect((await why(watched)).verdict).toEqual({ kind: 'notAFile' });

    expect(await resultOf(core, 'folders:why', { path: 'Camera/clip.mp4' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('“Camera/clip.mp4” is not a full path.') },
    });
  });

  it('follows a file through the queue: waiting while the queue is paused, declined once cancelled, then uploaded with its link', async () => {
    await callCore(core, 'uploads:pauseAll', { until: null });
    const clip = join(watched, 'clip.mp4');
    await writeFile(clip, 'the bytes of a clip');

    const queued = await untilWhy(clip, 'the clip in the queue', (answer) => answer.verdict.kind === 'inQueue');
    expect(queued.verdict).toMatchObject({ kind: 'inQueue', item: { path: clip, state: { kind: 'queued' } } });
    expect(queued.folder?.state).toMatchObject({ kind: 'paused', by: 'queue' });
    expect(words(queued)).toMatchObject({
      verdict: 'In the queue, waiting for its turn.',
      next: 'It uploads once the queue goes on.',
    });

    const itemId = queued.verdict.kind === 'inQueue' ? queued.verdict.item.id : 0;
    await callCore(core, 'uploads:cancel', { id: itemId });
    const declined = await why(clip);
    expect(declined).toMatchObject({
      verdict: { kind: 'declined', itemId },
      actions: [{ kind: 'retry', itemId }],
    });
    expect(words(declined).next).toBe('Nothing, until the file changes or you upload it anyway.');

    // what the Retry button does
    await callCore(core, 'uploads:retry', { id: itemId });
    await callCore(core, 'uploads:resumeAll', {});
    const uploaded = await untilWhy(clip, 'the clip uploaded', (answer) => answer.verdict.kind === 'uploaded');
    const remote = (await callCore(core, 'files:list', { accountId })).data[0]!;
    expect(uploaded.verdict).toEqual({
      kind: 'uploaded',
      fileId: remote.id,
      name: 'clip.mp4',
      at: expect.any(Number),
      itemId,
      link: remote.urls.watch,
      changedSince: false,
      existing: false,
    });
    expect(uploaded.actions).toEqual([]);
    expect(words(uploaded)).toMatchObject({ verdict: 'Uploaded.', next: 'Nothing: the service has this version.' });
  });

  it('says a file uploaded from outside any folder has changed since', async () => {
    const photo = join(disk.path, 'photo.jpg');
    await writeFile(photo, 'the first version');
    await callCore(core, 'uploads:addPaths', { accountId, paths: [photo] });
    await untilWhy(photo, 'the photo uploaded', (answer) => answer.verdict.kind === 'uploaded');
    await appendFile(photo, ', and more');

    const changed = await why(photo);
    expect(changed).toMatchObject({ folder: null, verdict: { kind: 'uploaded', changedSince: true } });
    expect(words(changed)).toMatchObject({
      verdict: 'Uploaded, but the file has changed since.',
      next: 'Nothing: upload it again to send the new version.',
    });
  });

  it('says an upload failed with the service’s reason and request id, and offers Retry', async () => {
    // a sparse file one byte over the free plan's limit: the service refuses its first chunk
    const big = join(watched, 'too-big.mp4');
    const handle = await open(big, 'w');
    await handle.truncate(PLAN_FILE_SIZE_LIMIT_BYTES.free + 1);
    await handle.close();

    const failed = await untilWhy(big, 'the big file failed', (answer) => answer.verdict.kind === 'failed');
    if (failed.verdict.kind !== 'failed') throw new Error('not failed');
    const { item } = failed.verdict;
    expect(item.state).toMatchObject({
      kind: 'failed',
      reason: { requestId: expect.stringMatching(/\S/), message: 'The given data was invalid.' },
    });
    expect(failed.actions).toEqual([{ kind: 'retry', itemId: item.id }]);
    expect(words(failed)).toMatchObject({ verdict: 'The upload failed.', next: 'Nothing, until you retry it.' });
  });
});
