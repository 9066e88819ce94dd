import { describe, expect, it } from 'vitest';
import type { UploadState } from '../../../src-shared/model/upload-state.js';
import { QueueRows } from '../../../src-renderer/model/queue-rows.js';
import { item } from './queue-fixtures.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => item(from + i));

describe('QueueRows', () => {
  it('asks for each page once as rows come into view, and keeps items at their queue position', () => {
    const rows = new QueueRows(10);
    expect(rows.ready).toBe(false);
    rows.applyPage(0, range(1, 10), 25);
    expect(rows.ready).toBe(true);
    expect(rows.total).toBe(25);
    expect(rows.takeMissingPages(5, 22)).toEqual([1, 2]);
    expect(rows.takeMissingPages(5, 22)).toEqual([]);
    rows.applyPage(2, range(21, 25), 25);
    rows.pageFailed(1);
    expect(rows.takeMissingPages(0, 100)).toEqual([1]);
    expect(rows.at(20)?.id).toBe(21);
    expect(rows.at(12)).toBeUndefined();
    expect(rows.indexOf(25)).toBe(24);
  });

  it('updates a loaded item in place, appends new ones when the end is loaded, and says when it cannot place one', () => {
    const rows = new QueueRows(10);
    rows.applyPage(0, range(1, 3), 3);
    const before = rows.version;
    expect(rows.applyItem(item(2, { kind: 'paused', until: null }))).toBe('updated');
    expect(rows.at(1)?.state).toEqual({ kind: 'paused', until: null });
    expect(rows.applyItem(item(4))).toBe('appended');
    expect(rows.total).toBe(4);
    expect(rows.at(3)?.id).toBe(4);
    expect(rows.version).toBeGreaterThan(before);

    const partial = new QueueRows(10);
    partial.applyPage(0, range(1, 10), 30);
    expect(partial.applyItem(item(31))).toBe('unknown');
    expect(partial.applyItem(item(5, { kind: 'cancelled' }))).toBe('updated');
    expect(new QueueRows().applyItem(item(1))).toBe('unknown');
  });

  it('applies a progress batch to the loaded items only, and forgets rows past a shrunken end', () => {
    const rows = new QueueRows(10);
    rows.applyPage(0, range(1, 5), 5);
    const uploading: UploadState = {
      kind: 'uploading',
      attempt: 0,
      ackedBytes: 0,
      sentBytes: 500,
      totalBytes: 1_000_000,
    };
    expect(rows.applyProgress([{ id: 99, state: uploading }])).toBe(false);
    expect(rows.applyProgress([{ id: 3, state: uploading }])).toBe(true);
    expect(rows.at(2)?.state).toEqual(uploading);
    expect(rows.at(2)?.fileName).toBe('clip-3.mp4');

    rows.applyPage(0, range(1, 2), 2);
    expect(rows.total).toBe(2);
    expect(rows.at(3)).toBeUndefined();
    expect(rows.indexOf(4)).toBeUndefined();
    rows.reset();
    expect(rows.ready).toBe(false);
    expect(rows.total).toBe(0);
  });

  it('tells the progress watchers of a moved item its bytes, and no other row, at each batch', () => {
    const rows = new QueueRows(10);
    rows.applyPage(0, range(1, 3), 3);
    const moved: [number, number][] = [];
    const rendered: number[] = [];
    const stopOne = rows.watchProgress(1, (state) => moved.push([1, state.sentBytes]));
    rows.watchProgress(2, (state) => moved.push([2, state.sentBytes]));
    rows.watchItem(2, () => rendered.push(2));
    const uploading = (sentBytes: number, attempt = 0): UploadState => ({
      kind: 'uploading',
      attempt,
      ackedBytes: 0,
      sentBytes,
      totalBytes: 10,
    });
    // queued → uploading is a new state: the row renders
    expect(rows.applyProgress([{ id: 2, state: uploading(1) }])).toBe(true);
    expect(rendered).toEqual([2]);
    // then only bytes move: the bar is told, the row is not rendered
    expect(
      rows.applyProgress([
        { id: 2, state: uploading(5) },
        { id: 99, state: uploading(5) },
      ]),
    ).toBe(true);
    expect(moved).toEqual([[2, 5]]);
    expect(rendered).toEqual([2]);
    expect(rows.at(1)?.state).toEqual(uploading(5));
    // a new attempt starts over: the row renders again
    rows.applyProgress([{ id: 2, state: uploading(0, 1) }]);
    expect(rendered).toEqual([2, 2]);
    stopOne();
    rows.applyProgress([{ id: 1, state: uploading(1) }]);
    rows.applyProgress([{ id: 1, state: uploading(2) }]);
    expect(moved).toEqual([[2, 5]]);
    expect(rows.applyProgress([{ id: 99, state: uploading(3) }])).toBe(false);
  });

  it('tells the row of an item whose state an event changed', () => {
    const rows = new QueueRows(10);
    rows.applyPage(0, range(1, 3), 3);
    const rendered: number[] = [];
    rows.watchItem(3, () => rendered.push(3));
    const [, , third] = range(1, 3);
    expect(rows.applyItem({ ...third!, state: { kind: 'paused', until: null } })).toBe('updated');
    expect(rendered).toEqual([3]);
    expect(rows.at(2)?.state).toEqual({ kind: 'paused', until: null });
  });
});
