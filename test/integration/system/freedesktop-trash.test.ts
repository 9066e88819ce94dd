import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NoTrashError } from '../../../src-main/core/ports.js';
import { FreedesktopTrash, trashInfo } from '../../../src-main/system/freedesktop-trash.js';
import { tempDir } from '../../helpers/engine-fixture.js';

const run = promisify(execFile);
const UID = process.getuid?.() ?? 0;
const AS_ROOT = UID === 0;
const DELETED_AT = new Date(2026, 2, 14, 9, 5, 7);

/**
 * The freedesktop.org Trash on real files: the home trash for a file on its
 * file system, a mounted drive's own trash for one on a tmpfs (mounted here
 * as root), and none where neither can be used.
 */
describe('FreedesktopTrash', () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let dataHome: string;
  let mounted: string | null = null;

  beforeEach(async () => {
    temp = await tempDir('media-sync-trash-');
    dataHome = join(temp.path, 'share');
  });

  afterEach(async () => {
    if (mounted) await run('umount', [mounted]);
    mounted = null;
    await temp.remove();
  });

  const trashOf = () => new FreedesktopTrash({ dataHome, uid: UID, now: () => DELETED_AT });

  async function mountTmpfs(name: string): Promise<string> {
    const path = join(temp.path, name);
    await mkdir(path);
    await run('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', path]);
    mounted = path;
    return path;
  }

  it('moves a file on the home file system to $XDG_DATA_HOME/Trash, with a .trashinfo of its URL-escaped path', async () => {
    const folder = join(temp.path, 'Photos 2026');
    await mkdir(folder);
    const path = join(folder, 'Café #1.jpg');
    await writeFile(path, 'the photo');
    await trashOf().trash(path);

    const home = join(dataHome, 'Trash');
    expect(await readdir(folder)).toEqual([]);
    expect(await readdir(join(home, 'files'))).toEqual(['Café #1.jpg']);
    expect(await readFile(join(home, 'files', 'Café #1.jpg'), 'utf8')).toBe('the photo');
    expect(await readFile(join(home, 'info', 'Café #1.jpg.trashinfo'), 'utf8')).toBe(
      `[Trash Info]\nPath=${temp.path.split('/').map(encodeURIComponent).join('/')}/Photos%202026/Caf%C3%A9%20%231.jpg\n` +
        'DeletionDate=2026-03-14T09:05:07\n',
    );
    // the folders a desktop's trash would make: only the user's
    expect((await stat(join(home, 'files'))).mode & 0o777).toBe(0o700);
  });

  it('gives a second file of the same name a name of its own, and keeps both', async () => {
    const trash = trashOf();
    for (const content of ['first take', 'second take']) {
      await writeFile(join(temp.path, 'take.mov'), content);
      await trash.trash(join(temp.path, 'take.mov'));
    }
    const files = join(dataHome, 'Trash', 'files');
    expect((await readdir(files)).sort()).toEqual(['take.mov', 'take.mov.2']);
    expect(await readFile(join(files, 'take.mov.2'), 'utf8')).toBe('second take');
    expect((await readdir(join(dataHome, 'Trash', 'info'))).sort()).toEqual([
      'take.mov.2.trashinfo',
      'take.mov.trashinfo',
    ]);
  });

  it('leaves a file that cannot be moved where it is, and takes its .trashinfo back', async () => {
    const path = join(temp.path, 'clip.mp4');
    await writeFile(path, 'a clip');
    // in the way of the rename: a folder of that name in files/ (a trash another program left half done)
    await mkdir(join(dataHome, 'Trash', 'files', 'clip.mp4', 'inside'), { recursive: true });
    await expect(trashOf().trash(path)).rejects.toMatchObject({ code: expect.stringMatching(/^E/) });
    expect(await readFile(path, 'utf8')).toBe('a clip');
    expect(await readdir(join(dataHome, 'Trash', 'info'))).toEqual([]);
  });

  it.skipIf(!AS_ROOT)(
    "a file on another mount goes to that drive's .Trash-$uid, its path relative to the drive (needs root for a tmpfs mount)",
    async () => {
      const card = await mountTmpfs('card');
      await mkdir(join(card, 'DCIM', '100MEDIA'), { recursive: true });
      const path = join(card, 'DCIM', '100MEDIA', 'GOPR0001.MP4');
      await writeFile(path, 'a clip');
      await trashOf().trash(path);

      const own = join(card, `.Trash-${UID}`);
      expect(await readdir(join(own, 'files'))).toEqual(['GOPR0001.MP4']);
      expect(await readFile(join(own, 'info', 'GOPR0001.MP4.trashinfo'), 'utf8')).toBe(
        '[Trash Info]\nPath=DCIM/100MEDIA/GOPR0001.MP4\nDeletionDate=2026-03-14T09:05:07\n',
      );
      expect((await stat(own)).mode & 0o777).toBe(0o700);
      // never across to the home trash
      expect(await readdir(join(dataHome, 'Trash', 'files')).catch(() => [])).toEqual([]);
    },
  );

  it.skipIf(!AS_ROOT)(
    "uses a drive's shared sticky .Trash/$uid, and not one that is a symlink (needs root for a tmpfs mount)",
    async () => {
      const drive = await mountTmpfs('drive');
      await mkdir(join(drive, '.Trash'), { mode: 0o1777 });
      await run('chmod', ['1777', join(drive, '.Trash')]);
      await writeFile(join(drive, 'a.jpg'), 'a');
      await trashOf().trash(join(drive, 'a.jpg'));
      expect(await readdir(join(drive, '.Trash', String(UID), 'files'))).toEqual(['a.jpg']);

      // a .Trash that is a link elsewhere is not used: the drive's .Trash-$uid is
      await run('rm', ['-rf', join(drive, '.Trash')]);
      await mkdir(join(drive, 'elsewhere'), { mode: 0o1777 });
      await symlink(join(drive, 'elsewhere'), join(drive, '.Trash'));
      await writeFile(join(drive, 'b.jpg'), 'b');
      await trashOf().trash(join(drive, 'b.jpg'));
      expect(await readdir(join(drive, `.Trash-${UID}`, 'files'))).toEqual(['b.jpg']);
      expect(await readdir(join(drive, 'elsewhere'))).toEqual([]);
    },
  );

  it.skipIf(!AS_ROOT)(
    'a drive where no trash can be used: the file stays, and the error says why (needs root for a tmpfs mount)',
    async () => {
      const card = await mountTmpfs('card');
      // where the drive's trash would be there is a file, and no shared .Trash
      await writeFile(join(card, `.Trash-${UID}`), 'not a folder');
      await writeFile(join(card, 'clip.mp4'), 'a clip');
      const failure = await trashOf()
        .trash(join(card, 'clip.mp4'))
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(NoTrashError);
      expect((failure as Error).message).toBe(
        `There is no Trash Media Sync can use on the drive of ${card} (no shared .Trash folder, and ${card}/.Trash-${UID} could not be made), so the file stays where it is.`,
      );
      expect((await readdir(card)).sort()).toEqual([`.Trash-${UID}`, 'clip.mp4']);
    },
  );

  it('writes the deletion date in local time and escapes what a URL must', () => {
    expect(trashInfo('/home/ann/a b/100%.jpg', new Date(2026, 0, 2, 3, 4, 5))).toBe(
      '[Trash Info]\nPath=/home/ann/a%20b/100%25.jpg\nDeletionDate=2026-01-02T03:04:05\n',
    );
  });
});
