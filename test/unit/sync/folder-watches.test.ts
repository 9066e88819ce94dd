import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { subfolders, type ListedEntry } from '../../../src-main/sync/folder-watches.js';

/**
 * What chokidar gets when it lists a watched folder again (after each change
 * in it): the subfolders only, each with its lstat, never an entry per file.
 */
describe('subfolders (the listing chokidar gets of a watched folder)', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folder-watches-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const listed = async (root: string, keep: (entry: ListedEntry) => boolean = () => true) => {
    const entries: ListedEntry[] = [];
    for await (const entry of subfolders(root, keep)) entries.push(entry);
    return entries.sort((a, b) => a.basename.localeCompare(b.basename));
  };

  it('answers the real subfolders with their stats, never a file or a link to a folder', async () => {
    await mkdir(join(dir, 'Holiday'));
    await mkdir(join(dir, 'Work'));
    for (let i = 0; i < 50; i++) await writeFile(join(dir, `IMG_${i}.jpg`), 'photo');
    await symlink(join(dir, 'Work'), join(dir, 'shortcut'));
    const entries = await listed(dir);
    expect(entries.map((entry) => [entry.path, entry.fullPath, entry.stats.isDirectory()])).toEqual([
      ['Holiday', join(dir, 'Holiday'), true],
      ['Work', join(dir, 'Work'), true],
    ]);
  });

  it("leaves out the subfolders chokidar's filter refuses", async () => {
    await mkdir(join(dir, 'keep'));
    await mkdir(join(dir, '.hidden'));
    expect((await listed(dir, (entry) => !entry.basename.startsWith('.'))).map((entry) => entry.path)).toEqual([
      'keep',
    ]);
  });

  it('lists a folder that is gone as empty (its subfolders went), as chokidar’s own lister does; a file in its place fails', async () => {
    expect(await listed(join(dir, 'unplugged'))).toEqual([]);
    await writeFile(join(dir, 'was-a-folder'), 'now a file');
    await expect(listed(join(dir, 'was-a-folder'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});
