import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkFolderPath } from '../../../src-main/sync/folder-path.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { callWithoutRoot, openToOthers } from '../../helpers/unprivileged.js';

describe('checkFolderPath on real folders', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  const here = () => ({ home: join(root.path, 'home'), platform: process.platform });

  beforeEach(async () => {
    root = await tempDir('media-sync-folder-path-');
    await mkdir(join(root.path, 'home', 'Videos', 'To upload'), { recursive: true });
    await writeFile(join(root.path, 'home', 'Videos', 'clip.mp4'), 'not a folder');
  });
  afterEach(async () => {
    // a folder left at 000 could not be emptied
    await chmod(join(root.path, 'locked'), 0o755).catch(() => undefined);
    await root.remove();
  });

  it('answers the absolute, normalised path of a folder, and of a symlink to one', async () => {
    const videos = join(root.path, 'home', 'Videos');
    expect(await checkFolderPath(`${videos}/../Videos/To upload/`, here())).toBe(join(videos, 'To upload'));
    await symlink(videos, join(root.path, 'linked'));
    // the link is kept as typed: it is the path the person chose
    expect(await checkFolderPath(join(root.path, 'linked'), here())).toBe(join(root.path, 'linked'));
  });

  it('starts ~ at the home folder: the given one, and by default the home of the user running it', async () => {
    expect(await checkFolderPath('~', here())).toBe(join(root.path, 'home'));
    expect(await checkFolderPath('~/Videos/To upload', here())).toBe(join(root.path, 'home', 'Videos', 'To upload'));
    expect(await checkFolderPath('~')).toBe(homedir());
  });

  it('names a path with no folder: missing, through a file, or a broken link', async () => {
    const missing = join(root.path, 'home', 'Vidoes');
    const throughFile = join(root.path, 'home', 'Videos', 'clip.mp4', 'inside');
    const broken = join(root.path, 'broken');
    await symlink(join(root.path, 'gone'), broken);
    for (const path of [missing, throughFile, broken]) {
      await expect(checkFolderPath(path, here())).rejects.toMatchObject({
        code: 'FOLDER_NOT_FOUND',
        message: `There is no folder at “${path}”. Check the spelling, and that the disk it is on is connected.`,
      });
    }
  });

  it('names a file, or anything else that is not a folder', async () => {
    const file = join(root.path, 'home', 'Videos', 'clip.mp4');
    await expect(checkFolderPath(file, here())).rejects.toMatchObject({
      code: 'NOT_A_FOLDER',
      message: `“${file}” is a file, not a folder. Choose the folder that holds it instead.`,
    });
    await expect(checkFolderPath('/dev/null', here())).rejects.toMatchObject({
      code: 'NOT_A_FOLDER',
      message: '“/dev/null” is not a folder. Choose a folder instead.',
    });
  });

  it('names a folder this user may not open, or may not reach (run as a non-root user: root opens everything)', async () => {
    await openToOthers(root.path);
    const locked = join(root.path, 'locked');
    await mkdir(join(locked, 'inner'), { recursive: true });
    await chmod(locked, 0o000);
    const check = (path: string) => callWithoutRoot('src-main/sync/folder-path.ts', 'checkFolderPath', [path]);
    const notReadable = (path: string) => ({
      ok: false,
      code: 'FOLDER_NOT_READABLE',
      message: `Media Sync is not allowed to open “${path}”. Let the user Media Sync runs as read this folder, or choose another one.`,
    });
    expect(await check(locked)).toEqual(notReadable(locked));
    // inside a folder it may not search, whether `inner` exists cannot be told: it is not readable either way
    expect(await check(join(locked, 'inner'))).toEqual(notReadable(join(locked, 'inner')));
    // the same user opens a folder it may read: the refusals above are the permissions, not the set-up
    await chmod(locked, 0o755);
    expect(await check(locked)).toEqual({ ok: true, value: locked });
  });
});
