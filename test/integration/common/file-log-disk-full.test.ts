import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileLog, type FileLog } from '../../../src-main/common/file-log.js';
import { CAN_MOUNT, fillDisk, MOUNT_SKIP_NOTE, tmpfsDir } from '../../helpers/tmpfs.js';

/**
 * The log on a disk with no room left (a 1 MB tmpfs filled to the last
 * byte): entries are dropped without a throw, each drop is told to the app,
 * no half line is left in the file, and the first entry written once there
 * is room says how many were dropped and why.
 */
describe.skipIf(!CAN_MOUNT)(`the log on a full disk${MOUNT_SKIP_NOTE}`, () => {
  let disk: Awaited<ReturnType<typeof tmpfsDir>> | undefined;
  let log: FileLog | undefined;

  afterEach(async () => {
    await log?.close();
    await disk?.remove();
  });

  it('drops and counts the entries it cannot write, and says how many once it can', async () => {
    disk = await tmpfsDir('media-sync-log-full-', 1);
    log = createFileLog({ dir: join(disk.path, 'logs') });
    log.info('Media Sync is starting.');
    const failures: Array<string | undefined> = [];
    log.onDidFailToWrite((error) => failures.push(error.code));
    const filler = await fillDisk(disk.path);

    // the log file's last page may still hold a few entries: write until they no longer fit, then some more
    let written = 0;
    for (let entry = 0; entry < 1_000 && failures.length < 5; entry++) {
      log.warn(`Entry ${entry} of a disk that is full, long enough to fill the page it lands on quickly.`);
      written++;
    }
    expect(failures).toEqual(['ENOSPC', 'ENOSPC', 'ENOSPC', 'ENOSPC', 'ENOSPC']);
    const full = await readFile(log.path, 'utf8');
    // whole lines only: the one that did not fit was cut off again
    expect(full.endsWith('\n')).toBe(true);
    const lines = full.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + written - failures.length);
    for (const line of lines)
      expect(line).toMatch(/^\S+ (INFO |WARN ) (Media Sync is starting\.|Entry \d+ of a disk that is full, .*\.)$/);

    await rm(filler);
    log.info('There is room again.');
    const after = (await readFile(log.path, 'utf8')).trimEnd().split('\n');
    expect(after.slice(0, -2)).toEqual(lines);
    expect(after.at(-2)).toMatch(
      /^\S+ WARN {2}5 log entries could not be written before this one \(ENOSPC: no space left on device, write\)\.$/,
    );
    expect(after.at(-1)).toMatch(/^\S+ INFO {2}There is room again\.$/);
    // told once it could write again: nothing more dropped
    expect(failures).toHaveLength(5);
  });
});
