import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPENED_NAMES_SHOWN, type SkipReason } from '../../src-shared/ipc/ipc-contract.js';
import type { Engine } from './engine.js';
import type { NewIntent } from './intent-inbox.js';
import { message } from '../../src-shared/i18n/message.js';
import type { AppErrorCode } from '../../src-shared/ipc/app-error-codes.js';
import { CoreError } from '../common/core-error.js';

/**
 * Files the OS handed to the app (command line, a second instance, macOS
 * `open-file`) go to the queue of the default account, the way
 * uploads:addPaths queues dropped files, and the answer says what happened to
 * each: queued, uploaded before (the queue does not send the same file
 * twice), or skipped with a reason. A path that cannot be queued is skipped
 * and named; it never stops the others.
 *
 * Paths may be relative (to `workingDirectory`: a second instance's own, not
 * this process's) or `file://` URLs, which Linux file managers pass for the
 * `%U` of the desktop entry.
 */
export async function queueOpenedFiles(
  engine: Pick<Engine, 'defaultAccount' | 'client' | 'queue'>,
  paths: string[],
  workingDirectory?: string,
): Promise<NewIntent> {
  const opened = paths.filter((path) => path.trim()).map((path) => localPath(path, workingDirectory));
  const openedNames = named(opened.map(({ name }) => name));
  const account = engine.defaultAccount();
  const empty = { count: 0, names: [] };
  if (!account || !engine.client(account.id)) {
    return {
      kind: 'filesNotQueued',
      reason: 'signInFirst',
      account: null,
      opened: openedNames,
      uploadedBefore: empty,
      skipped: { count: 0, files: [] },
    };
  }
  const ref = { id: account.id, username: account.username, baseUrl: account.baseUrl };
  const queued: string[] = [];
  const uploadedBefore: string[] = [];
  const skipped: { name: string; reason: SkipReason }[] = [];
  for (const { name, path } of opened) {
    if (path === null) {
      skipped.push({ name, reason: 'missing' });
      continue;
    }
    const problem = await pathProblem(path);
    if (problem) {
      skipped.push({ name, reason: problem });
      continue;
    }
    try {
      const { outcome } = await engine.queue.enqueue({ accountId: account.id, path, visibility: null });
      (outcome === 'done' ? uploadedBefore : queued).push(name);
    } catch (error) {
      // gone or locked between the check and the read
      skipped.push({ name, reason: (await pathProblem(path)) ?? errorReason(error) });
    }
  }
  const rest = {
    uploadedBefore: named(uploadedBefore),
    skipped: { count: skipped.length, files: skipped.slice(0, OPENED_NAMES_SHOWN) },
  };
  if (queued.length > 0) return { kind: 'filesQueued', account: ref, queued: named(queued), ...rest };
  return {
    kind: 'filesNotQueued',
    reason: 'nothingQueued',
    account: ref,
    opened: openedNames,
    ...rest,
  };
}

/** The absolute path of an opened file and its name; `path` null for a `file:` URL that is not local (file://host/…). */
function localPath(given: string, workingDirectory: string | undefined): { name: string; path: string | null } {
  if (!/^file:/i.test(given)) {
    const path = resolve(workingDirectory ?? process.cwd(), given);
    return { name: basename(path), path };
  }
  try {
    const path = fileURLToPath(given);
    return { name: basename(path), path };
  } catch {
    return { name: given, path: null };
  }
}

const UPLOAD_PATH_CODES: Record<SkipReason, AppErrorCode> = {
  missing: 'FILE_NOT_FOUND',
  folder: 'IS_A_FOLDER',
  notAFile: 'NOT_A_FILE',
  unreadable: 'FILE_NOT_READABLE',
};

/**
 * A path given to the queue (uploads:addPaths): resolves when it is a
 * readable file; otherwise throws a CoreError that names the path and says
 * what is wrong with it in words, instead of the ENOENT or EISDIR that
 * reading it would give.
 */
export async function checkUploadPath(path: string): Promise<void> {
  const absolute = resolve(path);
  const problem = await pathProblem(absolute);
  if (problem)
    throw CoreError.say(UPLOAD_PATH_CODES[problem], message(`core.uploadPath.${problem}`, { path: absolute }));
}

/**
 * Why `path` cannot be queued, or null. A FIFO or device is refused before
 * anything opens it: reading one could wait forever.
 */
async function pathProblem(path: string): Promise<SkipReason | null> {
  let stats;
  try {
    stats = await stat(path);
  } catch (error) {
    return errorReason(error);
  }
  if (stats.isDirectory()) return 'folder';
  if (!stats.isFile()) return 'notAFile';
  try {
    await access(path, constants.R_OK);
  } catch {
    return 'unreadable';
  }
  return null;
}

function errorReason(error: unknown): SkipReason {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : code === 'EISDIR' ? 'folder' : 'unreadable';
}

function named(names: string[]): { count: number; names: string[] } {
  return { count: names.length, names: names.slice(0, OPENED_NAMES_SHOWN) };
}
