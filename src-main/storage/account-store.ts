import * as z from 'zod';
import { PLANS, type Plan } from '../../src-shared/api/index.js';
import { statementCache, type Db, type Sql } from './database.js';
import { nodeCrypto } from '../common/lazy-builtins.js';

export const AccountRecordSchema = z.object({
  id: z.string(),
  baseUrl: z.string(),
  /** the service's id of the account (GET /account `id`); null in rows from before it was kept */
  remoteId: z.string().nullable(),
  username: z.string().nullable(),
  plan: z.enum(PLANS),
  createdAt: z.number(),
  /** when the person signed out (epoch ms); null while signed in */
  signedOutAt: z.number().nullable(),
});
export type AccountRecord = z.infer<typeof AccountRecordSchema>;

/** Who an account is on its server: what GET /account says of it. */
export interface RemoteIdentity {
  id: string;
  username: string;
}

interface Row {
  id: string;
  base_url: string;
  remote_id: string | null;
  username: string | null;
  plan: string;
  created_at: number;
  signed_out_at: number | null;
}

/**
 * The accounts the app signs in to. Never their tokens: those live in a
 * TokenVault. An account signed out stays (marked so), with its id: its
 * watched folders and queued files still name it, and signing in again to
 * the same account (server and service account) takes them back.
 */
export class AccountStore {
  private readonly sql: Sql;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.sql = statementCache(db);
  }

  add(input: { baseUrl: string; remote: RemoteIdentity; plan: Plan }): AccountRecord {
    const id = nodeCrypto().randomUUID();
    this.sql(
      'INSERT INTO accounts (id, base_url, remote_id, username, plan, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(id, input.baseUrl, input.remote.id, input.remote.username, input.plan, this.now());
    return this.get(id)!;
  }

  update(id: string, change: { remote?: RemoteIdentity; plan?: Plan; baseUrl?: string }): void {
    const current = this.get(id);
    if (!current) return;
    this.sql('UPDATE accounts SET remote_id = ?, username = ?, plan = ?, base_url = ? WHERE id = ?').run(
      change.remote?.id ?? current.remoteId,
      change.remote?.username ?? current.username,
      change.plan ?? current.plan,
      change.baseUrl ?? current.baseUrl,
      id,
    );
  }

  /** Signed out (the time) or signed in again (null). */
  setSignedOut(id: string, at: number | null): void {
    this.sql('UPDATE accounts SET signed_out_at = ? WHERE id = ?').run(at, id);
  }

  /** Any account the app knows, signed out or not. */
  get(id: string): AccountRecord | undefined {
    const row = this.sql('SELECT * FROM accounts WHERE id = ?').get(id) as Row | undefined;
    return row && toRecord(row);
  }

  /**
   * The account for this server and service account, signed out or not, so
   * signing in again takes the same one back rather than making another. A
   * row from before the service's id was kept is matched by username.
   */
  find(baseUrl: string, remote: RemoteIdentity): AccountRecord | undefined {
    const row = this.sql(
      `SELECT * FROM accounts WHERE base_url = ? AND (remote_id = ? OR (remote_id IS NULL AND username IS ?))
       ORDER BY signed_out_at IS NOT NULL, created_at LIMIT 1`,
    ).get(baseUrl, remote.id, remote.username) as Row | undefined;
    return row && toRecord(row);
  }

  /** The accounts signed in, oldest first. */
  list(): AccountRecord[] {
    return (this.sql('SELECT * FROM accounts WHERE signed_out_at IS NULL ORDER BY created_at').all() as Row[]).map(
      toRecord,
    );
  }

  /** Every account the app knows, signed out ones too, oldest first. */
  all(): AccountRecord[] {
    return (this.sql('SELECT * FROM accounts ORDER BY created_at').all() as Row[]).map(toRecord);
  }
}

function toRecord(row: Row): AccountRecord {
  return AccountRecordSchema.parse({
    id: row.id,
    baseUrl: row.base_url,
    remoteId: row.remote_id,
    username: row.username,
    plan: row.plan,
    createdAt: row.created_at,
    signedOutAt: row.signed_out_at,
  });
}
