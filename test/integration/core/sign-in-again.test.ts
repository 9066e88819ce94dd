import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DemoServerPort } from '../../../src-main/core/ports.js';
import { localDemoServer } from '../../../src-main/demo/local-demo-server.js';
import { Engine } from '../../../src-main/core/engine.js';
import type { IpcCommandName, IpcRequest } from '../../../src-shared/ipc/ipc-contract.js';
import type { FolderStatus } from '../../../src-shared/model/folder-status.js';
import { addFileToQueue, callCore, createAppCore, untilFolder } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const SETTLE_MS = 200;

/**
 * Folders and queued files belong to an account as the person knows it (its
 * server and the service's account), not to one sign-in: the real core on
 * real SQLite and temp folders, against the bundled demo server ("Try it
 * locally") and the reference server with two accounts.
 */
describe('signing out, and in again', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let disk: Awaited<ReturnType<typeof tempDir>>;
  let demo: DemoServerPort;
  let open: { engine: Engine; core: ReturnType<typeof createAppCore> } | undefined;
  let server: TestServer | undefined;

  beforeEach(async () => {
    data = await tempDir('media-sync-again-data-');
    disk = await tempDir('media-sync-again-files-');
    demo = localDemoServer(data.path);
  });

  afterEach(async () => {
    await closeCore();
    await demo.stop();
    await server?.close();
    server = undefined;
    await data.remove();
    await disk.remove();
  });

  async function startCore() {
    const engine = await Engine.open({ dataDir: data.path, settleMs: SETTLE_MS });
    const core = createAppCore(engine, data.path, { demo });
    await core.start();
    return (open = { engine, core });
  }

  async function closeCore() {
    await open?.core.dispose();
    await open?.engine.close();
    open = undefined;
  }

  const call = <N extends IpcCommandName>(name: N, request: IpcRequest<N>) => callCore(open!.core, name, request);
  const statusOf = async (id: number) => (await call('folders:status', {})).find((status) => status.id === id)!;

  const until = (id: number, what: string, check: (status: FolderStatus) => boolean) =>
    untilFolder(open!.core, id, what, check);

  async function watch(accountId: string, name: string): Promise<{ id: number; path: string }> {
    const path = join(disk.path, name);
    await mkdir(path);
    return { id: (await call('folders:add', { accountId, path })).id, path };
  }

  const itemOf = async (path: string) => (await call('uploads:list', {})).items.find((item) => item.path === path);

  it('takes its folders and queued files back: a file dropped while signed out is uploaded, across a restart', async () => {
    await startCore();
    const first = await call('account:startDemo', {});
    const folder = await watch(first.id, 'Camera');
    await writeFile(join(folder.path, 'a.jpg'), 'the first photo');
    await until(folder.id, 'a.jpg uploaded', (status) => status.counts.uploaded === 1);

    await call('account:signOut', { accountId: first.id });
    expect(await call('account:list', {})).toEqual([]);
    await writeFile(join(folder.path, 'b.jpg'), 'a photo taken while signed out');
    const gone = await until(folder.id, 'its account signed out', (status) => status.state.kind === 'problem');
    expect(gone.state).toEqual({
      kind: 'problem',
      problem: 'accountGone',
      since: expect.any(Number),
      account: { baseUrl: first.baseUrl, username: 'demo' },
    });
    await waitFor(async () => (await itemOf(join(folder.path, 'b.jpg')))?.state.kind === 'queued' || undefined, 10_000);

    // it waits across a restart too, and the next "Try it locally" is the same account
    await closeCore();
    await demo.stop();
    await startCore();
    expect((await statusOf(folder.id)).state).toMatchObject({ kind: 'problem', problem: 'accountGone' });
    const again = await call('account:startDemo', {});
    expect(again).toMatchObject({ id: first.id, baseUrl: first.baseUrl, username: 'demo' });
    const back = await until(
      folder.id,
      'b.jpg uploaded, and the folder up to date',
      (status) => status.counts.uploaded === 2 && status.state.kind === 'watching',
    );
    expect(back.recent.map((file) => [file.name, file.outcome])).toEqual([
      ['b.jpg', 'uploaded'],
      ['a.jpg', 'uploaded'],
    ]);
  });

  /**
   * The reference server with a second user, ann; a folder of its demo
   * account with a.jpg uploaded, then the account signed out and b.jpg
   * dropped into the folder, queued.
   */
  async function signedOutWithAFileWaiting() {
    server = await startTestServer({ conversions: false });
    const annToken = server.newAccount('ann');
    await startCore();
    const demoAccount = await call('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    const folder = await watch(demoAccount.id, 'Photos');
    await writeFile(join(folder.path, 'a.jpg'), 'sent before the sign-out');
    await until(folder.id, 'a.jpg uploaded', (status) => status.counts.uploaded === 1);
    await call('account:signOut', { accountId: demoAccount.id });
    const waiting = join(folder.path, 'b.jpg');
    await writeFile(waiting, 'waits for an account');
    await waitFor(async () => (await itemOf(waiting))?.state.kind === 'queued' || undefined, 10_000, 'b.jpg queued');
    return { server, annToken, demoAccount, folder, waiting };
  }

  it('a folder whose account stays signed out says so, and moves to a signed-in account without sending twice', async () => {
    const { server, annToken, demoAccount, folder, waiting } = await signedOutWithAFileWaiting();

    // another user of the same server is another account: the folder stays the signed-out one's
    const ann = await call('account:signIn', { baseUrl: server.baseUrl, token: annToken });
    expect(ann.id).not.toBe(demoAccount.id);
    expect((await statusOf(folder.id)).state).toMatchObject({ kind: 'problem', problem: 'accountGone' });
    // a folder of a signed-in account is not moved
    const annFolder = await watch(ann.id, 'Ann');
    await expect(call('folders:move', { id: annFolder.id, accountId: demoAccount.id })).rejects.toThrow(
      'This account is not signed in',
    );

    const moved = await call('folders:move', { id: folder.id, accountId: ann.id });
    expect(moved.accountId).toBe(ann.id);
    await until(folder.id, 'b.jpg uploaded to ann', (status) => status.counts.uploaded === 2);
    expect(await itemOf(waiting)).toMatchObject({ accountId: ann.id, folderId: folder.id, state: { kind: 'done' } });
    const annFiles = await server.api('/files?per_page=100', { token: annToken });
    expect((JSON.parse(annFiles.body.toString()) as { data: Array<{ filename: string }> }).data).toEqual([
      expect.objectContaining({ filename: 'b.jpg' }),
    ]);
  });

  it('removing the folder and adding it for another account sends the file that waited', async () => {
    const { server, annToken, folder } = await signedOutWithAFileWaiting();

    await call('folders:remove', { id: folder.id });
    const ann = await call('account:signIn', { baseUrl: server.baseUrl, token: annToken });
    const again = (await call('folders:add', { accountId: ann.id, path: folder.path })).id;
    // what the first account has is not on ann's: both files go
    await until(again, 'both files uploaded to ann', (status) => status.counts.uploaded === 2);
    const annFiles = await server.api('/files?per_page=100', { token: annToken });
    const names = (JSON.parse(annFiles.body.toString()) as { data: Array<{ filename: string }> }).data;
    expect(names.map((file) => file.filename).sort()).toEqual(['a.jpg', 'b.jpg']);
  });

  it("the files waiting for a signed-out account take no turn from another account's", async () => {
    server = await startTestServer({ conversions: false });
    const annToken = server.newAccount('ann');
    await startCore();
    const demoAccount = await call('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    await call('uploads:pauseAll', { until: null });
    // as many waiting files as the queue runs at once (3), each first in line
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg']) await addFileToQueue(open!.core, demoAccount.id, disk.path, name);
    await call('account:signOut', { accountId: demoAccount.id });
    await call('uploads:resumeAll', {});
    const ann = await call('account:signIn', { baseUrl: server.baseUrl, token: annToken });
    const theirs = await addFileToQueue(open!.core, ann.id, disk.path, 'ann.jpg');
    await waitFor(async () => (await itemOf(theirs.path))?.state.kind === 'done' || undefined, 30_000, 'ann.jpg up');
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg']) {
      expect((await itemOf(join(disk.path, name)))?.state.kind).toBe('queued');
    }
  });
});
