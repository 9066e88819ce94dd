import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeRandomFile } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { stopWith } from '../../helpers/saved-queue.js';
import { startServe, type ServeProcess } from '../../helpers/serve-process.js';
import {
  holdReadLockWithoutRoot,
  notPrivate,
  openToOthers,
  openUpTree,
  readAsNobody,
  RUNS_AS_ROOT,
} from '../../helpers/unprivileged.js';
import type { WsContractClient } from '../../helpers/ws-client.js';

/**
 * A data folder that other local users could read, from an older version:
 * `media-sync serve` makes it private at its start (0700 folders, 0600
 * files, a umask of 077 for what it makes), says so in its log, and starts
 * even though another user holds a lock on its owner.lock. `nobody` then
 * reads nothing: not the database, not the demo server's, not the bytes
 * it keeps of uploaded files.
 */
describe.skipIf(!RUNS_AS_ROOT)('a data folder other users could read (as root: `nobody` tries)', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  const daemons: ServeProcess[] = [];
  const contracts: WsContractClient[] = [];
  let held: { release(): Promise<void> } | undefined;

  beforeEach(async () => {
    data = await tempDir('media-sync-private-data-');
    // only the data folder's own modes stand between it and `nobody`
    await openToOthers(data.path);
  });

  afterEach(async () => {
    await held?.release();
    held = undefined;
    for (const contract of contracts.splice(0)) contract.close();
    for (const { child } of daemons.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await data.remove();
  });

  const home = () => join(data.path, 'home');

  async function start(): Promise<{ daemon: ServeProcess; contract: WsContractClient }> {
    const daemon = await startServe(['--port', '0', '--data-dir', home()]);
    daemons.push(daemon);
    const contract = await daemon.contract();
    contracts.push(contract);
    return { daemon, contract };
  }

  /** Uploads `name` to the demo account and answers the server's file id once it is done. */
  async function upload(contract: WsContractClient, name: string): Promise<string> {
    const accounts = (await contract.invoke('account:list')) as { ok: true; value: Array<{ id: string }> };
    const path = join(data.path, name);
    await writeRandomFile(path, 100_000, name.length);
    await contract.invoke('uploads:addPaths', { accountId: accounts.value[0]!.id, paths: [path] });
    return waitFor(
      async () => {
        const list = (await contract.invoke('uploads:list', { offset: 0, limit: 50 })) as {
          ok: true;
          value: { items: Array<{ fileName: string; state: { kind: string; fileId?: string } }> };
        };
        const item = list.value.items.find((candidate) => candidate.fileName === name);
        return item?.state.kind === 'done' ? item.state.fileId : undefined;
      },
      30_000,
      `${name} uploaded`,
      200,
    );
  }

  it('is made private at the start, even with a lock held on owner.lock by another user, and stays so', async () => {
    const first = await start();
    const before = await upload(first.contract, 'before.mp4');
    expect((await stopWith(first.daemon.child, 'SIGTERM')).code).toBe(0);
    await openUpTree(home());
    const serverFile = join(home(), 'demo-server', 'files', before);
    expect(await readAsNobody(serverFile)).toBe('read');
    // another local user opens the lock file while they can, and holds a reader's lock on it
    held = await holdReadLockWithoutRoot(join(home(), 'owner.lock'));

    const second = await start();
    const after = await upload(second.contract, 'after.mp4');
    expect(await notPrivate(home())).toEqual([]);
    for (const path of [
      join(home(), 'media-sync.db'),
      join(home(), 'owner.lock'),
      join(home(), 'session-key'),
      join(home(), 'demo-server', 'server.sqlite'),
      serverFile,
      // made after the start: private by the umask
      join(home(), 'demo-server', 'files', after),
    ]) {
      expect({ path, read: await readAsNobody(path) }).toEqual({ path, read: 'EACCES' });
    }
    const log = await readFile(join(home(), 'logs', 'main.log'), 'utf8');
    expect(log).toContain(`Made ${home()} private (other users could read it): . 0755→0700,`);
    expect(log).toMatch(/media-sync\.db 0644→0600/);
    expect(log).toContain(
      `Made ${join(home(), 'owner.lock')} anew: another user held a lock on it that kept Media Sync from starting.`,
    );
    expect((await stopWith(second.daemon.child, 'SIGTERM')).code).toBe(0);

    // now nobody cannot even open the lock file to hold it
    await held.release();
    await expect(holdReadLockWithoutRoot(join(home(), 'owner.lock'))).rejects.toThrow(/Permission denied/);
  });
});
