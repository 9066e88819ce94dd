import { execFile } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Mounting a file system takes root: the tests that do are skipped otherwise, and say why in their name. */
export const CAN_MOUNT = process.platform === 'linux' && process.getuid?.() === 0;
export const MOUNT_SKIP_NOTE = CAN_MOUNT ? '' : ' (skipped: mounting a tmpfs needs root on Linux)';

/** A tmpfs of `sizeMb` mounted on `dir` (which must exist). */
export async function mountTmpfs(dir: string, sizeMb: number): Promise<void> {
  await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0755`, 'tmpfs', dir]);
}

/** Unmounts `dir`; lazily when something still holds it open, so a failed test never leaves it behind. */
export async function unmount(dir: string): Promise<void> {
  await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
}

/** A new temp folder with a tmpfs of `sizeMb` on it; `remove` unmounts it and deletes the folder. */
export async function tmpfsDir(prefix: string, sizeMb: number): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  await mountTmpfs(path, sizeMb);
  return {
    path,
    async remove() {
      await unmount(path);
      await rm(path, { recursive: true, force: true });
    },
  };
}

/**
 * Fills the file system of `dir` to the last byte with the file `name` (1
 * MiB writes, then smaller ones), and answers its path: writing anything
 * more there fails with ENOSPC until it is deleted.
 */
export async function fillDisk(dir: string, name = 'filler'): Promise<string> {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  try {
    for (let piece = 1024 * 1024; piece >= 1; piece = Math.floor(piece / 16)) {
      const buffer = Buffer.alloc(piece, 1);
      // bounded: the disk has a size; at most its bytes in writes of this size, plus the one that fails
      for (let writes = 0; writes < 64 * 1024 * 1024; writes++) {
        try {
          if (writeSync(fd, buffer) < piece) break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  const { bavail } = await statfs(dir);
  if (bavail !== 0) throw new Error(`${dir} still has ${bavail} blocks free after filling it`);
  return path;
}
