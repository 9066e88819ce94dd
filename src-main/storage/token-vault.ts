import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { englishText, message, type Message } from '../../src-shared/i18n/message.js';

/**
 * Where an account's API token is kept. The desktop app implements it with
 * Electron's safeStorage; the CLI and the headless daemon with 0600 files.
 * A token never goes in the database, a log or an event.
 */
export interface TokenVault {
  get(accountId: string): Promise<string | null>;
  set(accountId: string, token: string): Promise<void>;
  delete(accountId: string): Promise<void>;
  /** how the token is protected, said plainly to the person: in English */
  readonly description: string;
  /** the same as a catalog message, for the UI to say in its language */
  readonly descriptionText: Message;
}

/** One file per account under `dir`, readable by the owner only (0600 in a 0700 folder). */
export class FileTokenVault implements TokenVault {
  readonly descriptionText = message('core.tokenStorage.file');
  readonly description = englishText(this.descriptionText);

  constructor(private readonly dir: string) {}

  async get(accountId: string): Promise<string | null> {
    try {
      const token = (await readFile(this.path(accountId), 'utf8')).trim();
      return token || null;
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return null;
      throw error;
    }
  }

  async set(accountId: string, token: string): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    const path = this.path(accountId);
    await writeFile(path, `${token}\n`, { mode: 0o600 });
    // writeFile keeps the mode of an existing file: make sure
    await chmod(path, 0o600);
  }

  async delete(accountId: string): Promise<void> {
    await rm(this.path(accountId), { force: true });
  }

  private path(accountId: string): string {
    if (!/^[A-Za-z0-9-]+$/.test(accountId)) throw new Error('Invalid account id.');
    return join(this.dir, `${accountId}.token`);
  }
}
