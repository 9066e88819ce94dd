import { DBusError, interface as dbusInterface, sessionBus, type MessageBus } from '@jellybrick/dbus-next';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from './engine-fixture.js';
import { waitFor } from './local-http-server.js';

const { Interface } = dbusInterface;

/**
 * A system bus address where nothing listens: what the app started by a
 * test is given unless the test brings its own bus, so no test reads the
 * machine's NetworkManager (a developer on a phone's hotspot would see
 * uploads wait) or reaches its logind.
 */
export const NO_SYSTEM_BUS = 'unix:path=/nonexistent/media-sync-test-system-bus';

/**
 * The same for the session bus: `serve` and the CLI started by a test keep
 * tokens in their 0600 files, never in the keyring of the person running
 * the tests (test/integration/storage/keyring-token-vault.test.ts brings a keyring of its own).
 */
export const NO_SESSION_BUS = 'unix:path=/nonexistent/media-sync-test-session-bus';

/**
 * A D-Bus daemon of the test's own (Debian's `dbus-daemon`), on a socket in
 * a temp folder, with a policy that lets anyone own any name: what the app
 * takes for the system bus through `DBUS_SYSTEM_BUS_ADDRESS`, so no test
 * ever talks to the machine's NetworkManager or logind.
 */
export interface PrivateBus {
  address: string;
  /** a connection of the test's own, to export stand-ins on */
  connect(): Promise<MessageBus>;
  close(): Promise<void>;
}

const CONFIG = (socket: string) => `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;

export async function startPrivateBus(): Promise<PrivateBus> {
  const dir = await tempDir('media-sync-dbus-');
  const config = join(dir.path, 'bus.conf');
  await writeFile(config, CONFIG(join(dir.path, 'bus')));
  const daemon: ChildProcess = spawn('dbus-daemon', [`--config-file=${config}`, '--print-address', '--nofork'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  daemon.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  daemon.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const address = await waitFor(
    () => {
      if (daemon.exitCode !== null) throw new Error(`dbus-daemon exited with ${daemon.exitCode}: ${output}`);
      return /^(unix:\S+)\n/.exec(output)?.[1];
    },
    10_000,
    'dbus-daemon to print its address',
  );
  const connections: MessageBus[] = [];
  return {
    address,
    async connect() {
      const bus = sessionBus({ busAddress: address });
      connections.push(bus);
      await new Promise<void>((resolve) => bus.once('connect', () => resolve()));
      return bus;
    },
    async close() {
      for (const bus of connections) bus.disconnect();
      const exited = new Promise((resolve) => daemon.once('exit', resolve));
      daemon.kill('SIGTERM');
      if (daemon.exitCode === null) await exited;
      await dir.remove();
    },
  };
}

/**
 * An Interface whose members `configureMembers` set: dbus-next 0.11.3's
 * constructor defines `$properties`, `$methods` and `$signals` on the
 * instance, hiding what configureMembers put on the prototype.
 */
class ConfiguredInterface extends Interface {
  constructor(name: string) {
    super(name);
    const own = this as { $properties?: unknown; $methods?: unknown; $signals?: unknown };
    delete own.$properties;
    delete own.$methods;
    delete own.$signals;
  }
}

class NetworkManagerInterface extends ConfiguredInterface {
  Metered = 0;
  constructor() {
    super('org.freedesktop.NetworkManager');
  }
}
NetworkManagerInterface.configureMembers({ properties: { Metered: { signature: 'u', access: 'read' } } });

/**
 * NetworkManager as the app sees it: `org.freedesktop.NetworkManager` at
 * `/org/freedesktop/NetworkManager` with its `Metered` property (NMMetered:
 * 1 yes, 2 no, 3 guess-yes, 4 guess-no), announced through PropertiesChanged
 * as the real one does; `vanish` takes the name off the bus.
 */
export class StandInNetworkManager {
  private readonly iface = new NetworkManagerInterface();

  private constructor(private readonly bus: MessageBus) {}

  static async start(privateBus: PrivateBus, metered: number): Promise<StandInNetworkManager> {
    const standIn = new StandInNetworkManager(await privateBus.connect());
    standIn.iface.Metered = metered;
    standIn.bus.export('/org/freedesktop/NetworkManager', standIn.iface);
    await standIn.bus.requestName('org.freedesktop.NetworkManager', 0);
    return standIn;
  }

  setMetered(metered: number): void {
    this.iface.Metered = metered;
    Interface.emitPropertiesChanged(this.iface, { Metered: metered });
  }

  async vanish(): Promise<void> {
    await this.bus.releaseName('org.freedesktop.NetworkManager');
  }
}

class LogindManagerInterface extends ConfiguredInterface {
  readonly calls: Array<{ member: string; interactive: boolean }> = [];
  /** an error name to answer with instead of acting, as polkit's refusal would */
  refuseWith: string | null = null;
  constructor() {
    super('org.freedesktop.login1.Manager');
  }
  Suspend(interactive: boolean): void {
    this.answer('Suspend', interactive);
  }
  PowerOff(interactive: boolean): void {
    this.answer('PowerOff', interactive);
  }
  private answer(member: string, interactive: boolean): void {
    this.calls.push({ member, interactive });
    if (this.refuseWith) throw new DBusError(this.refuseWith, 'Interactive authentication required.');
  }
}
LogindManagerInterface.configureMembers({
  methods: { Suspend: { inSignature: 'b' }, PowerOff: { inSignature: 'b' } },
});

/** systemd-logind's Manager as the app calls it: Suspend and PowerOff are recorded, never done. */
export class StandInLogind {
  private readonly iface = new LogindManagerInterface();

  private constructor() {}

  static async start(privateBus: PrivateBus): Promise<StandInLogind> {
    const standIn = new StandInLogind();
    const bus = await privateBus.connect();
    bus.export('/org/freedesktop/login1', standIn.iface);
    await bus.requestName('org.freedesktop.login1', 0);
    return standIn;
  }

  get calls(): ReadonlyArray<{ member: string; interactive: boolean }> {
    return this.iface.calls;
  }

  refuse(errorName: string | null): void {
    this.iface.refuseWith = errorName;
  }
}
