import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, rm, statfs, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describePolling } from '../../../src-main/cli/commands/folders.js';
import type { Engine } from '../../../src-main/core/engine.js';
import { detectFileSystemWithoutEvents } from '../../../src-main/common/file-system-kind.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { openWatchedFolderBench, type WatchedFolderBench } from '../../helpers/watched-folder.js';

const isRoot = process.getuid?.() === 0;
/** tmpfs's statfs type (linux/magic.h) */
const TMPFS_MAGIC = 0x01021994;

/** The inotify watches this process holds, from its descriptors' fdinfo ("inotify wd:…" lines). */
function inotifyWatches(): number {
  let watches = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      const info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
      watches += info.split('\n').filter((line) => line.startsWith('inotify wd:')).length;
    } catch {
      // closed meanwhile
    }
  }
  return watches;
}

/** Takes a tmpfs, by its real statfs type, for NFS: what file-system-kind.ts answers on a real share. */
const takeTmpfsForNfs = async (path: string) => ((await statfs(path)).type === TMPFS_MAGIC ? 'NFS' : null);

/**
 * Folders whose file system gives no change events (docs/uploads.md, Network
 * shares and polling): NFS cannot be mounted here, so a real tmpfs is
 * mounted and the detection, injected, takes it for NFS.
 */
describe.skipIf(!isRoot)(
  'a folder on a file system without change events (a tmpfs taken for NFS: mount needs root)',
  () => {
    let bench: WatchedFolderBench;
    let mountPoint: string;

    beforeEach(async () => {
      bench = await openWatchedFolderBench('media-sync-polled-');
      mountPoint = await mkdtemp(join(tmpdir(), 'media-sync-share-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mountPoint]);
    });

    afterEach(async () => {
      await bench.close();
      execFileSync('umount', [mountPoint]);
      await rm(mountPoint, { recursive: true, force: true });
    });

    const uploads = () => bench.server.server.uploadLog.entries().map((entry) => entry.fileName);

    it('is checked by polling, with no inotify watch: it finds a new file and a changed one, not a touched one, and says so', async () => {
      const share = join(mountPoint, 'Videos');
      await mkdir(join(share, 'day 1'), { recursive: true });
      await writeFile(join(share, 'day 1', 'before.txt'), 'on the share before');
      const watchesBefore = inotifyWatches();
      const { engine, watched } = await bench.watch(
        {},
        { fileSystemOf: takeTmpfsForNfs, pollIntervalMs: 1_000, settleMs: 200 },
        share,
      );
      await bench.uploadsDone(engine, 1);
      const polling = engine.folderStatus.status(watched.id)!.polling!;
      expect(polling).toEqual({ everySeconds: 1, why: 'network', fileSystem: 'NFS' });
      expect(describePolling(polling)).toBe('network folder (NFS): checked every second');

      await writeFile(join(share, 'day 1', 'new.txt'), 'found by a poll');
      await bench.uploadsDone(engine, 2);
      await appendFile(join(share, 'day 1', 'before.txt'), ', and changed since');
      await bench.uploadsDone(engine, 3);
      // a new mtime with the same content: looked at (size and mtime differ), not uploaded
      const later = new Date(Date.now() + 60_000);
      await utimes(join(share, 'day 1', 'new.txt'), later, later);
      await waitFor(() => polledAgain(engine, 'day 1/new.txt', later.getTime()), 10_000, 'a poll');
      await engine.queue.whenIdle();

      expect(uploads()).toEqual(['before.txt', 'new.txt', 'before.txt']);
      expect(inotifyWatches()).toBe(watchesBefore);
    });

    it('is polled at the interval Settings give, changed while it runs', async () => {
      const { engine, watched } = await bench.watch(
        {},
        { fileSystemOf: takeTmpfsForNfs, pollIntervalMs: 3_600_000, settleMs: 200 },
        mountPoint,
      );
      await writeFile(join(mountPoint, 'waits for the next poll.txt'), 'an hour away');
      engine.sync.setPollInterval(1_000);
      expect(engine.folderStatus.status(watched.id)!.polling).toMatchObject({ everySeconds: 1 });
      await bench.uploadsDone(engine, 1);
      expect(uploads()).toEqual(['waits for the next poll.txt']);
    });

    it('says a tmpfs and the test machine’s disk give change events: statfs finds no network share in either', async () => {
      expect(await detectFileSystemWithoutEvents(mountPoint)).toBeNull();
      expect(await detectFileSystemWithoutEvents(tmpdir())).toBeNull();
    });
  },
);

describe('a folder set to "Check by polling"', () => {
  let bench: WatchedFolderBench;

  beforeEach(async () => {
    bench = await openWatchedFolderBench('media-sync-chosen-poll-');
  });

  afterEach(() => bench.close());

  it('is polled on a file system that gives change events, and says it was chosen', async () => {
    const watchesBefore = inotifyWatches();
    const { engine, watched } = await bench.watch({ checkByPolling: true }, { pollIntervalMs: 1_000 });
    expect(engine.folderStatus.status(watched.id)!.polling).toEqual({
      everySeconds: 1,
      why: 'chosen',
      fileSystem: null,
    });
    await writeFile(join(bench.folder.path, 'polled.txt'), 'found by a poll');
    await bench.uploadsDone(engine, 1);
    expect(inotifyWatches()).toBe(watchesBefore);
  });
});

/** The folder's index holds the touched file's new mtime (to the ms: tmpfs keeps ns): a poll saw it, it was not sent. */
function polledAgain(engine: Engine, relPath: string, mtimeMs: number): true | undefined {
  const entry = engine.index.lookup(1, relPath);
  return entry && Math.abs(entry.mtimeMs - mtimeMs) < 1 ? true : undefined;
}
