import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeRandomFile } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { readSavedUploads, stopWith } from '../../helpers/saved-queue.js';
import { runCli } from '../../helpers/cli-process.js';
import { startServe, type ServeProcess } from '../../helpers/serve-process.js';
import type { WsContractClient } from '../../helpers/ws-client.js';

interface Item {
  fileName: string;
  state: { kind: string; reason?: { message: string } };
}

/**
 * `media-sync serve` stopped and started again on the same data folder: what
 * a person had keeps working. The demo account's server comes back with the
 * app, at the same address, with its files.
 */
describe('media-sync serve started again on the same data folder', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let files: Awaited<ReturnType<typeof tempDir>>;
  const daemons: ServeProcess[] = [];
  const contracts: WsContractClient[] = [];

  beforeEach(async () => {
    data = await tempDir('media-sync-serve-restart-');
    files = await tempDir('media-sync-serve-restart-files-');
  });

  afterEach(async () => {
    for (const contract of contracts.splice(0)) contract.close();
    for (const { child } of daemons.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await data.remove();
    await files.remove();
  });

  async function start(): Promise<{ daemon: ServeProcess; contract: WsContractClient }> {
    const daemon = await startServe(['--port', '0', '--data-dir', data.path]);
    daemons.push(daemon);
    const contract = await daemon.contract();
    contracts.push(contract);
    return { daemon, contract };
  }

  async function value<T>(contract: WsContractClient, name: string, request: unknown = {}): Promise<T> {
    const result = await contract.invoke(name, request);
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    return result.value as T;
  }

  /** The item of `fileName` once it is done; a failure ends the wait at once, with its reason. */
  function whenDone(contract: WsContractClient, fileName: string): Promise<Item> {
    return waitFor(
      async () => {
        const { items } = await value<{ items: Item[] }>(contract, 'uploads:list', { offset: 0, limit: 50 });
        const item = items.find((candidate) => candidate.fileName === fileName);
        if (item?.state.kind === 'failed') throw new Error(`${fileName} failed: ${item.state.reason?.message}`);
        return item?.state.kind === 'done' ? item : undefined;
      },
      60_000,
      `${fileName} uploaded`,
      200,
    );
  }

  it('the demo account answers after a Ctrl+C, with its files, and an upload queued before the stop completes', async () => {
    const first = await start();
    const [demo] = await value<Array<{ id: string; baseUrl: string; username: string }>>(
      first.contract,
      'account:list',
    );
    expect(demo).toMatchObject({ username: 'demo' });
    const small = join(files.path, 'postcard.jpg');
    await writeRandomFile(small, 200_000, 3);
    await value(first.contract, 'uploads:addPaths', { accountId: demo!.id, paths: [small] });
    await whenDone(first.contract, 'postcard.jpg');

    // slow and small chunks, so the stop lands mid-file
    await value(first.contract, 'settings:update', { bandwidthBytesPerSecond: 1_000_000, chunkSizeBytes: 1_000_000 });
    const large = join(files.path, 'harbour.mp4');
    await writeRandomFile(large, 12_000_000, 5);
    await value(first.contract, 'uploads:addPaths', { accountId: demo!.id, paths: [large] });
    await waitFor(
      () => {
        const saved = readSavedUploads(data.path).find((row) => row.file_name === 'harbour.mp4');
        return saved && saved.acked_chunks.length >= 1 ? true : undefined;
      },
      30_000,
      'a chunk of harbour.mp4 acknowledged',
    );
    expect((await stopWith(first.daemon.child, 'SIGINT')).code).toBe(0);
    expect(readSavedUploads(data.path).find((row) => row.file_name === 'harbour.mp4')!.state.kind).toBe('queued');

    const second = await start();
    const accounts = await value<Array<{ id: string; baseUrl: string }>>(second.contract, 'account:list');
    expect(accounts).toEqual([expect.objectContaining({ id: demo!.id, baseUrl: demo!.baseUrl })]);
    expect(await value(second.contract, 'account:summary', { accountId: demo!.id })).toMatchObject({
      username: 'demo',
    });
    const listed = await value<{ data: Array<{ name: string }> }>(second.contract, 'files:list', {
      accountId: demo!.id,
    });
    expect(listed.data.map((file) => file.name)).toContain('postcard.jpg');

    await value(second.contract, 'settings:update', { bandwidthBytesPerSecond: null });
    await whenDone(second.contract, 'harbour.mp4');
    const after = await value<{ data: Array<{ name: string }> }>(second.contract, 'files:list', {
      accountId: demo!.id,
    });
    expect(after.data.map((file) => file.name).sort()).toEqual(['harbour.mp4', 'postcard.jpg']);
    expect((await stopWith(second.daemon.child, 'SIGTERM')).code).toBe(0);

    const log = await readFile(join(data.path, 'logs', 'main.log'), 'utf8');
    expect(log).toContain(`The local demo server is back at ${demo!.baseUrl} for the demo account.`);
  });

  it('the CLI reaches the demo account while nothing else runs: its command starts the demo server first', async () => {
    const first = await start();
    const [demo] = await value<Array<{ id: string }>>(first.contract, 'account:list');
    const postcard = join(files.path, 'postcard.jpg');
    await writeRandomFile(postcard, 200_000, 3);
    await value(first.contract, 'uploads:addPaths', { accountId: demo!.id, paths: [postcard] });
    await whenDone(first.contract, 'postcard.jpg');
    expect((await stopWith(first.daemon.child, 'SIGINT')).code).toBe(0);

    const listed = await runCli(['files', 'ls', '--json'], { home: data.path });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { data: Array<{ name: string }> }).data.map((f) => f.name)).toEqual([
      'postcard.jpg',
    ]);
    const ticket = join(files.path, 'ticket.pdf');
    await writeRandomFile(ticket, 50_000, 4);
    const uploaded = await runCli(['upload', ticket], { home: data.path });
    expect(uploaded.code, uploaded.stderr).toBe(0);

    const again = await start();
    const after = await value<{ data: Array<{ name: string }> }>(again.contract, 'files:list', { accountId: demo!.id });
    expect(after.data.map((file) => file.name).sort()).toEqual(['postcard.jpg', 'ticket.pdf']);
  });

  it('after the demo account signed out, a restart shows the sign-in page instead of signing in by itself', async () => {
    const first = await start();
    const [demo] = await value<Array<{ id: string }>>(first.contract, 'account:list');
    await value(first.contract, 'account:signOut', { accountId: demo!.id });
    expect((await stopWith(first.daemon.child, 'SIGINT')).code).toBe(0);

    const second = await start();
    expect(await value(second.contract, 'account:list')).toEqual([]);
    expect(second.daemon.output()).not.toContain('signed in to the local demo server');
    // "Try it locally" again: the same account, with what it had
    expect(await value(second.contract, 'account:startDemo')).toMatchObject({ id: demo!.id });
  });
});
