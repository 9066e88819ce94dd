import { spawnSync } from 'node:child_process';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/engine-fixture.js';
import { stopWith } from '../../helpers/saved-queue.js';
import { startServe, type ServeProcess } from '../../helpers/serve-process.js';

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
