import type { QueuePause } from '../../src-shared/model/queue-pause.js';
import { QueuePauseSchema } from '../../src-shared/model/queue-pause-schema.js';
import { parseJsonOrUndefined } from '../common/parse-json.js';
import { statementCache, type Db, type Sql } from './database.js';

const PAUSE_KEY = 'uploads.pause';

/** Small named values that must survive a restart: the person's pause of the whole queue. */
export class AppStateStore {
  private readonly sql: Sql;
  /**
   * The pause as last read or written: the queue asks at every turn (twice a
   * file), and this store is its one writer (one owner per data folder).
   */
  private pause: QueuePause | null | undefined;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  /** The person's pause of the whole queue as kept (migration 9 read the version before's); null when none. */
  queuePause(): QueuePause | null {
    if (this.pause !== undefined) return this.pause;
    const row = this.sql('SELECT value FROM app_state WHERE key = ?').get(PAUSE_KEY) as { value: string } | undefined;
    return (this.pause = (row && QueuePauseSchema.safeParse(parseJsonOrUndefined(row.value)).data) ?? null);
  }

  setQueuePause(pause: QueuePause | null): void {
    if (pause === null) this.sql('DELETE FROM app_state WHERE key = ?').run(PAUSE_KEY);
    else this.sql('INSERT OR REPLACE INTO app_state (key, value) VALUES (?, ?)').run(PAUSE_KEY, JSON.stringify(pause));
    this.pause = pause;
  }
}
