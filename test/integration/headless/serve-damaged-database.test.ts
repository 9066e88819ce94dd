import { execFile, spawn } from 'node:child_process';
import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MEDIA_SYNC_BIN, runCli } from '../../helpers/cli-process.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { NO_SYSTEM_BUS } from '../../helpers/private-dbus.js';
import { postForm, rawRequest } from '../../helpers/raw-http.js';
import { stopWith } from '../../helpers/saved-queue.js';
import { startServe, type ServeProcess } from '../../helpers/serve-process.js';
import { RUNS_AS_ROOT } from '../../helpers/unprivileged.js';
import { connectToPrinted } from '../../helpers/ws-client.js';

const exec = promisify(execFile);

/**
 * `media-sync serve` on a database it cannot use: a damaged one is said in
 * words, and the printed address shows the problem with a button that keeps
 * the damaged file aside and starts afresh, only when pressed; the app then
 * starts at that same address. One it cannot write is said in words too.
 */
describe('media-sync serve on a database it cannot use', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  const daemons: ServeProcess['child'][] = [];

  beforeEach(async () => {
    data = await tempDir('media-sync-serve-damaged-');
  });

  afterEach(async () => {
    for (const child of daemons.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await data.remove();
  });

  const database = () => join(data.path, 'media-sync.db');

  /** A data folder a first `serve` made, its database then written over at the start. */
  async function damagedDataFolder(): Promise<void> {
    const first = await startServe(['--port', '0', '--no-demo', '--data-dir', data.path]);
    daemons.push(first.child);
    expect((await stopWith(first.child, 'SIGTERM')).code).toBe(0);
    const file = await open(database(), 'r+');
    await file.write(Buffer.alloc(100, 0x5a), 0, 100, 0);
    await file.close();
  }

  function serve() {
    const child = spawn(
      process.execPath,
      [MEDIA_SYNC_BIN, 'serve', '--port', '0', '--no-demo', '--data-dir', data.path],
      {
        env: { ...process.env, MEDIA_SYNC_HOME: '', MEDIA_SYNC_TOKEN: '', DBUS_SYSTEM_BUS_ADDRESS: NO_SYSTEM_BUS },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    daemons.push(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return { child, output: () => output };
  }

  it('shows the damage at the printed address, and starts with a fresh database there once the person asks', async () => {
    await damagedDataFolder();
    const damaged = await readFile(database());
    const daemon = serve();
    const address = await waitFor(
      () => /open (http:\/\/127\.0\.0\.1:\d+\/\?key=[\w-]+) to repair its database/.exec(daemon.output())?.[1],
      30_000,
      'the address of the repair page',
    );
    expect(daemon.output()).toContain(`Error: The database ${database()} is damaged (file is not a database).`);
    expect(daemon.output()).not.toMatch(/\n\s+at /);
    const url = new URL(address);
    const key = url.searchParams.get('key')!;

    const shown = await rawRequest(address);
    expect(shown.status).toBe(503);
    expect(shown.text).toContain(`The database ${database()} is damaged (file is not a database).`);
    expect(shown.text).toContain('<button type="submit">Keep a copy aside and start with a fresh database</button>');
    // without the key: what to open, and nothing of the data folder
    const bare = await rawRequest(`${url.origin}/`);
    expect(bare.text).toContain('Open the address that media-sync serve printed');
    expect(bare.text).not.toContain(data.path);

    // the button works only from the page itself, with the key
    expect((await postForm(`${url.origin}/repair`, { key })).status).toBe(403);
    expect((await postForm(`${url.origin}/repair`, { key: 'x'.repeat(32) }, { Origin: url.origin })).status).toBe(401);
    expect(await readFile(database())).toEqual(damaged);

    const repaired = await postForm(`${url.origin}/repair`, { key }, { Origin: url.origin });
    expect(repaired.status).toBe(200);
    expect(repaired.text).toMatch(/Kept the damaged database as \S+\.damaged-\S+ and started a fresh one\./);
    const copies = (await readdir(data.path)).filter((name) => name.startsWith('media-sync.db.damaged-'));
    expect(copies).toHaveLength(1);
    expect(await readFile(join(data.path, copies[0]!))).toEqual(damaged);

    // the app starts at the same address
    await waitFor(
      () => (daemon.output().includes(`Media Sync is running at ${address}`) ? true : undefined),
      30_000,
      'the app',
    );
    const contract = await connectToPrinted(address);
    expect(await contract.invoke('account:list', {})).toEqual({ ok: true, value: [] });
    contract.close();
    expect((await stopWith(daemon.child, 'SIGTERM')).code).toBe(0);
  });

  it('stopped on its repair page, it changes nothing and exits 1', async () => {
    await damagedDataFolder();
    const damaged = await readFile(database());
    const daemon = serve();
    await waitFor(() => (daemon.output().includes('to repair its database') ? true : undefined), 30_000, 'the page');
    expect((await stopWith(daemon.child, 'SIGINT')).code).toBe(1);
    expect(await readFile(database())).toEqual(damaged);
    expect((await readdir(data.path)).filter((name) => name.includes('.damaged-'))).toEqual([]);
  });

  it.skipIf(!RUNS_AS_ROOT)(
    'says which file it cannot write when the database is read-only (as root: a read-only mount)',
    async () => {
      const first = await startServe(['--port', '0', '--no-demo', '--data-dir', data.path]);
      daemons.push(first.child);
      expect((await stopWith(first.child, 'SIGTERM')).code).toBe(0);
      await exec('mount', ['--bind', database(), database()]);
      try {
        await exec('mount', ['-o', 'remount,bind,ro', database()]);
        const said = `Media Sync cannot write to its database ${database()} (the disk is read-only).`;
        const daemon = serve();
        await waitFor(() => (daemon.child.exitCode !== null ? true : undefined), 30_000, 'serve to stop');
        expect(daemon.child.exitCode).toBe(1);
        expect(daemon.output()).toContain(`Error: ${said}`);
        expect(daemon.output()).not.toMatch(/\n\s+at /);
        const command = await runCli(['queue', 'ls'], { home: data.path });
        expect(command.code).toBe(1);
        expect(command.stderr).toContain(`Error: ${said}`);
        expect(command.stderr).not.toContain('media-sync repair');
      } finally {
        await exec('umount', [database()]);
      }
    },
  );
});
