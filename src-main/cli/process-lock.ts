import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * One process at a time runs the upload queue of a data folder: two would pick
 * the same item. A lock file holds the owner's pid; a lock whose process is
 * gone (kill -9, crash) is taken over.
 */
export async function acquireProcessLock(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, 'queue.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new Error(`Another media-sync (pid ${pid}) is running the upload queue of ${dataDir}.`, {
          cause: error,
        });
      }
      await rm(path, { force: true });
    }
  }
  throw new Error(`Could not lock ${path}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
