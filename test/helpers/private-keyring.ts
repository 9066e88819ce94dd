import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SecretService } from '../../src-main/system/secret-service.js';
import { callMethod } from '../../src-main/system/system-bus.js';
import { tempDir } from './engine-fixture.js';
import { waitFor } from './local-http-server.js';
import { startPrivateBus, type PrivateBus } from './private-dbus.js';

/**
 * A real GNOME Keyring (Debian's `gnome-keyring-daemon`, its Secret Service
 * only) on a session bus of the test's own, in a temp HOME: its login
 * keyring made and unlocked with a known password on stdin, as a desktop
 * login does. `env` is what a process needs to find it.
 */
export interface PrivateKeyring {
  env: { DBUS_SESSION_BUS_ADDRESS: string };
  /** the secret of the item with these attributes, or null when there is none */
  lookup(attributes: Record<string, string>): Promise<string | null>;
  /** locks the login keyring, as a screen locker set to do so would: only its password opens it again */
  lock(): Promise<void>;
  close(): Promise<void>;
}

const PASSWORD = 'test-keyring-password';

export async function startPrivateKeyring(): Promise<PrivateKeyring> {
  const bus: PrivateBus = await startPrivateBus();
  const home = await tempDir('media-sync-keyring-home-');
  const runtime = join(home.path, 'run');
  await mkdir(runtime, { mode: 0o700 });
  const daemon: ChildProcess = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--foreground'], {
    env: {
      PATH: process.env['PATH'],
      HOME: home.path,
      XDG_DATA_HOME: join(home.path, 'data'),
      XDG_RUNTIME_DIR: runtime,
      DBUS_SESSION_BUS_ADDRESS: bus.address,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  daemon.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  daemon.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  daemon.stdin!.end(PASSWORD);
  const env = { DBUS_SESSION_BUS_ADDRESS: bus.address };
  const close = async () => {
    if (daemon.exitCode === null && daemon.signalCode === null) {
      const exited = new Promise((resolve) => daemon.once('exit', resolve));
      daemon.kill('SIGTERM');
      await exited;
    }
    await bus.close();
    await home.remove();
  };
  try {
    await waitFor(
      async () => {
        if (daemon.exitCode !== null) throw new Error(`gnome-keyring-daemon exited with ${daemon.exitCode}: ${output}`);
        return SecretService.use(env, (service) => service.defaultCollection()).catch(() => undefined);
      },
      15_000,
      'gnome-keyring-daemon to answer on the session bus',
    );
  } catch (error) {
    await close();
    throw error;
  }
  return {
    env,
    lookup: (attributes) =>
      SecretService.use(env, async (service) => {
        const [item] = await service.search(attributes);
        return item === undefined ? null : service.read(item);
      }),
    async lock() {
      const connection = await bus.connect();
      const [collection] = await callMethod(connection, {
        destination: 'org.freedesktop.secrets',
        path: '/org/freedesktop/secrets',
        interface: 'org.freedesktop.Secret.Service',
        member: 'ReadAlias',
        signature: 's',
        body: ['default'],
      });
      await callMethod(connection, {
        destination: 'org.freedesktop.secrets',
        path: '/org/freedesktop/secrets',
        interface: 'org.freedesktop.Secret.Service',
        member: 'Lock',
        signature: 'ao',
        body: [[collection]],
      });
    },
    close,
  };
}
