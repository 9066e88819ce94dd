import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { englishText } from '../../../src-shared/i18n/message.js';
import type { FolderOptionsInput } from '../../../src-shared/model/folder-options.js';
import { previewSentences } from '../../../src-shared/model/folder-preview-text.js';
import type { Engine } from '../../../src-main/core/engine.js';
import { previewFolder } from '../../../src-main/sync/folder-preview.js';
import { FolderOptionsSchema } from '../../../src-shared/model/folder-options.js';
import { openEngine, tempDir, type EngineFixture } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const SETTLE_MS = 300;
const OLD = new Date(Date.UTC(2020, 0, 1));

/** Only videos, of at least 100 bytes, modified after 2025, and no `draft-*`: the mix below tests each rule. */
const RULES: FolderOptionsInput = {
  fileTypes: { groups: ['videos'] },
  minSize: 100,
  modifiedAfter: Date.UTC(2025, 0, 1),
  ignoreGlobs: ['draft-*'],
};

/** The files the rules take: uploaded. */
const TAKEN = { 'clip1.mp4': 2000, 'clip2.MOV': 3000, 'sub/clip3.mkv': 1500 };
/** The files they leave alone, and by which rule. */
const LEFT = {
  'tiny.mp4': 10, // size
  'old.mp4': 2000, // modified (mtime 2020)
  'photo.jpg': 2000, // type
  'notes.txt': 500, // type
  '.hidden.mp4': 2000, // hidden
  'movie.mp4.part': 2000, // litter
  'Thumbs.db': 2000, // litter
  'draft-1.mp4': 2000, // glob
};

/**
 * A folder's file rules and their preview (issue 35, part 4) on real files
 * and the reference server: what the preview says will be uploaded is what
 * is then queued and uploaded, and a file a rule leaves alone is never queued.
 */
