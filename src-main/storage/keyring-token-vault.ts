import { join } from 'node:path';
import { englishText, message } from '../../src-shared/i18n/message.js';
import type { Log } from '../common/file-log.js';
import { CoreError } from '../common/core-error.js';
import type { SecretService } from '../system/secret-service.js';
import { sessionBusAddress } from '../system/session-bus-address.js';
import { FileTokenVault, type TokenVault } from './token-vault.js';

/** The attributes of an account's item: what `secret-tool lookup application media-sync account ID` finds. */
const attributesOf = (accountId: string) => ({ application: 'media-sync', account: accountId });

/**
 * Tokens in the desktop keyring through the Secret Service (system/secret-service.ts),
 * for `serve` and the CLI on a Linux desktop, as `gh` and
 * git-credential-libsecret keep theirs. A token still in the 0600 file of an
 * older start is moved into the keyring when it is first read, and the file
 * removed. A keyring that stops answering after the start fails a sign-in or
 * sign-out in words instead of keeping the token elsewhere: a token stored
 * where the Account page does not say would be one the person does not know
 * about. Reading then falls back to the file, which holds nothing unknown.
 */
export class KeyringTokenVault implements TokenVault {
  readonly descriptionText = message('core.tokenStorage.keyring', { backend: 'Secret Service' });
  readonly description = englishText(this.descriptionText);

  constructor(
    private readonly env: Record<string, string | undefined>,
    /** where tokens were kept before: read once, then emptied */
    private readonly file: FileTokenVault,
    private readonly log?: Log,
  ) {}

  async get(accountId: string): Promise<string | null> {
    let kept: string | null;
    try {
      kept = await useSecretService(this.env, (service) => this.find(service, accountId));
    } catch (error) {
      // reading elsewhere tells nothing wrong: the file is where an older start kept it
      this.log?.warn(`The desktop keyring did not give the token (${(error as Error).message}); looking in its file.`);
      return this.file.get(accountId);
    }
    if (kept !== null) return kept;
    const old = await this.file.get(accountId);
    if (old === null) return null;
    await this.set(accountId, old);
    this.log?.info(`Moved the token of account ${accountId} from its 0600 file into the desktop keyring.`);
    return old;
  }

  async set(accountId: string, token: string): Promise<void> {
    await this.keyring('core.errors.keyringKeep', async (service) => {
      const collection = await service.defaultCollection();
      await service.store(collection, `Media Sync API token (account ${accountId})`, attributesOf(accountId), token);
    });
    // a copy left in the file would outlive a sign-out from the keyring
    await this.file.delete(accountId);
  }

  async delete(accountId: string): Promise<void> {
    await this.file.delete(accountId);
    await this.keyring('core.errors.keyringRemove', async (service) => {
      for (const item of await service.search(attributesOf(accountId))) await service.delete(item);
    });
  }

  private async find(service: SecretService, accountId: string): Promise<string | null> {
    const [item] = await service.search(attributesOf(accountId));
    return item === undefined ? null : service.read(item);
  }

  /** `act` on the keyring; a failure is said in words (no D-Bus reply carries the secret sent). */
  private async keyring(
    key: 'core.errors.keyringKeep' | 'core.errors.keyringRemove',
    act: (service: SecretService) => Promise<void>,
  ): Promise<void> {
    try {
      await useSecretService(this.env, act);
    } catch (error) {
      throw CoreError.say('UNAVAILABLE', message(key, { reason: (error as Error).message }));
    }
  }
}

export interface TokenVaultOptions {
  dataDir: string;
  /** the process's environment: where the session bus is */
  env: Record<string, string | undefined>;
  log?: Log;
}

/**
 * The vault of `serve` and the CLI: the desktop keyring when a Secret
 * Service answers with an unlocked default collection, else 0600 files in
 * `DATA/credentials` (no session bus, no service, a locked keyring). Decided
 * once per start, and said in the log and on the Account page.
 */
export async function openTokenVault(options: TokenVaultOptions): Promise<TokenVault> {
  const file = new FileTokenVault(join(options.dataDir, 'credentials'));
  try {
    // asked before the Secret Service's module loads (useSecretService)
    if (!sessionBusAddress(options.env)) throw new Error('no session bus');
    await useSecretService(options.env, (service) => service.defaultCollection());
  } catch (error) {
    const where = join(options.dataDir, 'credentials');
    options.log?.info(
      `Tokens are kept in 0600 files in ${where}, not in a desktop keyring: ${(error as Error).message}.`,
    );
    return file;
  }
  options.log?.info('Tokens are kept in the desktop keyring (Secret Service).');
  return new KeyringTokenVault(options.env, file, options.log);
}

/**
 * `SecretService.use`, its module loaded at the first use: it brings D-Bus's code, a fifth of what a CLI
 * command's own core loads, which a command on a machine with no session bus (a server, a container, an SSH
 * login) never needs.
 */
async function useSecretService<T>(
  env: Record<string, string | undefined>,
  act: (service: SecretService) => Promise<T>,
): Promise<T> {
  const { SecretService } = await import('../system/secret-service.js');
  return SecretService.use(env, act);
}
