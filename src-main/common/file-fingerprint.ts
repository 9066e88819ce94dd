import type { FileCalls } from './file-calls.js';
import { openRegularFile } from './open-regular.js';
import { nodeCrypto } from './lazy-builtins.js';

/** Bytes read from each of the start, middle and end of a file. */
export const FINGERPRINT_SAMPLE_BYTES = 64 * 1024;

export interface FileIdentity {
  size: number;
  mtimeMs: number;
  fingerprint: string;
}

/** The same version of a file: size, mtime and fingerprint all equal. */
export function sameVersion(a: FileIdentity, b: FileIdentity): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.fingerprint === b.fingerprint;
}

/**
 * A quick content fingerprint: sha256 over the size and three 64 KiB samples
 * (start, middle, end); a small file is hashed whole. Reading at most 192 KiB
 * keeps it cheap for a 15 GB file, yet it tells apart a file rewritten in
 * place with the same size and recognises a renamed file. It is not a full
 * hash: files that differ only between the samples share a fingerprint, which
 * is why callers also compare size and mtime. A path that is not a regular
 * file (a FIFO, a device) is refused without blocking (NotRegularFileError).
 */
export async function quickFingerprint(path: string): Promise<FileIdentity> {
  const { fd, stats, calls } = await openRegularFile(path, { followLink: true });
  try {
    const size = stats.size;
    const hash = nodeCrypto().createHash('sha256').update(`${size}:`);
    if (size <= 3 * FINGERPRINT_SAMPLE_BYTES) {
      hash.update(await readAt(calls, fd, 0, Buffer.allocUnsafe(size)));
    } else {
      // one buffer for the three samples: it is checked before every chunk of an upload, so it stays small
      const sample = Buffer.allocUnsafe(FINGERPRINT_SAMPLE_BYTES);
      const middle = Math.floor(size / 2 - FINGERPRINT_SAMPLE_BYTES / 2);
      for (const offset of [0, middle, size - FINGERPRINT_SAMPLE_BYTES]) {
        hash.update(await readAt(calls, fd, offset, sample));
      }
    }
    return { size, mtimeMs: stats.mtimeMs, fingerprint: hash.digest('hex') };
  } finally {
    await calls.close(fd);
  }
}

/** Fills `buffer` from `position` on; answers the part read (less at the end of the file). */
async function readAt(calls: FileCalls, fd: number, position: number, buffer: Buffer): Promise<Buffer> {
  const length = buffer.length;
  let read = 0;
  while (read < length) {
    const bytesRead = await calls.read(fd, buffer, read, length - read, position + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return buffer.subarray(0, read);
}
