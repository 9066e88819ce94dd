import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src-main/core/engine.js';
import { logindPowerActions } from '../../../src-main/system/power-actions.js';
import type { IpcCommandName, IpcRequest } from '../../../src-shared/ipc/ipc-contract.js';
import { callCore, createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startPrivateBus, StandInLogind, type PrivateBus } from '../../helpers/private-dbus.js';
import { startTestServer } from '../../helpers/test-server.js';

describe('"When done" through a stand-in logind on a private system bus', () => {
  let bus: PrivateBus;
  let logind: StandInLogind;

  beforeEach(async () => {
    bus = await startPrivateBus();
    logind = await StandInLogind.start(bus);
  });

  afterEach(async () => {
    await bus.close();
  });

  it('asks logind to Suspend and to PowerOff without interaction, and passes on its refusal', async () => {
    const power = logindPowerActions({ DBUS_SYSTEM_BUS_ADDRESS: bus.address });
    await power.sleep();
    await power.shutDown();
    expect(logind.calls).toEqual([
      { member: 'Suspend', interactive: false },
      { member: 'PowerOff', interactive: false },
    ]);
    logind.refuse('org.freedesktop.DBus.Error.InteractiveAuthorizationRequired');
    await expect(power.sleep()).rejects.toMatchObject({
      type: 'org.freedesktop.DBus.Error.InteractiveAuthorizationRequired',
    });
  });

  it('puts the computer to sleep once an upload is done and the countdown ran out, and only once', async () => {
    const server = await startTestServer({ conversions: false });
    const data = await tempDir('media-sync-when-done-');
    const engine = await Engine.open({ dataDir: data.path });
    const core = createAppCore(engine, data.path, {
      whenDone: {
        power: logindPowerActions({ DBUS_SYSTEM_BUS_ADDRESS: bus.address }),
        quit: () => undefined,
        countdownMs: 300,
      },
    });
    try {
      await core.start();
      const call = <N extends IpcCommandName>(name: N, request: IpcRequest<N>) => callCore(core, name, request);
      const { id: accountId } = await call('account:signIn', {
        baseUrl: server.baseUrl,
        token: server.token,
      });
      await call('uploads:pauseAll', { until: null });
      const path = join(data.path, 'last.mp4');
      await writeFile(path, 'the last file of the day');
      const [item] = await call('uploads:addPaths', { accountId, paths: [path] });
      const chosen = await call('uploads:setWhenDone', { action: 'sleep' });
      expect(chosen.whenDone).toEqual({ action: 'sleep', countdownEndsAt: null });

      await call('uploads:resumeAll', {});
      await waitFor(() => (logind.calls.length > 0 ? true : undefined), 15_000, 'logind to be asked');
      expect(engine.queue.get(item!.id)!.state.kind).toBe('done');
      expect(logind.calls).toEqual([{ member: 'Suspend', interactive: false }]);
      await waitFor(async () => ((await call('uploads:status', {})).whenDone === null ? true : undefined));
      // for this run only: another upload finishing asks nothing more
      const again = join(data.path, 'another.mp4');
      await writeFile(again, 'one more');
      const [next] = await call('uploads:addPaths', { accountId, paths: [again] });
      await waitFor(() => (engine.queue.get(next!.id)!.state.kind === 'done' ? true : undefined), 15_000, 'upload');
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(logind.calls).toHaveLength(1);
    } finally {
      await core.dispose();
      await engine.close();
      await server.close();
      await data.remove();
    }
  });
});
