import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { NetworkManagerCost } from '../../../src-main/system/network-manager-cost.js';
import type { IpcCommandName, IpcRequest } from '../../../src-shared/ipc/ipc-contract.js';
import { addFileToQueue, callCore, createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { memoryLog } from '../../helpers/memory-log.js';
import { startPrivateBus, StandInNetworkManager, type PrivateBus } from '../../helpers/private-dbus.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

// NMMetered
const YES = 1;
const NO = 2;
const GUESS_YES = 3;
const GUESS_NO = 4;

describe('NetworkManager’s Metered on a private system bus', () => {
  let bus: PrivateBus;
  const sources: NetworkManagerCost[] = [];

  beforeEach(async () => {
    bus = await startPrivateBus();
  });

  afterEach(async () => {
    for (const source of sources.splice(0)) source.dispose();
    await bus.close();
  });

  async function startSource(env = { DBUS_SYSTEM_BUS_ADDRESS: bus.address }) {
    const log = memoryLog();
    const source = new NetworkManagerCost({ env, log });
    sources.push(source);
    const changes: boolean[] = [];
    source.onDidChange((metered) => changes.push(metered));
    await source.start();
    return { source, log, changes };
  }

  it('counts yes and guess-yes as metered, no and guess-no as not, at start', async () => {
    const standIn = await StandInNetworkManager.start(bus, YES);
    for (const [value, metered] of [
      [YES, true],
      [GUESS_YES, true],
      [NO, false],
      [GUESS_NO, false],
    ] as const) {
      standIn.setMetered(value);
      const { source } = await startSource();
      expect(source.metered(), `NMMetered ${value}`).toBe(metered);
    }
  });

  it('follows PropertiesChanged, and counts NetworkManager leaving the bus as not metered', async () => {
    const standIn = await StandInNetworkManager.start(bus, NO);
    const { source, log, changes } = await startSource();
    expect(source.metered()).toBe(false);
    standIn.setMetered(GUESS_YES);
    await waitFor(() => (source.metered() ? true : undefined), 5_000, 'metered');
    standIn.setMetered(NO);
    await waitFor(() => (source.metered() ? undefined : true), 5_000, 'not metered');
    standIn.setMetered(YES);
    await waitFor(() => (source.metered() ? true : undefined), 5_000, 'metered again');
    await standIn.vanish();
    await waitFor(() => (source.metered() ? undefined : true), 5_000, 'not metered once gone');
    expect(changes).toEqual([true, false, true, false]);
    expect(log.lines.join('\n')).toContain('NetworkManager left the system bus');
  });

  it('without NetworkManager on the bus, or without a bus: never metered, said once in the log', async () => {
    const { source, log } = await startSource();
    expect(source.metered()).toBe(false);
    expect(log.lines).toEqual([expect.stringMatching(/NetworkManager did not answer.*never counts as metered/)]);

    const none = await startSource({ DBUS_SYSTEM_BUS_ADDRESS: `unix:path=${join(bus.address, 'nowhere')}` });
    expect(none.source.metered()).toBe(false);
    expect(none.log.lines).toEqual([expect.stringMatching(/No system bus.*never counts as metered/)]);
  });
});

describe('"On a metered connection" against the reference server and a stand-in NetworkManager', () => {
  let bus: PrivateBus;
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let core: AppCore;
  let network: NetworkManagerCost;
  let standIn: StandInNetworkManager;
  let accountId: string;

  beforeEach(async () => {
    bus = await startPrivateBus();
    standIn = await StandInNetworkManager.start(bus, YES);
    server = await startTestServer({ conversions: false });
    data = await tempDir('media-sync-metered-');
    engine = await Engine.open({ dataDir: data.path });
    network = new NetworkManagerCost({ env: { DBUS_SYSTEM_BUS_ADDRESS: bus.address } });
    await network.start();
    core = createAppCore(engine, data.path, { network });
    await core.start();
    accountId = (await callCore(core, 'account:signIn', { baseUrl: server.baseUrl, token: server.token })).id;
  });

  afterEach(async () => {
    await core.dispose();
    network.dispose();
    await engine.close();
    await server.close();
    await data.remove();
    await bus.close();
  });

  const call = <N extends IpcCommandName>(name: N, request: IpcRequest<N>) => callCore(core, name, request);
  const addFile = (name: string) => addFileToQueue(core, accountId, data.path, name);

  const status = () => call('uploads:status', {});
  const itemState = (id: number) => engine.queue.get(id)!.state.kind;
  const done = (id: number) => waitFor(() => (itemState(id) === 'done' ? true : undefined), 15_000, `upload #${id}`);

  it('holds the queue with its reason while metered (the default), and goes on once it is not', async () => {
    expect((await status()).hold).toEqual({ reason: 'metered' });
    const item = await addFile('hotspot.mp4');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(itemState(item.id)).toBe('queued');

    standIn.setMetered(NO);
    await done(item.id);
    expect((await status()).hold).toBeNull();
  });

  it('goes on at once when NetworkManager leaves the bus', async () => {
    const item = await addFile('gone.mp4');
    await standIn.vanish();
    await done(item.id);
  });

  it('uploads as usual, or at the metered limit, as the setting says', async () => {
    await call('settings:update', { metered: { kind: 'limit', bytesPerSecond: 1_000_000 } });
    expect(await status()).toMatchObject({ hold: null, bandwidthBytesPerSecond: 1_000_000, bandwidthBy: 'metered' });
    await call('settings:update', { metered: { kind: 'normal' } });
    expect(await status()).toMatchObject({ hold: null, bandwidthBytesPerSecond: null, bandwidthBy: 'setting' });
    const item = await addFile('as-usual.mp4');
    await done(item.id);
  });
});
