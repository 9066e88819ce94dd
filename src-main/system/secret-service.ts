import { Variant, type MessageBus } from '@jellybrick/dbus-next';
import { sessionBusAddress } from './session-bus-address.js';
import { callMethod, connectBus } from './system-bus.js';

const SERVICE = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';
const SECRET = 'org.freedesktop.Secret';
const NO_OBJECT = '/';

/** Why the Secret Service cannot keep a token here: said in the log, never holding a secret. */
class KeyringUnavailableError extends Error {
  constructor(reason: string, options?: { cause: unknown }) {
    super(reason, options);
    this.name = 'KeyringUnavailableError';
  }
}

/**
 * The Secret Service (org.freedesktop.secrets: GNOME Keyring, KWallet,
 * KeePassXC) on the session bus, as libsecret and `gh` use it: one
 * conversation per use (connect, open a session, act, disconnect), secrets
 * sent with the "plain" algorithm, as libsecret does when it does not
 * negotiate one: the session bus is a socket of this user's. Items go in the
 * default collection, which must be unlocked or unlock without a prompt: a
 * headless process has no one to type the keyring's password, so a locked
 * keyring counts as none.
 */
export class SecretService {
  private constructor(
    private readonly bus: MessageBus,
    private readonly session: string,
  ) {}

  /** Runs `act` in one conversation; rejects with KeyringUnavailableError when no usable service answers. */
  static async use<T>(
    env: Record<string, string | undefined>,
    act: (service: SecretService) => Promise<T>,
    timeoutMs = 2_000,
  ): Promise<T> {
    const address = sessionBusAddress(env);
    if (!address) throw new KeyringUnavailableError('no session bus');
    const bus = await connectBus(address, 'the session bus', timeoutMs).catch((error: unknown) => {
      throw new KeyringUnavailableError(`the session bus did not answer (${(error as Error).message})`, {
        cause: error,
      });
    });
    try {
      const [, session] = await call(bus, SERVICE_PATH, 'Service', 'OpenSession', 'sv', [
        'plain',
        new Variant('s', ''),
      ]);
      return await act(new SecretService(bus, session as string));
    } catch (error) {
      if (error instanceof KeyringUnavailableError) throw error;
      const name = (error as { type?: string }).type;
      if (
        name === 'org.freedesktop.DBus.Error.ServiceUnknown' ||
        name === 'org.freedesktop.DBus.Error.NameHasNoOwner'
      ) {
        throw new KeyringUnavailableError('no Secret Service on the session bus', { cause: error });
      }
      throw error;
    } finally {
      bus.disconnect();
    }
  }

  /** The default collection, unlocked; KeyringUnavailableError when there is none or it needs a password typed. */
  async defaultCollection(): Promise<string> {
    const [collection] = (await call(this.bus, SERVICE_PATH, 'Service', 'ReadAlias', 's', ['default'])) as [string];
    if (collection === NO_OBJECT) throw new KeyringUnavailableError('the keyring has no default collection');
    if (await this.locked(collection)) {
      const [unlocked, prompt] = (await call(this.bus, SERVICE_PATH, 'Service', 'Unlock', 'ao', [[collection]])) as [
        string[],
        string,
      ];
      if (!unlocked.includes(collection)) {
        // the unlock would ask the person for the keyring's password: not from here
        if (prompt !== NO_OBJECT) await call(this.bus, prompt, 'Prompt', 'Dismiss').catch(() => undefined);
        throw new KeyringUnavailableError('the keyring is locked');
      }
    }
    return collection;
  }

  /** The unlocked items whose attributes include `attributes`; KeyringUnavailableError when only locked ones match. */
  async search(attributes: Record<string, string>): Promise<string[]> {
    const [unlocked, locked] = (await call(this.bus, SERVICE_PATH, 'Service', 'SearchItems', 'a{ss}', [
      attributes,
    ])) as [string[], string[]];
    if (unlocked.length === 0 && locked.length > 0) throw new KeyringUnavailableError('the keyring is locked');
    return unlocked;
  }

  async read(item: string): Promise<string> {
    const [secret] = (await call(this.bus, item, 'Item', 'GetSecret', 'o', [this.session])) as [
      [string, Buffer, Buffer, string],
    ];
    return secret[2].toString('utf8');
  }

  /** Stores `value` under `attributes` in `collection`, replacing an item with the same attributes. */
  async store(collection: string, label: string, attributes: Record<string, string>, value: string): Promise<void> {
    const properties = {
      [`${SECRET}.Item.Label`]: new Variant('s', label),
      [`${SECRET}.Item.Attributes`]: new Variant('a{ss}', attributes),
    };
    const secret = [this.session, Buffer.alloc(0), Buffer.from(value, 'utf8'), 'text/plain; charset=utf8'];
    const [, prompt] = (await call(this.bus, collection, 'Collection', 'CreateItem', 'a{sv}(oayays)b', [
      properties,
      secret,
      true,
    ])) as [string, string];
    if (prompt !== NO_OBJECT) {
      await call(this.bus, prompt, 'Prompt', 'Dismiss').catch(() => undefined);
      throw new KeyringUnavailableError('the keyring asked for a password to store the token');
    }
  }

  async delete(item: string): Promise<void> {
    const [prompt] = (await call(this.bus, item, 'Item', 'Delete')) as [string];
    if (prompt !== NO_OBJECT) {
      await call(this.bus, prompt, 'Prompt', 'Dismiss').catch(() => undefined);
      throw new KeyringUnavailableError('the keyring asked for a password to delete the token');
    }
  }

  private async locked(collection: string): Promise<boolean> {
    const [value] = (await callMethod(this.bus, {
      destination: SERVICE,
      path: collection,
      interface: 'org.freedesktop.DBus.Properties',
      member: 'Get',
      signature: 'ss',
      body: [`${SECRET}.Collection`, 'Locked'],
    })) as [Variant<boolean>];
    return value.value;
  }
}

function call(bus: MessageBus, path: string, iface: string, member: string, signature?: string, body?: unknown[]) {
  return callMethod(bus, { destination: SERVICE, path, interface: `${SECRET}.${iface}`, member, signature, body });
}
