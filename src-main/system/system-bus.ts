import { Message, MessageType, sessionBus, type MessageBus } from '@jellybrick/dbus-next';

/** Where the system bus is when `DBUS_SYSTEM_BUS_ADDRESS` does not say (the D-Bus specification's default). */
export const DEFAULT_SYSTEM_BUS_ADDRESS = 'unix:path=/var/run/dbus/system_bus_socket';

export interface SystemBusOptions {
  /** the process's environment: `DBUS_SYSTEM_BUS_ADDRESS` names another bus (a test's private one) */
  env: Record<string, string | undefined>;
  /** how long connecting may take before it counts as no bus (2 s) */
  timeoutMs?: number;
}

/** The system bus's address: `DBUS_SYSTEM_BUS_ADDRESS` when set, else the default socket. */
export function systemBusAddress(env: Record<string, string | undefined>): string {
  return env['DBUS_SYSTEM_BUS_ADDRESS'] || DEFAULT_SYSTEM_BUS_ADDRESS;
}

/** A connection to the system bus (NetworkManager, logind), once it said hello; rejects when there is none to reach. */
export function connectSystemBus(options: SystemBusOptions): Promise<MessageBus> {
  return connectBus(systemBusAddress(options.env), 'the system bus', options.timeoutMs);
}

/**
 * A connection to the bus at `address`, once it said hello; rejects when
 * there is none to reach. dbus-next's `systemBus()` and `sessionBus()` read
 * the address themselves (the session bus even from X11's files), but an
 * explicit one lets the caller pass the environment in. The bus reports a
 * lost connection as `error` events, which would throw if nobody listened:
 * one listener is always there.
 */
export async function connectBus(address: string, name: string, timeoutMs = 2_000): Promise<MessageBus> {
  const bus = sessionBus({ busAddress: address });
  let onError: (error: unknown) => void = () => undefined;
  // the typings leave out `error`, which the bus does emit
  (bus as unknown as NodeJS.EventEmitter).on('error', (error: unknown) => onError(error));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not answer`)), timeoutMs);
      onError = (error) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      bus.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  } catch (error) {
    bus.disconnect();
    throw error;
  } finally {
    onError = () => undefined;
  }
  return bus;
}

/**
 * Calls a method and answers its reply's body; rejects with the bus's
 * DBusError (its `type` is the error name), or when no reply came within
 * `timeoutMs` (5 s): a service that hangs must not hang the app's start.
 */
export async function callMethod(
  bus: MessageBus,
  call: { destination: string; path: string; interface: string; member: string; signature?: string; body?: unknown[] },
  timeoutMs = 5_000,
): Promise<unknown[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${call.destination} did not answer ${call.member}`)), timeoutMs);
  });
  try {
    const reply = await Promise.race([bus.call(new Message(call)), timeout]);
    return reply?.body ?? [];
  } finally {
    clearTimeout(timer);
  }
}

/** Asks the bus daemon for the signals a match rule describes (they arrive as the bus's `message` events). */
export async function addMatch(bus: MessageBus, rule: string): Promise<void> {
  await callMethod(bus, {
    destination: 'org.freedesktop.DBus',
    path: '/org/freedesktop/DBus',
    interface: 'org.freedesktop.DBus',
    member: 'AddMatch',
    signature: 's',
    body: [rule],
  });
}

/** A signal from the bus, for the `message` listener: those only, never replies or calls. */
export function isSignal(message: Message, iface: string, member: string): boolean {
  return message.type === MessageType.SIGNAL && message.interface === iface && message.member === member;
}
