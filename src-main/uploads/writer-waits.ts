import type { UploadItem } from '../../src-shared/model/upload-state.js';
import type { Clock } from '../common/clock.js';
import type { FileWriter, WriterProbe } from './file-writers.js';
import type { ItemStates } from './item-states.js';

/** A file held open for writing is looked at again this often (its row says so meanwhile). */
export const WRITER_RECHECK_MS = 2_000;

/**
 * Queued items whose file a process still writes (a recorder between two
 * flushes, past the settle window): they stay queued, saying so, and are
 * looked at again every WRITER_RECHECK_MS. In memory only: after a restart
 * each is looked at afresh.
 */
export class WriterWaits {
  /** who held each such item's file, and when it is looked at again (wall ms) */
  private readonly waits = new Map<number, { writer: FileWriter; checkAt: number }>();

  constructor(
    private readonly probe: WriterProbe,
    private readonly items: ItemStates,
    private readonly clock: Clock,
  ) {}

  /** The items not to start before their next look, and when the first of those looks is (Infinity: none). */
  waiting(now: number): { ids: number[]; nextCheck: number } {
    const ids: number[] = [];
    let nextCheck = Infinity;
    for (const [id, { checkAt }] of this.waits) {
      if (checkAt <= now) continue;
      ids.push(id);
      nextCheck = Math.min(nextCheck, checkAt);
    }
    return { ids, nextCheck };
  }

  /** The item was paused, cancelled or retried: its next start looks afresh. */
  forget(id: number): void {
    this.waits.delete(id);
  }

  /**
   * Whether a process still holds the item's file open for writing: then it
   * stays queued, saying so, and is looked at again in WRITER_RECHECK_MS.
   */
  async stillWritten(item: UploadItem, signal: AbortSignal): Promise<boolean> {
    const writer = await this.probe.writerOf(item.path, this.waits.get(item.id)?.writer, item.createdAt);
    // paused, cancelled or stopped meanwhile: the command moves the state
    if (signal.aborted) return true;
    if (writer === null) {
      this.waits.delete(item.id);
      return false;
    }
    this.waits.set(item.id, { writer, checkAt: this.clock.wall() + WRITER_RECHECK_MS });
    this.items.apply(item, { type: 'wait', reason: 'beingWritten' });
    return true;
  }
}
