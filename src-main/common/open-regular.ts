import { constants, type Stats } from 'node:fs';
import { fileCalls, type FileCalls } from './file-calls.js';

/**
 * Opening a FIFO for reading waits for a writer, for ever if none comes, and
 * holds one of libuv's four threads meanwhile; a device may block or have
 * side effects. O_NONBLOCK makes such an open return at once (it changes
 * nothing for a regular file), so the handle can be looked at and dropped.
 * Windows has no such flag (nor FIFOs in a folder): 0 there.
 */
const NO_BLOCK = constants.O_NONBLOCK ?? 0;

/** Thrown when the path is not a regular file (a FIFO, a socket, a device, a folder, or a link not followed). */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREGULAR';
  constructor(path: string) {
    super(`${path} is not a regular file`);
  }
}

/**
 * Opens a regular file for reading, never blocking on what is not one: a
 * FIFO, a socket or a device put where a file was is closed again and
 * answered with NotRegularFileError. `followLink: false` also refuses a
 * symbolic link (ELOOP from O_NOFOLLOW becomes NotRegularFileError), as a
 * watched folder's files are never links (docs/uploads.md, Special files).
 * Answers the descriptor (the caller closes it, with `calls`) with the stats
 * it was checked by.
 */
export async function openRegularFile(
  path: string,
  options: { followLink: boolean },
): Promise<{ fd: number; stats: Stats; calls: FileCalls }> {
  let fd: number;
  let calls: FileCalls;
  try {
    ({ fd, calls } = await fileCalls.open(path, constants.O_RDONLY | NO_BLOCK, options));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP' && !options.followLink) throw new NotRegularFileError(path);
    throw error;
  }
  let stats: Stats | null = null;
  try {
    stats = await calls.fstat(fd);
  } finally {
    if (!stats?.isFile()) await calls.close(fd);
  }
  if (!stats?.isFile()) throw new NotRegularFileError(path);
  return { fd, stats, calls };
}
