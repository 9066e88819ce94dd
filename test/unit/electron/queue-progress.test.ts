import { describe, expect, it } from 'vitest';
import { QueueProgressTracker } from '../../../src-main/electron/queue-progress.js';
import type { UploadItem } from '../../../src-shared/model/upload-state.js';
import type { QueueStatus } from '../../../src-shared/ipc/ipc-contract.js';

const item = (id: number, state: UploadItem['state'], size = 1_000): UploadItem =>
  ({ id, fileName: `${id}.mp4`, size, chunkSize: 1_000, ackedChunks: [] as number[], state }) as UploadItem;
const uploading = (sentBytes: number) =>
  ({ kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes, totalBytes: 1_000 }) as const;
const running: Pick<QueueStatus, 'pause' | 'hold'> = { pause: null, hold: null };

describe('the taskbar’s progress of a batch', () => {
  it('counts the bytes of the whole batch, done ones included, and is full once, then removed', () => {
    const tracker = new QueueProgressTracker();
    const store = new Map<number, UploadItem>();
    const look = (active: UploadItem[], status = running) => tracker.update(status, active, (id) => store.get(id), 0);
    expect(look([item(1, uploading(500)), item(2, { kind: 'queued' })])).toMatchObject({
      bar: { fraction: 0.25, mode: 'normal' },
      filesLeft: 2,
      bytesLeft: 1_500,
    });
    store.set(1, item(1, { kind: 'done', fileId: 'f', finishedAt: 1 }));
    expect(look([item(2, uploading(500))]).bar).toEqual({ fraction: 0.75, mode: 'normal' });
    expect(look([item(2, { kind: 'queued' })], { pause: { until: null }, hold: null }).bar).toEqual({
      fraction: 0.5,
      mode: 'paused',
    });
    store.set(2, item(2, { kind: 'done', fileId: 'g', finishedAt: 2 }));
    expect(look([]).bar).toEqual({ fraction: 1, mode: 'normal' });
    expect(look([]).bar).toBeNull();
  });

  it('shows error while a failed upload is left, and a cancelled one leaves the batch', () => {
    const tracker = new QueueProgressTracker();
    const store = new Map<number, UploadItem>();
    const look = (active: UploadItem[]) => tracker.update(running, active, (id) => store.get(id), 0);
    look([item(1, { kind: 'queued' }), item(2, { kind: 'queued' })]);
    store.set(1, item(1, { kind: 'failed', reason: { message: 'x', code: null, requestId: null } }));
    store.set(2, item(2, { kind: 'cancelled' }));
    expect(look([]).bar).toEqual({ fraction: 0, mode: 'error' });
    // cleared from the queue: nothing left to show
    store.delete(1);
    expect(look([]).bar).toBeNull();
  });
});
