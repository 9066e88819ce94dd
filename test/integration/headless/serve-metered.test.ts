import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueStatus } from '../../../src-shared/ipc/ipc-contract.js';
import { tempDir, writeRandomFile } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startPrivateBus, StandInNetworkManager, type PrivateBus } from '../../helpers/private-dbus.js';
import { startServe, type ServeProcess } from '../../helpers/serve-process.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import type { WsContractClient } from '../../helpers/ws-client.js';

/**
 * `media-sync serve` as a person starts it, with the system bus it knows
 * from `DBUS_SYSTEM_BUS_ADDRESS` being the test's own, where a stand-in
 * NetworkManager says whether the connection is metered.
 */
describe('media-sync serve on a metered connection', () => {
  let bus: PrivateBus;
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let daemon: ServeProcess | undefined;
  let contract: WsContractClient | undefined;

  beforeEach(async () => {
    bus = await startPrivateBus();
    server = await startTestServer({ conversions: false });
    data = await tempDir('media-sync-serve-metered-');
  });

  afterEach(async () => {
    contract?.close();
    daemon?.child.kill('SIGKILL');
    await server.close();
    await bus.close();
    await data.remove();
  });

  async function value<T>(name: string, request: unknown = {}): Promise<T> {
    const result = await contract!.invoke(name, request);
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    return result.value as T;
  }

  it('holds a queued upload with the metered reason, and uploads it once NetworkManager says not metered', async () => {
    const standIn = await StandInNetworkManager.start(bus, 1);
    daemon = await startServe(['--port', '0', '--data-dir', join(data.path, 'home')], {
      DBUS_SYSTEM_BUS_ADDRESS: bus.address,
    });
    contract = await daemon.contract();
    const { id: accountId } = await value<{ id: string }>('account:signIn', {
      baseUrl: server.baseUrl,
      token: server.token,
    });
    expect((await value<QueueStatus>('uploads:status')).hold).toEqual({ reason: 'metered' });
    const path = join(data.path, 'on-the-train.mp4');
    await writeRandomFile(path, 300_000, 7);
    await value('uploads:addPaths', { accountId, paths: [path] });
    const itemState = async () => {
      const { items } = await value<{ items: Array<{ state: { kind: string } }> }>('uploads:list', {
        offset: 0,
        limit: 10,
      });
      return items[0]!.state.kind;
    };
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await itemState()).toBe('queued');

    standIn.setMetered(2);
    await waitFor(async () => ((await itemState()) === 'done' ? true : undefined), 30_000, 'the upload', 100);
    expect((await value<QueueStatus>('uploads:status')).hold).toBeNull();
    expect(contract.events).toContainEqual(
      expect.objectContaining({ event: 'uploads:statusChanged', payload: expect.objectContaining({ hold: null }) }),
    );
    expect(daemon.output()).not.toContain('never counts as metered');
  });
});
