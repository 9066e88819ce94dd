import { QueuePauseSchema, type QueuePause } from '../../src-shared/model/queue-pause.js';
import { parseJsonOrUndefined } from '../common/parse-json.js';
import { statementCache, type Db, type Sql } from './database.js';

const QUEUE_PAUSE_KEY = 'uploads.pause';

/** Small named values that must survive a restart: the person's pause of the whole queue. */
export class AppStateStore {
  private readonly sql: Sql;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  /** The person's pause of the whole queue as kept (migration 9 turned the version before's into it); null when none. */
  queuePause(): QueuePause | null {
    const row = this.sql('SELECT value FROM app_state WHERE key = ?').get(QUEUE_PAUSE_KEY) as
      { value: string } | undefined;
    return (row && QueuePauseSchema.safeParse(parseJsonOrUndefined(row.value)).data) ?? null;
  }

  setQueuePause(pause: QueuePause | null): void {
    if (pause === null) this.sql('DELETE FROM app_state WHERE key = ?').run(QUEUE_PAUSE_KEY);
    else
      this.sql(
        'INSERT INTO app_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      ).run(QUEUE_PAUSE_KEY, JSON.stringify(pause));
  }
}
