import { spawnSync } from 'node:child_process';
import { access, chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { stopWith } from '../../helpers/saved-queue.js';
import { startServe, type ServeProcess } from '../../helpers/serve-process.js';
import { connectContract } from '../../helpers/ws-client.js';

const BIN = resolve(import.meta.dirname, '../../../bin/media-sync.js');

/**
 * The session key of `media-sync serve` is kept in `<data dir>/session-key`:
 * the same address at every start, until `--new-key`.
 */
describe("media-sync serve's session key", () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  const daemons: ServeProcess[] = [];

  beforeEach(async () => {
    data = await tempDir('media-sync-session-key-');
  });

  afterEach(async () => {
    for (const { child } of daemons.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await data.remove();
  });

  const keyFile = () => join(data.path, 'session-key');

  /** One start and stop: the key of the address it printed, and what it printed. */
  async function serveOnce(args: string[] = []): Promise<{ key: string; output: string }> {
    const daemon = await startServe(['--port', '0', '--no-demo', '--data-dir', data.path, ...args]);
    daemons.push(daemon);
    expect((await stopWith(daemon.child, 'SIGTERM')).code).toBe(0);
    return { key: daemon.url.searchParams.get('key')!, output: daemon.output() };
  }

  it('is made once (0600), the same at every start, and new with --new-key; never in the log', async () => {
    const first = await serveOnce();
    expect(first.key).toMatch(/^[\w-]{32}$/);
    expect((await readFile(keyFile(), 'utf8')).trim()).toBe(first.key);
    expect((await stat(keyFile())).mode & 0o777).toBe(0o600);

    const second = await serveOnce();
    expect(second.key).toBe(first.key);

    const rotated = await serveOnce(['--new-key']);
    expect(rotated.key).not.toBe(first.key);
    expect(rotated.output).toContain('A new session key: pages opened with the old address must open this one.');
    expect((await readFile(keyFile(), 'utf8')).trim()).toBe(rotated.key);
    expect((await stat(keyFile())).mode & 0o777).toBe(0o600);
    expect((await serveOnce()).key).toBe(rotated.key);

    const log = await readFile(join(data.path, 'logs', 'main.log'), 'utf8');
    expect(log).toContain('Made a new session key (--new-key): the address printed before no longer opens the app.');
    for (const key of [first.key, rotated.key]) expect(log).not.toContain(key);
  });

  it('replaces a file that is not a key, or that other users could read, and says so in the log', async () => {
    await writeFile(keyFile(), 'not a key\n', { mode: 0o600 });
    const replaced = await serveOnce();
    expect(replaced.key).toMatch(/^[\w-]{32}$/);
    expect((await readFile(keyFile(), 'utf8')).trim()).toBe(replaced.key);

    await chmod(keyFile(), 0o644);
    const readable = await serveOnce();
    expect(readable.key).not.toBe(replaced.key);
    expect((await stat(keyFile())).mode & 0o777).toBe(0o600);

    const log = await readFile(join(data.path, 'logs', 'main.log'), 'utf8');
    expect(log).toContain(`The session key in ${keyFile()} was not a key: made a new one.`);
    expect(log).toContain(`The session key in ${keyFile()} could be read by other users: made a new one.`);
    for (const key of [replaced.key, readable.key]) expect(log).not.toContain(key);
  });

  it('--open gives the browser a private page that forwards to the address: the key is in no command line', async () => {
    // an opener that writes down its command line, as `ps` shows it to every user
    const bin = join(data.path, 'bin');
    const recorded = join(data.path, 'opener-argv');
    await mkdir(bin);
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${recorded}'\nsleep 30\n`, {
      mode: 0o755,
    });
    const home = join(data.path, 'home');
    const daemon = await startServe(['--port', '0', '--no-demo', '--open', '--data-dir', home], {
      PATH: `${bin}:${process.env['PATH']}`,
    });
    daemons.push(daemon);
    const key = daemon.url.searchParams.get('key')!;
    const argv = await waitFor(
      () =>
        readFile(recorded, 'utf8').then(
          (text) => text.split('\n').filter(Boolean),
          () => undefined,
        ),
      20_000,
      "the opener's command line",
    );
    expect(argv).toHaveLength(1);
    expect(argv[0]).not.toContain(key);
    const page = fileURLToPath(argv[0]!);
    expect(page).toBe(join(home, 'open.html'));
    expect((await stat(page)).mode & 0o777).toBe(0o600);
    expect(await readFile(page, 'utf8')).toContain(`<meta http-equiv="refresh" content="0;url=${daemon.url.href}">`);
    // no process's command line holds the key while the opener and the daemon run: what `ps` would show
    const holders: string[] = [];
    for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (cmdline.includes(key)) holders.push(`${pid}: ${cmdline.replaceAll('\0', ' ')}`);
    }
    expect(holders).toEqual([]);
    expect((await stopWith(daemon.child, 'SIGTERM')).code).toBe(0);
    // the forwarding page goes with the daemon
    await expect(access(page)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('hands the browser no cookie: only the key the page presents opens the socket or a drop', async () => {
    const daemon = await startServe(['--port', '0', '--no-demo', '--data-dir', data.path]);
    daemons.push(daemon);
    const key = daemon.url.searchParams.get('key')!;
    const origin = daemon.url.origin;
    const loaded = await rawRequest(daemon.url.href);
    expect(loaded.status).toBe(200);
    // a browser would send a cookie to every port of 127.0.0.1, to whoever listens there
    expect(loaded.headers['set-cookie']).toBeUndefined();
    expect(loaded.text).not.toContain(key);

    // the cookie of earlier versions, the key itself, opens nothing now
    const cookie = `media_sync_session=${key}`;
    await expect(connectContract(`ws://${daemon.url.host}/ipc`, null, { cookie, Origin: origin })).rejects.toThrow(
      'HTTP 401',
    );
    const drop = (headers: Record<string, string>) =>
      rawRequest(`${origin}/drop?name=clip.mp4&account=none`, { method: 'POST', headers, body: 'bytes' });
    expect((await drop({ cookie, Origin: origin })).status).toBe(401);

    // the key as the page keeps and presents it: the socket answers, a drop gets past the key and origin
    const socket = await connectContract(`ws://${daemon.url.host}/ipc`, key, { Origin: origin });
    expect(await socket.invoke('account:list', {})).toEqual({ ok: true, value: [] });
    socket.close();
    const presented = await drop({ 'X-Media-Sync-Key': key, Origin: origin });
    expect({ status: presented.status, code: presented.json?.error?.code }).toEqual({
      status: 400,
      code: 'NOT_SIGNED_IN',
    });
  });

  it('serve --help says what --new-key does; an unknown option is refused with the usage', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [BIN, 'serve', ...args], { encoding: 'utf8', env: { ...process.env } });
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--new-key\s+makes a new session key: the address changes/);
    expect(help.stdout).toContain('the same at every start, so a page left open reconnects by itself');
    const wrong = run(['--new-keys']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/^Error: Unknown option '--new-keys'/);
    expect(wrong.stderr).toContain('Usage: media-sync serve');
  });
});
