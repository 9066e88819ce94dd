import { describe, expect, it } from 'vitest';
import { DataDisk, isOutOfSpace } from '../../../src-main/storage/data-disk.js';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';
import { memoryLog } from '../../helpers/memory-log.js';

const MB = 1024 * 1024;
const sqliteError = (code: string) => Object.assign(new Error('database or disk is full'), { code });

describe('isOutOfSpace: which failed writes mean a full disk', () => {
  it("takes SQLite's SQLITE_FULL and the system's ENOSPC and EDQUOT at their word", () => {
    const roomy = () => 100 * MB;
    for (const code of ['SQLITE_FULL', 'ENOSPC', 'EDQUOT'])
      expect(isOutOfSpace(sqliteError(code), roomy, MB)).toBe(true);
  });

  it('takes an SQLite I/O error for a full disk only while the disk has less room than it needs', () => {
    expect(isOutOfSpace(sqliteError('SQLITE_IOERR_WRITE'), () => 4096, MB)).toBe(true);
    expect(isOutOfSpace(sqliteError('SQLITE_IOERR_FSYNC'), () => 100 * MB, MB)).toBe(false);
    // the disk cannot be looked at: not said to be full on a guess
    const unknown = () => {
      throw new Error('EACCES');
    };
    expect(isOutOfSpace(sqliteError('SQLITE_IOERR'), unknown, MB)).toBe(false);
  });

  it('leaves every other failure alone', () => {
    for (const error of [
      sqliteError('SQLITE_CONSTRAINT'),
      sqliteError('EACCES'),
      new Error('no code'),
      null,
      'ENOSPC',
    ]) {
      expect(isOutOfSpace(error, () => 0, MB)).toBe(false);
    }
  });
});

describe('DataDisk: full from a failed write until the free space is back', () => {
  function disk(free: Record<string, number>) {
    const clock = new FakeClock();
    const looked: string[] = [];
    const log = memoryLog();
    const dataDisk = new DataDisk({
      dataDir: '/data',
      clock,
      probeMs: 5_000,
      minFreeBytes: MB,
      freeBytes: async (folder) => {
        looked.push(folder);
        return free[folder] ?? 0;
      },
      freeBytesSync: (folder) => free[folder] ?? 0,
      log,
    });
    const changes: Array<{ since: number } | null> = [];
    dataDisk.onDidChange((full) => changes.push(full));
    return { clock, dataDisk, changes, looked, free, log };
  }

  it('is full from the first failed write on, said once however many writes fail', () => {
    const { clock, dataDisk, changes, log } = disk({ '/data': 0 });
    expect(dataDisk.full).toBeNull();
    expect(dataDisk.report(sqliteError('SQLITE_CONSTRAINT'))).toBe(false);
    expect(dataDisk.full).toBeNull();

    expect(dataDisk.report(sqliteError('SQLITE_FULL'))).toBe(true);
    expect(dataDisk.report(sqliteError('SQLITE_FULL'))).toBe(true);
    expect(dataDisk.full).toEqual({ since: clock.wall() });
    expect(changes).toEqual([{ since: clock.wall() }]);
    expect(log.lines).toEqual([
      "WARN Media Sync's disk is full (database or disk is full): uploads wait, and new files are taken in once /data has room again.",
    ]);
    dataDisk.dispose();
  });

  it('looks at the free space every 5 s while full, never while there is room, and has room again at 1 MiB free', async () => {
    const { clock, dataDisk, changes, looked, free, log } = disk({ '/data': 0 });
    await clock.advance(60_000);
    expect(looked).toEqual([]);
    dataDisk.report(sqliteError('SQLITE_FULL'));
    const since = clock.wall();

    await clock.advance(4_999);
    expect(looked).toEqual([]);
    await clock.advance(1);
    expect(looked).toEqual(['/data']);
    free['/data'] = MB - 1;
    await clock.advance(5_000);
    expect(looked).toHaveLength(2);
    expect(dataDisk.full).toEqual({ since });

    free['/data'] = MB;
    await clock.advance(5_000);
    expect(dataDisk.full).toBeNull();
    expect(changes).toEqual([{ since }, null]);
    expect(log.lines.at(-1)).toBe("INFO Media Sync's disk has room again: uploads go on.");
    // the timer stopped with the episode
    await clock.advance(60_000);
    expect(looked).toHaveLength(3);
    expect(clock.pendingSleeps).toBe(0);
    dataDisk.dispose();
  });

  it('looks at once when asked (a new file to take in), one look at a time', async () => {
    const { dataDisk, changes, looked, free } = disk({ '/data': 0 });
    dataDisk.report(sqliteError('SQLITE_FULL'));
    free['/data'] = 10 * MB;
    await Promise.all([dataDisk.check(), dataDisk.check(), dataDisk.check()]);
    expect(looked).toEqual(['/data']);
    expect(changes.at(-1)).toBeNull();
    // with room, asking costs nothing
    await dataDisk.check();
    expect(looked).toHaveLength(1);
    dataDisk.dispose();
  });

  it('waits for room on every disk whose write failed: the log may be on another one', async () => {
    const { clock, dataDisk, looked, free } = disk({ '/data': 10 * MB, '/logs': 0 });
    const error = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(dataDisk.report(error, '/logs')).toBe(true);
    await clock.advance(5_000);
    expect(looked.sort()).toEqual(['/data', '/logs']);
    expect(dataDisk.full).not.toBeNull();
    free['/logs'] = 2 * MB;
    await clock.advance(5_000);
    await flushMicrotasks();
    expect(dataDisk.full).toBeNull();
    dataDisk.dispose();
  });
});