describe('Folder rules and their preview', { timeout: 60_000 }, () => {
  let server: TestServer;
  let fixture: EngineFixture | undefined;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let folder: string;

  beforeEach(async () => {
    server = await startTestServer({ rateLimit: 100_000, conversions: false });
    temp = await tempDir('media-sync-rules-');
    folder = join(temp.path, 'Card');
    await mkdir(join(folder, 'sub'), { recursive: true });
    for (const [relPath, size] of Object.entries({ ...TAKEN, ...LEFT })) {
      await writeFile(join(folder, relPath), Buffer.alloc(size, relPath));
    }
    await utimes(join(folder, 'old.mp4'), OLD, OLD);
  });

  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
    await server.close();
    await temp.remove();
  });

  async function engineWithQueue(): Promise<Engine> {
    fixture = await openEngine(server.baseUrl, server.token, { settleMs: SETTLE_MS });
    fixture.engine.queue.start();
    return fixture.engine;
  }

  async function uploaded(engine: Engine, count: number): Promise<string[]> {
    await waitFor(
      () => {
        const items = engine.uploads.list();
        return items.length >= count && items.every((item) => item.state.kind === 'done') ? true : undefined;
      },
      30_000,
      `${count} uploads done`,
    );
    await engine.sync.whenSettled();
    await engine.queue.whenIdle();
    return engine.uploads
      .list()
      .map((item) => item.path.slice(folder.length + 1).replaceAll('\\', '/'))
      .sort();
  }

  it('counts what will be uploaded and what each rule leaves alone, and uploads exactly that', async () => {
    const engine = await engineWithQueue();
    const preview = await engine.sync.preview(folder, null, RULES);
    expect(preview).toEqual({
      upload: { files: 3, bytes: 6500 },
      existing: { files: 3, bytes: 6500 },
      known: 0,
      leftAlone: { files: 8, byRule: { type: 2, size: 1, modified: 1, hidden: 1, litter: 2, glob: 1 } },
      stopped: null,
    });
    expect(previewSentences(preview, englishText, 'en-US')).toEqual([
      '3 files (6.50 KB) will be uploaded; 8 are left alone (2 by type, 1 by size, 1 by date, 1 hidden, 2 temporary or system files, 1 by your patterns).',
    ]);

    await engine.sync.addFolder(fixture!.accountId, folder, RULES);
    // the left-alone files settle with the others: had one been queued, it would be in the list by now
    expect(await uploaded(engine, 3)).toEqual(Object.keys(TAKEN).sort());
    expect(engine.uploads.list()).toHaveLength(preview.upload.files);
  });

  it('with "only what arrives from now on", says what stays and uploads none of it', async () => {
    const engine = await engineWithQueue();
    const options = { ...RULES, uploadExisting: false };
    const preview = await engine.sync.preview(folder, null, options);
    expect(preview).toMatchObject({ upload: { files: 0, bytes: 0 }, existing: { files: 3, bytes: 6500 } });
    expect(previewSentences(preview, englishText, 'en-US')).toEqual([
      'No file will be uploaded; 8 are left alone (2 by type, 1 by size, 1 by date, 1 hidden, 2 temporary or system files, 1 by your patterns).',
      'Only what arrives from now on is uploaded: the 3 files (6.50 KB) in the folder now stay where they are.',
    ]);
    await engine.sync.addFolder(fixture!.accountId, folder, options);
    await writeFile(join(folder, 'new.mp4'), Buffer.alloc(400, 'new'));
    await writeFile(join(folder, 'new.txt'), Buffer.alloc(400, 'new'));
    expect(await uploaded(engine, 1)).toEqual(['new.mp4']);
  });

  it('a rule changed on a watched folder: the preview leaves out what was sent, and the files it now takes go', async () => {
    const engine = await engineWithQueue();
    const watched = await engine.sync.addFolder(fixture!.accountId, folder, RULES);
    await uploaded(engine, 3);
    const everyType = { ...RULES, fileTypes: null };
    const preview = await engine.sync.preview(folder, watched.id, everyType);
    expect(preview).toMatchObject({ upload: { files: 2, bytes: 2500 }, known: 3 });
    expect(previewSentences(preview, englishText, 'en-US')).toContain(
      '3 files were uploaded from this folder before and are not sent again.',
    );
    await engine.sync.updateFolder(watched.id, everyType);
    expect(await uploaded(engine, 5)).toEqual([...Object.keys(TAKEN), 'notes.txt', 'photo.jpg'].sort());
  });

  it('a rule added while files wait takes them off the queue, and they come back when it goes', async () => {
    // the queue not started: every file the folder finds waits in it
    fixture = await openEngine(server.baseUrl, server.token, { settleMs: SETTLE_MS });
    const engine = fixture.engine;
    const queued = () =>
      engine.uploads
        .unfinished()
        .map((item) => item.path.slice(folder.length + 1))
        .sort();
    const everyFile = [
      'clip1.mp4',
      'clip2.MOV',
      'draft-1.mp4',
      'notes.txt',
      'old.mp4',
      'photo.jpg',
      'sub/clip3.mkv',
      'tiny.mp4',
    ];
    const watched = await engine.sync.addFolder(fixture.accountId, folder, {});
    await waitFor(() => (queued().length === everyFile.length ? true : undefined), 20_000, 'every file queued');
    expect(queued()).toEqual(everyFile);

    const removed: number[] = [];
    engine.queue.onDidRemove((count) => removed.push(count));
    await engine.sync.updateFolder(watched.id, RULES);
    expect(queued()).toEqual(Object.keys(TAKEN).sort());
    expect(removed).toEqual([5]);
    // taken off, not declined: without the rule the folder queues them again
    await engine.sync.updateFolder(watched.id, {});
    await waitFor(() => (queued().length === everyFile.length ? true : undefined), 20_000, 'queued again');
    expect(queued()).toEqual(everyFile);

    engine.queue.start();
    expect(await uploaded(engine, everyFile.length)).toEqual(everyFile);
    expect(engine.uploads.list()).toHaveLength(everyFile.length);
  });

  it('stops at its file bound and says so, counting what it walked', async () => {
    const preview = await previewFolder({
      root: folder,
      options: FolderOptionsSchema.parse({}),
      adding: true,
      isKnown: () => false,
      bounds: { files: 4, ms: 60_000, now: () => performance.now() },
    });
    expect(preview.stopped).toBe('files');
    expect(preview.upload.files + preview.leftAlone.files).toBe(4);
    expect(previewSentences(preview, englishText, 'en-US').at(-1)).toBe(
      'Counting stopped at 100,000 files: the folder holds more.',
    );
  });

  it('stops after its time and says so', async () => {
    let now = 0;
    const preview = await previewFolder({
      root: folder,
      options: FolderOptionsSchema.parse({}),
      adding: true,
      isKnown: () => false,
      // each look at the clock is a second later: the 3 s bound ends the walk early
      bounds: { files: 100_000, ms: 3_000, now: () => (now += 1_000) },
    });
    expect(preview.stopped).toBe('time');
    expect(preview.upload.files + preview.leftAlone.files).toBeLessThan(11);
  });
});
