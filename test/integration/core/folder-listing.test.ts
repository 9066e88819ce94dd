import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSubfolders } from '../../../src-main/core/folder-listing.js';
import { FOLDER_BROWSE_LIMIT } from '../../../src-shared/ipc/ipc-contract.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { callWithoutRoot, openToOthers } from '../../helpers/unprivileged.js';

describe('listing subfolders for the folder browser', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  const context = () => ({ home: join(root.path, 'home'), platform: process.platform });
  const list = (path: string | undefined, showHidden = false, limit?: number) =>
    listSubfolders({ path, showHidden }, { context: context(), limit });
  const names = (listing: { entries: Array<{ name: string }> }) => listing.entries.map((entry) => entry.name);

  beforeEach(async () => {
    root = await tempDir('media-sync-folder-listing-');
    await mkdir(join(root.path, 'home'));
  });
  afterEach(async () => {
    await chmod(join(root.path, 'home', 'locked'), 0o755).catch(() => undefined);
    await root.remove();
  });

  it('lists the folders, and links to folders, in file-manager order; no files, no broken links', async () => {
    const home = join(root.path, 'home');
    for (const name of ['clip 10', 'Clip 2', 'clip 1', 'Zebra', 'apple', 'B']) await mkdir(join(home, name));
    await writeFile(join(home, 'notes.txt'), 'a file');
    await mkdir(join(root.path, 'elsewhere'));
    await symlink(join(root.path, 'elsewhere'), join(home, 'linked'));
    await symlink(join(home, 'notes.txt'), join(home, 'link to a file'));
    await symlink(join(root.path, 'gone'), join(home, 'broken link'));

    expect(await list(home)).toEqual({
      path: home,
      parent: root.path,
      home,
      entries: ['apple', 'B', 'clip 1', 'Clip 2', 'clip 10', 'linked', 'Zebra'].map((name) => ({
        name,
        path: join(home, name),
      })),
      truncated: false,
    });
  });

  it('shows hidden folders only when asked', async () => {
    const home = join(root.path, 'home');
    for (const name of ['.config', 'Videos', '.cache']) await mkdir(join(home, name));
    await writeFile(join(home, '.profile'), 'a hidden file');
    expect(names(await list(home))).toEqual(['Videos']);
    expect(names(await list(home, true))).toEqual(['.cache', '.config', 'Videos']);
  });

  it('starts at the home folder, and reads ~/… from there', async () => {
    await mkdir(join(root.path, 'home', 'Videos', 'To upload'), { recursive: true });
    expect(await list(undefined)).toMatchObject({ path: join(root.path, 'home'), entries: [{ name: 'Videos' }] });
    expect(await list('~/Videos')).toMatchObject({
      path: join(root.path, 'home', 'Videos'),
      parent: join(root.path, 'home'),
      entries: [{ name: 'To upload', path: join(root.path, 'home', 'Videos', 'To upload') }],
    });
  });

  it('has no parent at the top of the file system', async () => {
    const listing = await list('/');
    expect(listing.parent).toBeNull();
    expect(names(listing)).toContain(dirname(root.path).split('/')[1]);
  });

  it(`lists at most ${FOLDER_BROWSE_LIMIT} subfolders, the first in order, and says there are more`, async () => {
    const many = join(root.path, 'home', 'many');
    await mkdir(many);
    await Promise.all(Array.from({ length: FOLDER_BROWSE_LIMIT + 1 }, (_, i) => mkdir(join(many, `take ${i + 1}`))));
    const listing = await listSubfolders({ path: many, showHidden: false }, { context: context() });
    expect(listing.truncated).toBe(true);
    expect(listing.entries).toHaveLength(FOLDER_BROWSE_LIMIT);
    expect(names(listing).slice(0, 3)).toEqual(['take 1', 'take 2', 'take 3']);
    expect(names(listing).at(-1)).toBe(`take ${FOLDER_BROWSE_LIMIT}`);
    // exactly at the limit: all of them, and nothing more to say
    expect(await list(many, false, FOLDER_BROWSE_LIMIT + 1)).toMatchObject({ truncated: false });
  });

  it('answers the path checks: not absolute, missing, a file', async () => {
    const file = join(root.path, 'home', 'notes.txt');
    await writeFile(file, 'a file');
    await expect(list('home')).rejects.toMatchObject({ code: 'FOLDER_PATH_NOT_ABSOLUTE' });
    await expect(list(join(root.path, 'nope'))).rejects.toMatchObject({ code: 'FOLDER_NOT_FOUND' });
    await expect(list(file)).rejects.toMatchObject({
      code: 'NOT_A_FOLDER',
      message: `“${file}” is a file, not a folder. Choose the folder that holds it instead.`,
    });
  });

  it('names a folder it may not open, and still lists it in its parent (run as a non-root user: root opens everything)', async () => {
    await openToOthers(root.path);
    const home = join(root.path, 'home');
    await chmod(home, 0o755);
    const locked = join(home, 'locked');
    await mkdir(locked);
    await chmod(locked, 0o000);
    const browse = (path: string) =>
      callWithoutRoot('src-main/core/folder-listing.ts', 'listSubfolders', [{ path, showHidden: false }]);
    expect(await browse(locked)).toEqual({
      ok: false,
      code: 'FOLDER_NOT_READABLE',
      message: `Media Sync is not allowed to open “${locked}”. Let the user Media Sync runs as read this folder, or choose another one.`,
    });
    expect(await browse(home)).toMatchObject({ ok: true, value: { entries: [{ name: 'locked', path: locked }] } });
  });
});
