import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { quickFingerprint } from '../../../src-main/common/file-fingerprint.js';
import { NotRegularFileError } from '../../../src-main/common/open-regular.js';
import { nodeFileProbe } from '../../../src-main/sync/stability.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { openWatchedFolderBench, type WatchedFolderBench } from '../../helpers/watched-folder.js';

const isRoot = process.getuid?.() === 0;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * FIFOs, sockets, devices and links in a watched folder (docs/uploads.md,
 * Special files): none is uploaded, followed or opened in a way that could
 * block, and none keeps the folder's other files from going.
 */
describe('special files in a watched folder', () => {
  let bench: WatchedFolderBench;
  let outside: Awaited<ReturnType<typeof tempDir>>;
  const sockets: Server[] = [];

  beforeEach(async () => {
    bench = await openWatchedFolderBench('media-sync-special-');
    outside = await tempDir('media-sync-outside-');
    await writeFile(join(outside.path, 'elsewhere.txt'), 'a file outside the folder');
    await mkdir(join(outside.path, 'album'));
    await writeFile(join(outside.path, 'album', 'in-linked-folder.txt'), 'behind a link to a folder');
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
    await bench.close();
    await outside.remove();
  });

  /** One of each: a FIFO, a listening Unix socket, a link to a file inside and outside, to a folder, a loop, a dangling link. */
  async function makeSpecials(prefix: string): Promise<void> {
    const at = (name: string) => join(bench.folder.path, `${prefix}${name}`);
    execFileSync('mkfifo', [at('pipe.mp4')]);
    const socket = createServer();
    sockets.push(socket);
    await new Promise<void>((resolve) => socket.listen(at('socket.mp4'), resolve));
    await symlink(join(outside.path, 'elsewhere.txt'), at('link-outside.txt'));
    await symlink(join(bench.folder.path, 'regular.txt'), at('link-inside.txt'));
    await symlink(join(outside.path, 'album'), at('linked-album'));
    await symlink(at('loop-b.txt'), at('loop-a.txt'));
    await symlink(at('loop-a.txt'), at('loop-b.txt'));
    await symlink(join(outside.path, 'nowhere.txt'), at('dangling.txt'));
  }

  it('uploads only the regular files, whether the others were there at the start or came later; nothing is followed, nothing stalls', async () => {
    await writeFile(join(bench.folder.path, 'regular.txt'), 'a regular file');
    await makeSpecials('before-');
    const { engine } = await bench.watch();
    await bench.uploadsDone(engine, 1);
    // came while watched: each raises events the watcher looks at
    await makeSpecials('after-');
    await pause(100);
    await writeFile(join(bench.folder.path, 'later.txt'), 'written after the special files');
    await bench.uploadsDone(engine, 2);
    await engine.sync.rescan();
    await engine.sync.whenSettled();
    await engine.queue.whenIdle();

    expect((await bench.serverFiles()).map((file) => file.filename).sort()).toEqual(['later.txt', 'regular.txt']);
    expect(bench.server.server.uploadLog.entries()).toHaveLength(2);
    // skipped in silence: no error for a loop, a dangling link or a socket
    expect(bench.log.lines.filter((line) => !line.startsWith('INFO'))).toEqual([]);
  });

  it.skipIf(!isRoot)('skips a character device (mknod needs root)', async () => {
    execFileSync('mknod', [join(bench.folder.path, 'null-device.mp4'), 'c', '1', '3']);
    const { engine } = await bench.watch();
    execFileSync('mknod', [join(bench.folder.path, 'later-device.mp4'), 'c', '1', '3']);
    await writeFile(join(bench.folder.path, 'after.txt'), 'after the devices');
    await bench.uploadsDone(engine, 1);
    await engine.sync.whenSettled();
    expect((await bench.serverFiles()).map((file) => file.filename)).toEqual(['after.txt']);
    expect(bench.log.lines.filter((line) => !line.startsWith('INFO'))).toEqual([]);
  });

  it('never blocks on a FIFO that took a file’s place: the readability check and the fingerprint answer at once', async () => {
    // what a stat then an open would meet if a FIFO replaced the file in between: with a blocking open, each of
    // these would wait for a writer for ever (and hold one of libuv's threads)
    const fifo = join(bench.folder.path, 'was-a-file.mp4');
    execFileSync('mkfifo', [fifo]);
    expect(await nodeFileProbe.open(fifo)).toBe('other');
    await expect(quickFingerprint(fifo)).rejects.toBeInstanceOf(NotRegularFileError);
    expect(await nodeFileProbe.stat(fifo)).toEqual({ kind: 'other' });
    await symlink(join(outside.path, 'elsewhere.txt'), join(bench.folder.path, 'a-link.txt'));
    expect(await nodeFileProbe.stat(join(bench.folder.path, 'a-link.txt'))).toEqual({ kind: 'other' });
    expect(await nodeFileProbe.open(join(bench.folder.path, 'a-link.txt'))).toBe('other');
  });
});
