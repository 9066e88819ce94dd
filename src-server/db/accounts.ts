import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { TokenPermissionSchema, type Plan, type TokenPermission } from '../../src-shared/api/index.js';
import { generateToken, hashToken } from '../auth/tokens.js';
import type { Clock } from '../clock.js';
import { newPublicId } from '../ids.js';
import type { Db } from './database.js';

export interface AccountRow {
  id: number;
  public_id: string;
  username: string;
  email: string;
  plan: Plan;
  status: number;
}

/** A token row as the auth check needs it: the JSON columns already parsed. */
export interface TokenRecord {
  id: number;
  accountId: number;
  abilities: TokenPermission[];
  allowedIps: string[];
  expiresAt: number | null;
  disabled: boolean;
}

export interface TokenOptions {
  abilities: readonly TokenPermission[];
  allowedIps?: readonly string[];
  expiresAt?: number | null;
  disabled?: boolean;
}

const AbilitiesColumn = z.array(TokenPermissionSchema);
const IpsColumn = z.array(z.string()).nullable();

/** Accounts, tokens, folders and the server-wide switches, on one connection. */
export class AccountStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  createAccount(username: string, plan: Plan): AccountRow {
    const email = `${username}@example.test`;
    const info = this.db
      .prepare('INSERT INTO accounts (public_id, username, email, plan, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(newPublicId(), username, email, plan, this.clock.now());
    return this.accountById(Number(info.lastInsertRowid))!;
  }

  accountById(id: number): AccountRow | undefined {
    return this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
  }

  accountByUsername(username: string): AccountRow | undefined {
    return this.db.prepare('SELECT * FROM accounts WHERE username = ?').get(username) as AccountRow | undefined;
  }

  hasAccounts(): boolean {
    return this.db.prepare('SELECT 1 FROM accounts LIMIT 1').get() !== undefined;
  }

  /** Creates a token and returns it in clear: the only time it exists outside the caller. */
  createToken(accountId: number, options: TokenOptions): string {
    const token = generateToken();
    this.db
      .prepare(
        `INSERT INTO tokens (account_id, token_hash, abilities, allowed_ips, expires_at, disabled, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        accountId,
        hashToken(token),
        JSON.stringify(options.abilities),
        options.allowedIps?.length ? JSON.stringify(options.allowedIps) : null,
        options.expiresAt ?? null,
        options.disabled ? 1 : 0,
        this.clock.now(),
      );
    return token;
  }

  tokenByHash(hash: string): TokenRecord | undefined {
    const row = this.db
      .prepare('SELECT id, account_id, abilities, allowed_ips, expires_at, disabled FROM tokens WHERE token_hash = ?')
      .get(hash) as
      | {
          id: number;
          account_id: number;
          abilities: string;
          allowed_ips: string | null;
          expires_at: number | null;
          disabled: number;
        }
      | undefined;
    if (!row) return undefined;
    return {
      id: row.id,
      accountId: row.account_id,
      abilities: AbilitiesColumn.parse(JSON.parse(row.abilities)),
      allowedIps: IpsColumn.parse(row.allowed_ips === null ? null : JSON.parse(row.allowed_ips)) ?? [],
      expiresAt: row.expires_at,
      disabled: row.disabled === 1,
    };
  }

  /** Returns false when no token has this value. */
  setTokenDisabled(token: string, disabled: boolean): boolean {
    const info = this.db
      .prepare('UPDATE tokens SET disabled = ? WHERE token_hash = ?')
      .run(disabled ? 1 : 0, hashToken(token));
    return info.changes === 1;
  }

  createFolder(accountId: number, name: string): number {
    const info = this.db.prepare('INSERT INTO folders (account_id, name) VALUES (?, ?)').run(accountId, name);
    return Number(info.lastInsertRowid);
  }

  folderBelongsTo(accountId: number, folderId: number): boolean {
    return (
      this.db.prepare('SELECT 1 FROM folders WHERE id = ? AND account_id = ?').get(folderId, accountId) !== undefined
    );
  }

  /** The Account object of GET /account, counted from the real rows. */
  summary(accountId: number) {
    const account = this.accountById(accountId)!;
    const files = this.db
      .prepare('SELECT COUNT(*) AS files, COALESCE(SUM(size_bytes), 0) AS bytes FROM files WHERE account_id = ?')
      .get(accountId) as { files: number; bytes: number };
    const jobs = this.db
      .prepare('SELECT status, COUNT(*) AS n FROM remote_jobs WHERE account_id = ? GROUP BY status')
      .all(accountId) as { status: string; n: number }[];
    const jobCount = (status: string) => jobs.find((row) => row.status === status)?.n ?? 0;
    return {
      id: account.public_id,
      username: account.username,
      email: account.email,
      status: account.status === 1,
      files: files.files,
      storage_bytes: files.bytes,
      remote_jobs: {
        pending: jobCount('pending'),
        running: jobCount('running'),
        completed: jobCount('completed'),
        failed: jobCount('failed'),
      },
    };
  }

  /** A random secret made on first use, for signing file-host cookies. */
  serverSecret(): string {
    this.db
      .prepare("INSERT OR IGNORE INTO server_settings (key, value) VALUES ('cookie_secret', ?)")
      .run(randomBytes(32).toString('base64url'));
    return (this.db.prepare("SELECT value FROM server_settings WHERE key = 'cookie_secret'").get() as { value: string })
      .value;
  }

  isApiDisabled(): boolean {
    const row = this.db.prepare("SELECT value FROM server_settings WHERE key = 'api_disabled'").get() as
      { value: string } | undefined;
    return row?.value === '1';
  }

  setApiDisabled(disabled: boolean): void {
    this.db
      .prepare(
        "INSERT INTO server_settings (key, value) VALUES ('api_disabled', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      )
      .run(disabled ? '1' : '0');
  }
}
