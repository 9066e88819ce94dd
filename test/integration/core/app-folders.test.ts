import { mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Dialog, OpenDialogReturnValue } from 'electron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_DESKTOP } from '../../../src-main/core/ports.js';
import { pickFolder } from '../../../src-main/electron/folder-picker.js';
import { createAppCore, openCoreFixture, resultOf, type CoreFixture } from '../../helpers/app-core-fixture.js';

/**
 * Choosing folders through the contract, on the real core: AppCore on a real
 * Engine (SQLite in a temp folder), signed in to the reference over
 * real temp folders. Every refused path is answered with its code and a
 * sentence naming it, and changes nothing.
 */
describe('AppCore: picking, browsing and adding folders', () => {
  let fixture: CoreFixture;
  let data: CoreFixture['data'];
  let disk: CoreFixture['files'];
  let engine: CoreFixture['engine'];
  let core: CoreFixture['core'];
  let events: CoreFixture['events'];
  let signIn: CoreFixture['signIn'];

  beforeEach(async () => {
    fixture = await openCoreFixture('media-sync-app-folders-');
    ({ data, files: disk, engine, core, events, signIn } = fixture);
  });

  afterEach(() => fixture.close());

  it('browses from the home folder into a folder, and answers a bad path with its code and a sentence', async () => {
    await mkdir(join(disk.path, 'Videos', 'To upload'), { recursive: true });
    await writeFile(join(disk.path, 'clip.mp4'), 'a file');

    expect(await resultOf(core, 'folders:browse', {})).toMatchObject({
      ok: true,
      value: { path: homedir(), home: homedir() },
    });
    expect(await resultOf(core, 'folders:browse', { path: join(disk.path, 'Videos') })).toEqual({
      ok: true,
      value: {
        path: join(disk.path, 'Videos'),
        parent: disk.path,
        home: homedir(),
        entries: [{ name: 'To upload', path: join(disk.path, 'Videos', 'To upload') }],
        truncated: false,
      },
    });

    const file = join(disk.path, 'clip.mp4');
    expect(await resultOf(core, 'folders:browse', { path: file })).toEqual({
      ok: false,
      error: {
        code: 'NOT_A_FOLDER',
        message: `“${file}” is a file, not a folder. Choose the folder that holds it instead.`,
        requestId: null,
        text: { key: 'core.folderPath.isFile', values: { path: file } },
      },
    });
    expect(await resultOf(core, 'folders:browse', { path: 'Videos' })).toMatchObject({
      ok: false,
      error: { code: 'FOLDER_PATH_NOT_ABSOLUTE', message: expect.stringContaining('“Videos” is not a full path.') },
    });
    expect(await resultOf(core, 'folders:browse', { path: '' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    });
  });

  it('adds no folder for a path that is not one, saying why; a good one is added as its full path', async () => {
    const accountId = await signIn();
    const file = join(disk.path, 'clip.mp4');
    await writeFile(file, 'a file');
    const missing = join(disk.path, 'Vidoes');
    const refusals = [
      { path: file, code: 'NOT_A_FOLDER', message: `“${file}” is a file, not a folder.` },
      { path: missing, code: 'FOLDER_NOT_FOUND', message: `There is no folder at “${missing}”.` },
      { path: 'Videos', code: 'FOLDER_PATH_NOT_ABSOLUTE', message: '“Videos” is not a full path.' },
    ];
    for (const { path, code, message } of refusals) {
      expect(await resultOf(core, 'folders:add', { accountId, path })).toEqual({
        ok: false,
        error: { code, message: expect.stringContaining(message), requestId: null, text: expect.anything() },
      });
    }
    expect(await resultOf(core, 'folders:list', {})).toEqual({ ok: true, value: [] });
    expect(events.filter((event) => event.name === 'folders:changed')).toEqual([]);

    await mkdir(join(disk.path, 'Videos'));
    const added = await resultOf(core, 'folders:add', { accountId, path: `${disk.path}/Videos/` });
    expect(added).toMatchObject({ ok: true, value: { path: join(disk.path, 'Videos') } });
  });

  it('answers app:pickFolder with the desktop picker, and UNAVAILABLE where there is none', async () => {
    expect(await resultOf(core, 'app:pickFolder', {})).toEqual({
      ok: false,
      error: {
        code: 'UNAVAILABLE',
        message:
          'This Media Sync has no folder picker of its own; choose the folder with the page’s folder browser instead.',
        requestId: null,
        text: { key: 'core.errors.noFolderPicker' },
      },
    });

    const answers: OpenDialogReturnValue[] = [
      { canceled: false, filePaths: [join(disk.path, 'Picked')] },
      { canceled: true, filePaths: [] },
    ];
    const dialog = { showOpenDialog: async () => answers.shift()! } as unknown as Pick<Dialog, 'showOpenDialog'>;
    const desktop = createAppCore(engine, data.path, {
      shell: { ...NO_DESKTOP, pickFolder: () => pickFolder(dialog, null, 'Choose a folder to watch') },
      info: { version: '0.1.0', shell: 'electron', dataDir: data.path },
    });
    try {
      expect(await resultOf(desktop, 'app:pickFolder', {})).toEqual({
        ok: true,
        value: { path: join(disk.path, 'Picked') },
      });
      expect(await resultOf(desktop, 'app:pickFolder', {})).toEqual({ ok: true, value: { path: null } });
    } finally {
      await desktop.dispose();
    }
  });
});
