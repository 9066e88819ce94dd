import { Variant, type Message, type MessageBus } from '@jellybrick/dbus-next';
import { Emitter, type Disposable } from '../common/disposable.js';
import type { Log } from '../common/file-log.js';
import type { ShutdownPort } from '../common/shutdown.js';
import type { NetworkCostPort } from '../core/ports.js';
import { addMatch, callMethod, connectSystemBus, isSignal } from './system-bus.js';

export const NETWORK_MANAGER = 'org.freedesktop.NetworkManager';
export const NETWORK_MANAGER_PATH = '/org/freedesktop/NetworkManager';
const PROPERTIES = 'org.freedesktop.DBus.Properties';

/**
 * NetworkManager's `NMMetered` (0 unknown, 1 yes, 2 no, 3 guess-yes, 4
 * guess-no): yes and guess-yes count. A guess is what NetworkManager makes
 * of a phone's hotspot (the DHCP vendor option Android sets), which is the
 * case this setting is for.
 */
export function isMetered(value: unknown): boolean {
  return value === 1 || value === 3;
}

export interface NetworkManagerCostOptions {
  /** the process's environment: `DBUS_SYSTEM_BUS_ADDRESS` (system/system-bus.ts) */
  env: Record<string, string | undefined>;
  log?: Log;
  /** the app's stop: the connection closes once nothing new is taken in (`intake`) */
  shutdown?: ShutdownPort;
}

/**
 * Whether the connection is metered, from NetworkManager's `Metered`
 * property of `org.freedesktop.NetworkManager` on the system bus, read at
 * start and followed through `PropertiesChanged`. NetworkManager leaving the
 * bus (NameOwnerChanged) means not metered until it is back, and read again
 * then. No bus, or no NetworkManager on it: never metered, said once in the
 * log. Use `start()` before reading `metered()`.
 */
export class NetworkManagerCost implements NetworkCostPort, Disposable {
  private value = false;
  private bus: MessageBus | null = null;
  private disposed = false;
  private told = false;
  private readonly emitter = new Emitter<boolean>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly options: NetworkManagerCostOptions) {
    options.shutdown?.onWillShutdown('intake', () => this.dispose());
  }

  /** Connects and reads once (the answer is there when this resolves); never rejects. */
  async start(): Promise<void> {
    let bus: MessageBus;
    try {
      bus = await connectSystemBus({ env: this.options.env });
    } catch (error) {
      this.sayOnce(`No system bus to ask NetworkManager (${reasonOf(error)})`);
      return;
    }
    if (this.disposed) return bus.disconnect();
    this.bus = bus;
    bus.on('message', (message) => this.onMessage(message));
    try {
      // before the first read, so no change between the two is missed
      await addMatch(
        bus,
        `type='signal',sender='${NETWORK_MANAGER}',path='${NETWORK_MANAGER_PATH}',interface='${PROPERTIES}',member='PropertiesChanged',arg0='${NETWORK_MANAGER}'`,
      );
      await addMatch(
        bus,
        `type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='${NETWORK_MANAGER}'`,
      );
    } catch (error) {
      this.sayOnce(`The system bus refused to pass on NetworkManager's changes (${reasonOf(error)})`);
    }
    await this.read();
  }

  metered(): boolean {
    return this.value;
  }

  dispose(): void {
    this.disposed = true;
    this.bus?.disconnect();
    this.bus = null;
    this.emitter.dispose();
  }

  private async read(): Promise<void> {
    const bus = this.bus;
    if (!bus) return;
    try {
      const [value] = await callMethod(bus, {
        destination: NETWORK_MANAGER,
        path: NETWORK_MANAGER_PATH,
        interface: PROPERTIES,
        member: 'Get',
        signature: 'ss',
        body: [NETWORK_MANAGER, 'Metered'],
      });
      this.set(isMetered(value instanceof Variant ? value.value : value));
    } catch (error) {
      this.set(false);
      this.sayOnce(`NetworkManager did not answer on the system bus (${reasonOf(error)})`);
    }
  }

  private onMessage(message: Message): void {
    if (isSignal(message, PROPERTIES, 'PropertiesChanged') && message.path === NETWORK_MANAGER_PATH) {
      const [iface, changed, invalidated] = message.body as [string, Record<string, Variant>, string[]];
      if (iface !== NETWORK_MANAGER) return;
      if (changed.Metered) this.set(isMetered(changed.Metered.value));
      else if (invalidated.includes('Metered')) void this.read();
    } else if (isSignal(message, 'org.freedesktop.DBus', 'NameOwnerChanged') && message.body[0] === NETWORK_MANAGER) {
      if (message.body[2] !== '') return void this.read();
      this.options.log?.info(
        'NetworkManager left the system bus: the connection counts as not metered until it is back.',
      );
      this.set(false);
    }
  }

  private set(metered: boolean): void {
    if (this.disposed || metered === this.value) return;
    this.value = metered;
    this.emitter.fire(metered);
  }

  private sayOnce(problem: string): void {
    if (this.told || this.disposed) return;
    this.told = true;
    this.options.log?.info(`${problem}: the connection never counts as metered.`);
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof Error && 'type' in error) return String((error as Error & { type: string }).type);
  return error instanceof Error ? error.message : String(error);
}
