import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';
import type { FolderPathProblem } from '../../src-shared/ipc/ipc-contract.js';
import { message, type Message } from '../../src-shared/i18n/message.js';
import { CoreError } from '../common/core-error.js';

/** Where a path is read: whose home `~` means, and which platform's path rules apply. */
export interface FolderPathContext {
  home: string;
  platform: NodeJS.Platform;
}

/** This process's home folder and platform. */
export function systemFolderPathContext(): FolderPathContext {
  return { home: homedir(), platform: process.platform };
}

/** The path functions of a platform: Windows paths follow win32 rules even when a test runs elsewhere. */
export function pathRules(platform: NodeJS.Platform): typeof posix {
  return platform === 'win32' ? win32 : posix;
}

/**
 * `~` and `~/…` (`~\…` on Windows) start at the home folder, as in a shell
 * and in Syncthing's path field; `~name` (another user's home) is not
 * expanded and is then refused as not absolute. Anything else is unchanged.
 */
export function expandHome(path: string, context: FolderPathContext): string {
  const rules = pathRules(context.platform);
  if (path === '~') return context.home;
  const separators = context.platform === 'win32' ? ['/', '\\'] : ['/'];
  if (path.startsWith('~') && separators.includes(path[1] ?? '')) return rules.join(context.home, path.slice(2));
  return path;
}

/**
 * A folder a person typed or picked, checked before anything watches or lists
 * it: `~` expanded, absolute (a relative path would depend on where the app
 * was started, which a person cannot see), an existing folder (a symlink to
 * one counts), readable and searchable by this process. Resolves to the
 * absolute, normalised path; otherwise throws a CoreError whose code is a
 * FolderPathProblem and whose message names the path and says what to do.
 */
export async function checkFolderPath(
  path: string,
  context: FolderPathContext = systemFolderPathContext(),
): Promise<string> {
  const rules = pathRules(context.platform);
  const expanded = expandHome(path, context);
  if (!rules.isAbsolute(expanded) || (context.platform === 'win32' && !/^([a-z]:|[\\/]{2})/i.test(expanded))) {
    throw folderPathError('FOLDER_PATH_NOT_ABSOLUTE', notAbsoluteMessage(path, context));
  }
  const folder = rules.resolve(expanded);
  const info = await stat(folder).catch((error: unknown) => {
    throw statError(folder, error);
  });
  if (!info.isDirectory()) {
    throw folderPathError(
      'NOT_A_FOLDER',
      message(info.isFile() ? 'core.folderPath.isFile' : 'core.folderPath.notAFolder', { path: folder }),
    );
  }
  // reading lists the folder; searching (x) opens what is in it: watching needs both
  await access(folder, constants.R_OK | constants.X_OK).catch(() => {
    throw notReadable(folder);
  });
  return folder;
}

/** The error for a folder that exists but cannot be listed: also used when a listing fails after the check. */
export function notReadable(folder: string): CoreError {
  return folderPathError('FOLDER_NOT_READABLE', message('core.folderPath.notReadable', { path: folder }));
}

function statError(folder: string, error: unknown): CoreError {
  const code = (error as NodeJS.ErrnoException).code;
  // EACCES/EPERM: a folder on the way there may not be searched, so whether it exists cannot be told
  if (code === 'EACCES' || code === 'EPERM') return notReadable(folder);
  // ENOENT, ENOTDIR (a file on the way), ELOOP, ENAMETOOLONG, a NUL byte: there is no folder there to watch
  return folderPathError('FOLDER_NOT_FOUND', message('core.folderPath.notFound', { path: folder }));
}

function notAbsoluteMessage(path: string, context: FolderPathContext): Message {
  if (context.platform === 'win32') {
    return message('core.folderPath.notAbsoluteWindows', { path, example: win32.join(context.home, 'Videos') });
  }
  return message('core.folderPath.notAbsolute', { path, example: posix.join(context.home, 'Videos') });
}

function folderPathError(code: FolderPathProblem, text: Message): CoreError {
  return CoreError.say(code, text);
}

/** What keeps a folder's path from being watched: gone, its drive unmounted, or not readable. */
export type PathTrouble = 'missing' | 'notConnected' | 'unreadable';

/**
 * What keeps a folder's path from being watched now, or null when it can
 * be, with the device (st_dev) it is on then, to be remembered as `known`
 * for the next look. Knowing the device it was on tells an unmounted drive
 * (`isNotConnected`) from a folder that is empty or gone.
 */
export async function folderPathTrouble(
  path: string,
  known: number | null = null,
): Promise<{ trouble: PathTrouble | null; device: number | null }> {
  let trouble: PathTrouble | null = null;
  try {
    await checkFolderPath(path);
  } catch (error) {
    trouble = error instanceof CoreError && error.code === 'FOLDER_NOT_READABLE' ? 'unreadable' : 'missing';
  }
  if (trouble === 'unreadable') return { trouble, device: null };
  const device = trouble ? null : await deviceOf(path);
  const here = { device, aboveDevice: await nearestDevice(pathRules(process.platform).dirname(path)), empty: false };
  // read only when it may decide: an unmounted drive leaves an empty folder on the file system above
  if (known !== null && device !== null && device !== known && device === here.aboveDevice) {
    here.empty = (await readdir(path).catch(() => [])).length === 0;
  }
  if (isNotConnected(known, here)) return { trouble: 'notConnected', device: null };
  // gone between the two looks: the next check says more
  return device === null ? { trouble: 'missing', device } : { trouble, device };
}

/**
 * Whether a folder's drive is not mounted now, from what stat says (pure):
 * the folder was on device `known` when last seen, and now either
 * - it is gone, and so is that device from the path: the nearest folder
 *   above it that exists is on another device (or none exists: a drive
 *   letter gone), as when a mount point under /media or /Volumes is removed
 *   with its drive; or
 * - it is an empty folder on another device, the same as the folder above
 *   it: the mount point a drive left behind.
 * A folder on a new drive (a mount point again) or with files in it is
 * connected; a folder gone from a drive still mounted is missing.
 */
export function isNotConnected(
  known: number | null,
  here: { device: number | null; aboveDevice: number | null; empty: boolean },
): boolean {
  if (known === null) return false;
  if (here.device === null) return here.aboveDevice !== known;
  return here.device !== known && here.device === here.aboveDevice && here.empty;
}

/** The device of `path`, or of the nearest folder above it that exists; null when none does. */
async function nearestDevice(path: string): Promise<number | null> {
  const { dirname } = pathRules(process.platform);
  for (let current = path; ; current = dirname(current)) {
    const device = await deviceOf(current);
    if (device !== null || dirname(current) === current) return device;
  }
}

function deviceOf(path: string): Promise<number | null> {
  return stat(path).then(
    (stats) => stats.dev,
    () => null,
  );
}

/** Whether nothing is at `path` any more (or it cannot be looked at). */
export function isGone(path: string): Promise<boolean> {
  return stat(path).then(
    () => false,
    () => true,
  );
}
