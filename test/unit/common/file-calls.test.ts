import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdtemp, open, rm, symlink, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileCallsByFolder } from '../../../src-main/common/file-calls.js';

/** libuv's thread pool, as this process has it */
const POOL_THREADS = Number(process.env['UV_THREADPOOL_SIZE'] ?? 4);
const STILL_WAITING_MS = 150;

describe.skipIf(process.platform !== 'linux')('FileCallsByFolder (Linux: statfs tells a share from a disk)', () => {
  let dir: string;
  let file: string;
  let release: () => Promise<void>;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'file-calls-'));
    file = join(dir, 'photo.jpg');
    await writeFile(file, Buffer.alloc(8192, 7));
    release = async () => undefined;
  });
  afterEach(async () => {
    await release();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * Every thread of the pool held, as reads hung on a share would hold them:
   * each opens a FIFO no one writes to. `release` lets them go.
   */
  function holdThePool(): void {
    const fifos = Array.from({ length: POOL_THREADS }, (_, i) => join(dir, `hung-${i}`));
    for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
    const held: Promise<FileHandle>[] = fifos.map((fifo) => open(fifo, 'r'));
    release = async () => {
      // a writer for each (read-write: Linux opens it at once, whether the read has reached the FIFO yet or not):
      // the reads' opens return and free their threads
      const writers = fifos.map((fifo) => openSync(fifo, constants.O_RDWR));
      for (const handle of await Promise.all(held)) await handle.close();
      for (const fd of writers) closeSync(fd);
      release = async () => undefined;
    };
  }

  const known = async (calls: FileCallsByFolder) => {
    await calls.lstat(file);
    // the folder's statfs answered (the probes here answer at once)
    await new Promise((resolve) => setImmediate(resolve));
    return calls;
  };

  const settledWithin = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

  it('looks at a file on a local disk without waiting for the thread pool, even while hung reads hold all of it', async () => {
    const calls = await known(new FileCallsByFolder(async () => null));
    holdThePool();
    const { fd, calls: local } = await calls.open(file, constants.O_RDONLY, { followLink: true });
    const buffer = Buffer.alloc(8192);
    expect(await local.read(fd, buffer, 0, buffer.length, 0)).toBe(8192);
    expect((await local.fstat(fd)).size).toBe(8192);
    await local.close(fd);
    expect((await calls.stat(file)).size).toBe(8192);
    expect((await calls.lstat(file)).isFile()).toBe(true);
  });

  it('sends a file on a share to the thread pool: it waits for a free thread instead of holding the app', async () => {
    const calls = await known(new FileCallsByFolder(async () => 'NFS'));
    holdThePool();
    const looked = calls.stat(file);
    expect(await settledWithin(looked, STILL_WAITING_MS)).toBe(false);
    await release();
    expect((await looked).size).toBe(8192);
  });

  it('follows a link in the pool, wherever its folder is: its target may be on a share', async () => {
    const link = join(dir, 'shortcut.jpg');
    await symlink(file, link);
    const calls = await known(new FileCallsByFolder(async () => null));
    holdThePool();
    // the link itself is its folder's
    expect((await calls.lstat(link)).isSymbolicLink()).toBe(true);
    const looked = calls.stat(link);
    const opened = calls.open(link, constants.O_RDONLY, { followLink: true });
    expect(await settledWithin(looked, STILL_WAITING_MS)).toBe(false);
    expect(await settledWithin(opened, 0)).toBe(false);
    // the file itself, opened the same way, is not held up
    const own = await calls.open(file, constants.O_RDONLY, { followLink: true });
    await own.calls.close(own.fd);
    await release();
    expect((await looked).size).toBe(8192);
    const { fd, calls: linkCalls } = await opened;
    expect((await linkCalls.fstat(fd)).size).toBe(8192);
    await linkCalls.close(fd);
  });

  it('refuses to open a link it is told not to follow, and opens the file itself', async () => {
    const link = join(dir, 'shortcut.jpg');
    await symlink(file, link);
    const calls = await known(new FileCallsByFolder(async () => null));
    await expect(calls.open(link, constants.O_RDONLY, { followLink: false })).rejects.toMatchObject({ code: 'ELOOP' });
    const { fd, calls: own } = await calls.open(file, constants.O_RDONLY, { followLink: false });
    expect((await own.fstat(fd)).size).toBe(8192);
    await own.close(fd);
  });

  it("sends a folder's calls to the pool until its file system is known", async () => {
    let answer: (fileSystem: string | null) => void = () => undefined;
    const calls = new FileCallsByFolder(() => new Promise((resolve) => (answer = resolve)));
    await calls.lstat(file);
    holdThePool();
    // not known yet: the pool
    expect(await settledWithin(calls.stat(file), STILL_WAITING_MS)).toBe(false);
    answer(null);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await calls.stat(file)).size).toBe(8192);
  });

  /** One look at the file whose call took `ms` by the clock the calls are timed with. */
  const statTaking = async (calls: FileCallsByFolder, ms: number) => {
    const clock = vi.spyOn(performance, 'now');
    clock.mockReturnValueOnce(1_000).mockReturnValueOnce(1_000 + ms);
    try {
      expect((await calls.stat(file)).size).toBe(8192);
    } finally {
      clock.mockRestore();
    }
  };
  const stillOnLoop = async (calls: FileCallsByFolder) =>
    expect(await settledWithin(calls.stat(file), STILL_WAITING_MS)).toBe(true);
  const nowInPool = async (calls: FileCallsByFolder) =>
    expect(await settledWithin(calls.stat(file), STILL_WAITING_MS)).toBe(false);

  it('keeps a folder on the event loop after one slow call (its thread waited for a core), not after two in a row', async () => {
    const calls = await known(new FileCallsByFolder(async () => null));
    holdThePool();
    await statTaking(calls, 20);
    await stillOnLoop(calls);
    // the fast call between them: the next slow one is again only one
    await statTaking(calls, 20);
    await stillOnLoop(calls);
    // a card that reads slowly: every call is
    await statTaking(calls, 20);
    await statTaking(calls, 20);
    await nowInPool(calls);
  });

  it('sends a folder to the pool after one call that stalled (a disk spinning up, one failing)', async () => {
    const calls = await known(new FileCallsByFolder(async () => null));
    holdThePool();
    await statTaking(calls, 150);
    await nowInPool(calls);
  });
});
