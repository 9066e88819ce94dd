import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OwnerSocketTransport } from '../../../src-main/cli/owner-transport.js';
import { contractClient } from '../../../src-shared/ipc/contract-client.js';
import { WEEKDAYS } from '../../../src-shared/model/upload-schedule.js';
import { tryLockDataFolder } from '../../../src-main/storage/data-folder-lock.js';
import { startCli, stopRunningClis } from '../../helpers/cli-process.js';
import { sha256File, sha256Url, tempDir, writeRandomFile } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/**
 * One data folder, one owner of its queue (docs/ARCHITECTURE.md, Processes and ownership): the app, `serve`
 * and the CLI take a lock the kernel drops with their process, and the CLI
 * works through the app or the daemon while one of them runs.
 */
describe('the owner of a data folder', () => {
  let server: TestServer;
  let home: Awaited<ReturnType<typeof tempDir>>;
  let files: Awaited<ReturnType<typeof tempDir>>;

  beforeEach(async () => {
    server = await startTestServer();
    home = await tempDir('media-sync-owner-');
    files = await tempDir('media-sync-owner-files-');
  });

  afterEach(async () => {
    await stopRunningClis();
    await server.close();
    await home.remove();
    await files.remove();
  });

  function start(args: string[], input = '', env: Record<string, string> = {}) {
    return startCli(args, { home: home.path, input, env: { MEDIA_SYNC_SETTLE_MS: '300', ...env } });
  }
  const cli = (args: string[], input?: string) => start(args, input).done;

  async function serverFiles(): Promise<Array<{ id: string; filename: string }>> {
    const response = await server.api('/files?per_page=100');
    return (JSON.parse(response.body.toString()) as { data: Array<{ id: string; filename: string }> }).data;
  }

  async function signIn() {
    expect((await cli(['login', '--base-url', server.baseUrl], server.token)).code).toBe(0);
  }

  /** `media-sync serve` on the data folder, once it listens; returns its address. */
  async function serveDaemon() {
    const daemon = start(['serve', '--port', '0', '--data-dir', home.path, '--no-demo']);
    const url = await waitFor(
      () => /running at (http:\/\/127\.0\.0\.1:\d+)\//.exec(daemon.output())?.[1],
      30_000,
      'the daemon to listen',
    );
    return { ...daemon, url };
  }

  it('with the daemon running, `upload` goes through its queue: one upload, progress shown, and `queue pause` pauses it', async () => {
    await signIn();
    const daemon = await serveDaemon();
    const path = join(files.path, 'through-the-daemon.mp4');
    // four seconds at the daemon's 2 MB/s: the time left shows once two seconds are measured
    await writeRandomFile(path, 8 * 1024 * 1024 + 17, 5);

    // slow enough for progress to show: the daemon's own setting, as its page would set it
    const socket = (await OwnerSocketTransport.connect(home.path))!;
    const client = contractClient(socket);
    await client.invoke('settings:update', { bandwidthBytesPerSecond: 2_000_000 });

    const uploaded = await cli(['upload', path]);
    expect(uploaded.stderr).not.toContain('Error');
    expect(uploaded.code).toBe(0);
    expect(uploaded.stdout).toMatch(/^through-the-daemon\.mp4: done \S+ http:\/\/127\.0\.0\.1:\d+\/\S+\/watch\n$/);
    // progress came from the daemon's events, with the speed and, once measured, the time left
    expect(uploaded.stderr).toMatch(/through-the-daemon\.mp4: \d+% {2}\d\.\d\d MB\/s, \d+ s left\n/);
    expect(uploaded.stderr.match(/failed|done/g)).toBeNull();
    const stored = await serverFiles();
    expect(stored.map((file) => file.filename)).toEqual(['through-the-daemon.mp4']);
    expect(await sha256Url(`${server.fileHost}/${stored[0]!.id}/file`)).toBe(await sha256File(path));

    // the daemon's queue has it: the CLI added it there, it ran no queue of its own
    const listed = await cli(['queue', 'ls', '--json']);
    expect(JSON.parse(listed.stdout).items).toEqual([
      expect.objectContaining({ path, state: expect.objectContaining({ kind: 'done' }) }),
    ]);

    const paused = await cli(['queue', 'pause']);
    expect(paused).toMatchObject({ code: 0, stdout: 'Uploads paused until resumed.\n' });
    expect(await client.invoke('uploads:status', {})).toMatchObject({ pause: { until: null } });
    // the daemon's schedule holds its queue apart from that pause, and the CLI says so (windows in local time)
    const hhmm = (ms: number) => new Date(ms).toTimeString().slice(0, 5);
    const allDays = [...WEEKDAYS];
    const window = { days: allDays, from: hhmm(Date.now() - 3_600_000), to: hhmm(Date.now() + 3_600_000) };
    await client.invoke('settings:update', { schedule: [{ ...window, action: { kind: 'pause' } }] });
    expect((await cli(['queue', 'ls'])).stdout).toMatch(/^Queue paused\.\nPaused by the upload schedule until .+\.\n/);
    expect(await cli(['queue', 'resume'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(
        /^Uploads resumed, but they still wait: Paused by the upload schedule until .+\.\n$/,
      ),
    });
    await client.invoke('settings:update', { schedule: [] });
    expect(await cli(['queue', 'pause'])).toMatchObject({ code: 0 });

    // watch adds the folder to the daemon's: the new file joins its queue, which is paused, and the command says so
    await writeFile(join(files.path, 'another.mp4'), 'another clip');
    const watched = await cli(['watch', files.path, '--once']);
    expect(watched).toMatchObject({ code: 1, stdout: '0 files uploaded.\n' });
    expect(watched.stderr).toContain('The upload queue is paused; the files wait in it.');
    expect((await client.invoke('folders:list', {})).map((folder) => folder.path)).toEqual([files.path]);
    socket.close();

    // a second daemon on the same folder is refused, naming the first
    const second = await start(['serve', '--port', '0', '--data-dir', home.path, '--no-demo']).done;
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`media-sync serve (pid ${daemon.child.pid}`);
  });

  it('an owner killed with SIGKILL leaves nothing that blocks: the next run takes over at once', async () => {
    await signIn();
    await mkdir(join(files.path, 'watched'));
    const watcher = start(['watch', join(files.path, 'watched')]);
    await waitFor(() => watcher.output().includes('Press Ctrl+C to stop.') || undefined, 30_000, 'watch to start');

    // a command that runs the queue answers the others on its socket meanwhile
    expect(await cli(['queue', 'pause'])).toMatchObject({ code: 0, stdout: 'Uploads paused until resumed.\n' });
    expect(await cli(['queue', 'ls'])).toMatchObject({ code: 0, stdout: 'Queue paused.\nThe queue is empty.\n' });
    expect(await cli(['queue', 'resume'])).toMatchObject({ code: 0 });

    watcher.child.kill('SIGKILL');
    await once(watcher.child, 'exit');
    // its owner.json and socket-less lock file are still there: neither decides anything
    expect(existsSync(join(home.path, 'owner.json'))).toBe(true);
    const path = join(files.path, 'after-the-kill.mp4');
    await writeFile(path, 'after the kill '.repeat(1000));
    const taken = await cli(['upload', path]);
    expect(taken.stderr).not.toContain('using the data folder');
    expect(taken.code).toBe(0);
    expect((await serverFiles()).map((file) => file.filename)).toEqual(['after-the-kill.mp4']);
  });

  it('a lock file naming a dead process, or a live one that is not Media Sync, never blocks', async () => {
    await signIn();
    for (const pid of [2 ** 22 + 12_345, process.pid]) {
      await writeFile(
        join(home.path, 'owner.json'),
        JSON.stringify({ pid, kind: 'daemon', url: 'http://127.0.0.1:1/', since: '2026-01-01T00:00:00.000Z' }),
      );
      await writeFile(join(home.path, 'queue.lock'), String(pid));
      const paused = await cli(['queue', 'pause']);
      expect(paused).toMatchObject({ code: 0, stdout: 'Uploads paused until resumed.\n' });
    }
  });

  it('an owner that holds the folder but answers on no socket is waited for, then named', async () => {
    const held = tryLockDataFolder(home.path, { kind: 'desktop', url: null });
    expect(held.ok).toBe(true);
    try {
      const refused = await cli(['queue', 'ls']);
      expect(refused).toMatchObject({
        code: 1,
        stderr: `Error: The Media Sync app (pid ${process.pid}) is using the data folder ${home.path}. Stop it before running media-sync queue, or try again once it is done.\n`,
      });
    } finally {
      if (held.ok) held.lock.release();
    }
    // once it is gone, the command takes the folder itself
    expect(await cli(['queue', 'ls'])).toMatchObject({ code: 0, stdout: 'The queue is empty.\n' });
  });

  it('the lock is held in this process until released, and refused to a second taker meanwhile', () => {
    const first = tryLockDataFolder(home.path, { kind: 'cli', url: null });
    expect(first.ok).toBe(true);
    const second = tryLockDataFolder(home.path, { kind: 'daemon', url: null });
    expect(second).toEqual({
      ok: false,
      owner: { pid: process.pid, kind: 'cli', url: null, since: expect.any(String) },
    });
    if (first.ok) first.lock.release();
    const third = tryLockDataFolder(home.path, { kind: 'daemon', url: null });
    expect(third.ok).toBe(true);
    if (third.ok) third.lock.release();
  });
});
