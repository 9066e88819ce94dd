import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { PLANS, type Plan } from '../../src-shared/api/index.js';
import { statementCache, type Db, type Sql } from './database.js';

export const AccountRecordSchema = z.object({
  id: z.string(),
  baseUrl: z.string(),
  username: z.string().nullable(),
  plan: z.enum(PLANS),
  createdAt: z.number(),
});
export type AccountRecord = z.infer<typeof AccountRecordSchema>;

interface Row {
  id: string;
  base_url: string;
  username: string | null;
  plan: string;
  created_at: number;
}

/** The accounts the app signs in to. Never their tokens: those live in a TokenVault. */
export class AccountStore {
  private readonly sql: Sql;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.sql = statementCache(db);
  }

  add(input: { baseUrl: string; username: string | null; plan: Plan }): AccountRecord {
    const id = randomUUID();
    this.sql('INSERT INTO accounts (id, base_url, username, plan, created_at) VALUES (?, ?, ?, ?, ?)').run(
      id,
      input.baseUrl,
      input.username,
      input.plan,
      this.now(),
    );
    return this.get(id)!;
  }

  update(id: string, change: { username?: string | null; plan?: Plan; baseUrl?: string }): void {
    const current = this.get(id);
    if (!current) return;
    this.sql('UPDATE accounts SET username = ?, plan = ?, base_url = ? WHERE id = ?').run(
      change.username === undefined ? current.username : change.username,
      change.plan ?? current.plan,
      change.baseUrl ?? current.baseUrl,
      id,
    );
  }

  get(id: string): AccountRecord | undefined {
    const row = this.sql('SELECT * FROM accounts WHERE id = ?').get(id) as Row | undefined;
    return row && toRecord(row);
  }

  /** The account for this server and user, so signing in again replaces rather than duplicates. */
  find(baseUrl: string, username: string | null): AccountRecord | undefined {
    const row = this.sql('SELECT * FROM accounts WHERE base_url = ? AND username IS ? ORDER BY created_at LIMIT 1').get(
      baseUrl,
      username,
    ) as Row | undefined;
    return row && toRecord(row);
  }

  list(): AccountRecord[] {
    return (this.sql('SELECT * FROM accounts ORDER BY created_at').all() as Row[]).map(toRecord);
  }

  remove(id: string): void {
    this.sql('DELETE FROM accounts WHERE id = ?').run(id);
  }
}

function toRecord(row: Row): AccountRecord {
  return AccountRecordSchema.parse({
    id: row.id,
    baseUrl: row.base_url,
    username: row.username,
    plan: row.plan,
    createdAt: row.created_at,
  });
}
