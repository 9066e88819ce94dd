import { lstat, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { message } from '../../src-shared/i18n/message.js';
import { NO_TRASH, NoTrashError, type TrashPort } from '../core/ports.js';

export interface FreedesktopTrashOptions {
  /** `$XDG_DATA_HOME`, or `~/.local/share`: the home trash is `Trash` in it */
  dataHome: string;
  /** the user's id, in the name of a drive's own trash (`.Trash-1000`) */
  uid: number;
  /** the deletion date written in the `.trashinfo` (local time) */
  now?: () => Date;
}

/** Names tried in one trash folder (`clip.mp4`, `clip.mp4.2`, …) before giving up. */
const MAX_NAME_TRIES = 10_000;
/** `S_ISVTX`: the sticky bit a shared `$topdir/.Trash` must have. */
const STICKY = 0o1000;

interface TrashDir {
  /** the trash folder, holding `files` and `info` */
  path: string;
  /** the folder `Path=` is written relative to, or null to write it absolute (the home trash) */
  topdir: string | null;
}

/**
 * The freedesktop.org Trash (the Trash specification, 1.0), as GNOME's gio
 * and KDE implement it, for `media-sync serve` and the CLI on Linux:
 *
 * - a file on the file system of the home trash goes to `$XDG_DATA_HOME/Trash`
 *   (`files/NAME`, and `info/NAME.trashinfo` with the absolute `Path`);
 * - a file on another mount (a camera card, a second drive) goes to that
 *   mount's own trash, never across to the home trash (a copy of a 20 GB
 *   recording is no delete): `$topdir/.Trash/$uid` when the administrator made
 *   a sticky, non-symlink `$topdir/.Trash`, else `$topdir/.Trash-$uid`, made
 *   (0700) if need be; `Path` is then relative to `$topdir`, so the file can
 *   go back wherever the drive is mounted next;
 * - where neither can be used (a read-only card, a mount whose top the user
 *   may not write), it rejects with NoTrashError and the file stays.
 *
 * The `.trashinfo` is written first, created exclusively, which reserves the
 * name (`clip.mp4`, else `clip.mp4.2`, …); the file is then renamed into
 * `files`, and the info removed again should that fail.
 */
export class FreedesktopTrash implements TrashPort {
  private readonly now: () => Date;

  constructor(private readonly options: FreedesktopTrashOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** The user's trash from the environment: `$XDG_DATA_HOME` (absolute only, as the XDG spec says) or `~/.local/share`. */
  static forUser(env: Record<string, string | undefined>, uid: number, home = homedir()): FreedesktopTrash {
    const given = env['XDG_DATA_HOME'];
    const dataHome = given && given.startsWith('/') ? given : join(home, '.local', 'share');
    return new FreedesktopTrash({ dataHome, uid });
  }

  async trash(path: string): Promise<void> {
    const absPath = resolve(path);
    const file = await lstat(absPath);
    const dir = await this.trashDirFor(absPath, file.dev);
    const files = join(dir.path, 'files');
    const info = join(dir.path, 'info');
    await mkdir(files, { recursive: true, mode: 0o700 });
    await mkdir(info, { recursive: true, mode: 0o700 });
    const original = dir.topdir === null ? absPath : relative(dir.topdir, absPath);
    const name = await this.reserveName(info, basename(absPath), trashInfo(original, this.now()));
    try {
      await rename(absPath, join(files, name));
    } catch (error) {
      await rm(join(info, `${name}.trashinfo`), { force: true });
      throw error;
    }
  }

  /** The home trash for a file on its file system, else the file's mount's own trash. */
  private async trashDirFor(absPath: string, dev: number): Promise<TrashDir> {
    const home = join(this.options.dataHome, 'Trash');
    if ((await deviceOf(home)) === dev) return { path: home, topdir: null };
    const topdir = await mountTop(dirname(absPath), dev);
    const shared = join(topdir, '.Trash');
    const sharedDir = await lstat(shared).catch(() => null);
    // a shared .Trash that is a symlink or not sticky must not be used (the spec's safety checks)
    if (sharedDir?.isDirectory() && (sharedDir.mode & STICKY) !== 0) {
      const own = join(shared, String(this.options.uid));
      if (await this.usable(own)) return { path: own, topdir };
    }
    const own = join(topdir, `.Trash-${this.options.uid}`);
    if (await this.usable(own)) return { path: own, topdir };
    throw new NoTrashError(message('core.trash.noneOnDrive', { mount: topdir, folder: own }));
  }

  /** The user's trash folder there: made (0700) if need be, then a real folder of this user, not a link. */
  private async usable(path: string): Promise<boolean> {
    await mkdir(path, { mode: 0o700 }).catch(() => undefined);
    const found = await lstat(path).catch(() => null);
    return found !== null && found.isDirectory() && found.uid === this.options.uid;
  }

  /** Writes `NAME.trashinfo` under the first free name, created exclusively; that name. */
  private async reserveName(info: string, name: string, content: string): Promise<string> {
    for (let index = 1; index <= MAX_NAME_TRIES; index++) {
      const candidate = index === 1 ? name : `${name}.${index}`;
      const handle = await open(join(info, `${candidate}.trashinfo`), 'wx', 0o600).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
        throw error;
      });
      if (!handle) continue;
      try {
        await handle.writeFile(content);
      } finally {
        await handle.close();
      }
      return candidate;
    }
    throw new Error(`The Trash in ${dirname(info)} holds ${MAX_NAME_TRIES} files named ${name} already.`);
  }
}

/**
 * The Trash of the shell's platform: the freedesktop.org Trash on Linux and
 * the other Unix desktops; none on macOS and Windows, whose Trash and
 * Recycle Bin the desktop app reaches through Electron (docs/uploads.md).
 */
export function systemTrash(platform: NodeJS.Platform, env: Record<string, string | undefined>): TrashPort {
  if (platform === 'darwin' || platform === 'win32') return NO_TRASH;
  return FreedesktopTrash.forUser(env, process.getuid?.() ?? 0);
}

/** The `.trashinfo` of a file: its original path, URL-escaped (RFC 2396), and the deletion date in local time. */
export function trashInfo(originalPath: string, deletedAt: Date): string {
  const escaped = originalPath.split(sep).map(encodeURIComponent).join('/');
  const pad = (value: number) => String(value).padStart(2, '0');
  const date =
    `${deletedAt.getFullYear()}-${pad(deletedAt.getMonth() + 1)}-${pad(deletedAt.getDate())}` +
    `T${pad(deletedAt.getHours())}:${pad(deletedAt.getMinutes())}:${pad(deletedAt.getSeconds())}`;
  return `[Trash Info]\nPath=${escaped}\nDeletionDate=${date}\n`;
}

/** The device of `path`, or of its nearest existing parent (the home trash may not be made yet). */
async function deviceOf(path: string): Promise<number> {
  for (let current = path; ; current = dirname(current)) {
    const found = await stat(current).catch(() => null);
    if (found) return found.dev;
    if (dirname(current) === current) return -1;
  }
}

/** The top folder of the mount holding `folder` (on device `dev`): the last parent on the same device. */
async function mountTop(folder: string, dev: number): Promise<string> {
  let top = folder;
  while (dirname(top) !== top) {
    const parent = await stat(dirname(top)).catch(() => null);
    if (!parent || parent.dev !== dev) break;
    top = dirname(top);
  }
  return top;
}
