import { chunkLength } from '../../src-shared/model/chunk-bytes.js';
import type { UploadItem } from '../../src-shared/model/upload-state.js';
import { FileChangedError, type FileRange } from '../api-client/multipart-body.js';
import { fileCalls } from '../common/file-calls.js';
import { quickFingerprint, type FileIdentity } from '../common/file-fingerprint.js';
import { FileUnreadableError } from './upload-errors.js';

// The file an upload reads (ChunkedUpload): the range of each request, and whether it is still the item's version.

/** The bytes of chunk `index`, or of the `whole` file, with the size and mtime they must be read at. */
export function rangeOf(item: UploadItem, index: number | 'whole'): FileRange {
  const start = index === 'whole' ? 0 : index * item.chunkSize;
  const end = index === 'whole' ? item.size : start + chunkLength(item, index);
  return {
    path: item.path,
    start,
    end,
    fileName: item.fileName,
    unchanged: { size: item.size, mtimeMs: item.mtimeMs },
  };
}

export async function readIdentity(path: string): Promise<FileIdentity> {
  try {
    return await quickFingerprint(path);
  } catch (error) {
    throw new FileUnreadableError(path, error);
  }
}

/** Whether the file's size and mtime are the item's (a stat; unreadable: FileUnreadableError). */
async function sameSizeAndMtime(item: UploadItem): Promise<boolean> {
  const now = await fileCalls.stat(item.path).catch((error: unknown) => {
    throw new FileUnreadableError(item.path, error);
  });
  return now.size === item.size && now.mtimeMs === item.mtimeMs;
}

/** Cheap check before each chunk: size and mtime as when the upload (re)started. */
export async function assertUnchanged(item: UploadItem): Promise<void> {
  if (!(await sameSizeAndMtime(item))) throw new FileChangedError(item.path);
}

/**
 * The file's identity now, to compare with the item's. An item the service
 * holds nothing of yet (no chunk, no dzuuid, no last request) is taken as
 * unchanged without a look: there is nothing on the service its content
 * must match, and the check of its first request (size and mtime, a moment
 * later: `assertUnchanged` before it, or a small file's body once read)
 * fails it should it have changed or gone.
 * A small file's fingerprint here was a third of its files opened, and this
 * stat one of two back to back.
 */
export async function identityNow(item: UploadItem): Promise<FileIdentity> {
  const untouched = item.dzuuid === null && item.ackedChunks.length === 0 && !item.finalSent;
  return untouched ? item : readIdentity(item.path);
}
