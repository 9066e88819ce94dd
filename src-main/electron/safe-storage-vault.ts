import type { SafeStorage } from 'electron';
import { englishText, message, type Message } from '../../src-shared/i18n/message.js';
import type { TokenVault } from '../storage/token-vault.js';

/** The part of electron-store the vault uses (a plain Map in tests). */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

interface StoredToken {
  ciphertext: string;
  backend: string;
}

/**
 * Tokens encrypted with Electron's safeStorage (async API, after `ready`),
 * the ciphertext and the backend that made it kept in electron-store. On
 * Linux without a keyring safeStorage falls back to `basic_text`, a key built
 * into Chromium: the token is then only obfuscated, and the app says so
 * instead of calling it a keychain.
 */
export class SafeStorageVault implements TokenVault {
  constructor(
    private readonly safeStorage: Pick<
      SafeStorage,
      'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'
    >,
    private readonly store: KeyValueStore,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  get backend(): string {
    if (this.platform !== 'linux') return this.platform === 'darwin' ? 'keychain' : 'dpapi';
    return this.safeStorage.getSelectedStorageBackend();
  }

  /** True when the token is only obfuscated (Linux without a keyring): the UI warns. */
  get isWeak(): boolean {
    return this.backend === 'basic_text' || this.backend === 'unknown';
  }

  get description(): string {
    return englishText(this.descriptionText);
  }

  get descriptionText(): Message {
    if (this.isWeak) return message('core.tokenStorage.obfuscated');
    if (this.platform === 'darwin') return message('core.tokenStorage.keychain');
    if (this.platform === 'win32') return message('core.tokenStorage.dpapi');
    return message('core.tokenStorage.keyring', { backend: this.backend });
  }

  async get(accountId: string): Promise<string | null> {
    const stored = this.store.get(key(accountId)) as StoredToken | undefined;
    if (!stored) return null;
    const { result, shouldReEncrypt } = await this.safeStorage.decryptStringAsync(
      Buffer.from(stored.ciphertext, 'base64'),
    );
    if (shouldReEncrypt) await this.set(accountId, result);
    return result;
  }

  async set(accountId: string, token: string): Promise<void> {
    if (!(await this.safeStorage.isAsyncEncryptionAvailable())) {
      throw new Error('This system offers no way to store the token safely; set MEDIA_SYNC_TOKEN instead.');
    }
    const ciphertext = await this.safeStorage.encryptStringAsync(token);
    this.store.set(key(accountId), { ciphertext: ciphertext.toString('base64'), backend: this.backend });
  }

  async delete(accountId: string): Promise<void> {
    this.store.delete(key(accountId));
  }
}

function key(accountId: string): string {
  return `tokens.${accountId}`;
}
