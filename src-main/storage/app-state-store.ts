import type { QueuePause } from '../../src-shared/model/queue-pause.js';
import { QueuePauseSchema } from '../../src-shared/model/queue-pause-schema.js';
import { parseJsonOrUndefined } from '../common/parse-json.js';
import { statementCache, type Db, type Sql } from './database.js';

const PAUSE_KEY = 'uploads.pause';

/** Small named values that must survive a restart: the person's pause of the whole queue. */
export class AppStateStore {
  private readonly sql: Sql;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  /** The person's pause of the whole queue as kept (migration 9 read the version before's); null when none. */
  queuePause(): QueuePause | null {
    const row = this.sql('SELECT value FROM app_state WHERE key = ?').get(PAUSE_KEY) as { value: string } | undefined;
    return (row && QueuePauseSchema.safeParse(parseJsonOrUndefined(row.value)).data) ?? null;
  }

  setQueuePause(pause: QueuePause | null): void {
    if (pause === null) this.sql('DELETE FROM app_state WHERE key = ?').run(PAUSE_KEY);
    else this.sql('INSERT OR REPLACE INTO app_state (key, value) VALUES (?, ?)').run(PAUSE_KEY, JSON.stringify(pause));
  }
}
