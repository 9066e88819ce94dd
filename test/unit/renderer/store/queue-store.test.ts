import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UploadState } from '../../../../src-shared/model/upload-state.js';
import { QueueStore } from '../../../../src-renderer/store/queue-store.js';
import { item } from '../../../helpers/queue-fixtures.js';
import { ScriptedBridge, settle } from '../../../helpers/scripted-bridge.js';

const PAGE = 10;
/** items `from`…`to`, queued, by id: item n is at index n - 1 */
const items = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => item(from + i));
const uploading = (sentBytes: number): UploadState => ({
  kind: 'uploading',
  attempt: 0,
  ackedBytes: 0,
  sentBytes,
  totalBytes: 1_000,
});

describe('the queue store', () => {
  let bridge: ScriptedBridge;
  let queue: QueueStore;

  /** Answers the page reads sent so far from a queue of `total` items. */
  async function answerPages(total: number) {
    for (const command of bridge.take('uploads:list')) {
      const { offset, limit } = command.request as { offset: number; limit: number };
      command.answer({ items: items(offset + 1, Math.min(total, offset + limit)), total });
    }
    await settle();
  }

  const asked = () =>
    bridge.sent.filter((command) => command.name === 'uploads:list').map((command) => command.request);

  beforeEach(() => {
    vi.useFakeTimers();
    bridge = new ScriptedBridge();
    bridge.setConnection('open');
    queue = new QueueStore(bridge, PAGE);
  });
  afterEach(() => vi.useRealTimers());

  it('says "loading" until the first page, then loads each page once as its rows come into view', async () => {
    queue.show(0, 8);
    queue.reload();
    expect(queue.get()).toMatchObject({ ready: false, total: 0 });
    expect(asked()).toEqual([{ offset: 0, limit: PAGE }]);
    await answerPages(35);
    expect(queue.get()).toMatchObject({ ready: true, total: 35 });
    expect(queue.at(9)?.fileName).toBe('clip-10.mp4');
    expect(queue.at(10)).toBeUndefined();

    queue.show(5, 22);
    queue.show(6, 23);
    expect(asked()).toEqual([
      { offset: 10, limit: PAGE },
      { offset: 20, limit: PAGE },
    ]);
    await answerPages(35);
    expect(queue.at(21)?.id).toBe(22);
    // the end: a short last page
    queue.show(30, 40);
    await answerPages(35);
    expect(queue.at(34)?.id).toBe(35);
    queue.show(0, 40);
    expect(asked()).toEqual([]);
  });

  it('updates loaded items in place, appends new ones at a loaded end, and reads the end again for others', async () => {
    queue.reload();
    await answerPages(3);
    bridge.fire('uploads:itemChanged', item(2, { kind: 'paused', until: null }));
    expect(queue.at(1)?.state).toEqual({ kind: 'paused', until: null });
    bridge.fire('uploads:itemChanged', item(4));
    expect(queue.get().total).toBe(4);
    expect(queue.at(3)?.id).toBe(4);

    // a queue longer than what is loaded: a new item's place is learnt from the last page, once for many
    queue.reload();
    await answerPages(25);
    for (const id of [26, 27]) bridge.fire('uploads:itemChanged', item(id));
    expect(queue.get().total).toBe(25);
    vi.advanceTimersByTime(500);
    expect(asked()).toEqual([{ offset: 20, limit: PAGE }]);
    await answerPages(27);
    expect(queue.get().total).toBe(27);
    expect(queue.at(26)?.id).toBe(27);
  });

  it('moves running items’ bytes apart from the items, telling only those who listen to them, and measures speed', async () => {
    queue.reload();
    await answerPages(3);
    vi.setSystemTime(0);
    bridge.fire('uploads:itemChanged', item(1, uploading(0)));
    expect(queue.running()).toBe(true);
    const told = { queue: 0, live: 0 };
    queue.subscribe(() => told.queue++);
    queue.live.subscribe(() => told.live++);
    const first = queue.at(0);
    bridge.fire('uploads:progress', [{ id: 1, state: uploading(0) }]);
    vi.setSystemTime(1_000);
    bridge.fire('uploads:progress', [{ id: 1, state: uploading(500) }]);
    // the item is what the last event said; its bytes are live
    expect(queue.at(0)).toBe(first);
    expect(queue.stateOf(first!)).toEqual(uploading(500));
    expect(told).toEqual({ queue: 0, live: 2 });
    expect(queue.speedOf(1, 1_000)).toBe(500);
    vi.setSystemTime(3_000);
    bridge.fire('uploads:progress', [{ id: 1, state: uploading(750) }]);
    expect(queue.etaOf(1, 3_000, 1_000)).toBe(1);

    // a batch for an item the page thought queued (its event came before the page's read) starts it
    bridge.fire('uploads:progress', [
      { id: 2, state: uploading(100) },
      { id: 99, state: uploading(100) },
    ]);
    expect(queue.at(1)?.state).toEqual(uploading(100));
    expect(told.queue).toBe(1);

    // an item event is newer than the batches before it
    const done = item(1, { kind: 'done', fileId: 'f1', finishedAt: 3_000 });
    bridge.fire('uploads:itemChanged', done);
    expect(queue.stateOf(queue.at(0)!)).toEqual(done.state);
    bridge.fire('uploads:itemChanged', item(2, { kind: 'paused', until: null }));
    bridge.fire(
      'uploads:itemChanged',
      item(99, { kind: 'failed', reason: { message: 'no', code: 'X', requestId: null } }),
    );
    expect(queue.running()).toBe(false);
    expect(queue.live.get().size).toBe(0);
  });

  it('forgets rows past an end that shrank, and starts over on reload (after Clear finished)', async () => {
    queue.reload();
    await answerPages(5);
    queue.show(0, 5);
    bridge.fire('uploads:itemChanged', item(1, { kind: 'cancelled' }));
    queue.reload();
    await answerPages(2);
    expect(queue.get().total).toBe(2);
    expect(queue.at(0)?.state).toEqual({ kind: 'queued' });
    expect(queue.at(3)).toBeUndefined();
  });

  it('reads its rows again when finished items left the queue (Clear finished, or removed after some days)', async () => {
    queue.reload();
    await answerPages(5);
    queue.show(0, 5);
    bridge.fire('uploads:removed', { removed: 3 });
    expect(queue.get().ready).toBe(false);
    await answerPages(2);
    expect(queue.get().total).toBe(2);
    expect(queue.at(2)).toBeUndefined();
  });

  it('drops a page answered for the queue as it was before a reload, and says why a page failed', async () => {
    queue.reload();
    const [stale] = bridge.take('uploads:list');
    queue.reload();
    stale!.answer({ items: items(1, 3), total: 3 });
    await settle();
    expect(queue.get().ready).toBe(false);
    bridge.take('uploads:list')[0]!.refuse('DISCONNECTED', 'The connection dropped.');
    await settle();
    expect(queue.get().error).toMatchObject({ code: 'DISCONNECTED' });
  });
});
