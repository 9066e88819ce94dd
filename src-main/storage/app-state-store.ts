import { statementCache, type Db, type Sql } from './database.js';

/** Small named values that must survive a restart (the queue's global pause). */
export class AppStateStore {
  private readonly sql: Sql;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  get(key: string): string | undefined {
    const row = this.sql('SELECT value FROM app_state WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  set(key: string, value: string): void {
    this.sql(
      'INSERT INTO app_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }

  delete(key: string): void {
    this.sql('DELETE FROM app_state WHERE key = ?').run(key);
  }
}
