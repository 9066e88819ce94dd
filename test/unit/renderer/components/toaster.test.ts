import { describe, expect, it } from 'vitest';
import { addToast, type Toast } from '../../../../src-renderer/components/toaster.js';

const toast = (
  key: string,
  title: string,
  extra: Partial<Toast> & { lines?: string[]; tone?: 'done' | 'problem' } = {},
): Toast => {
  const { lines = ['clip.mp4'], tone = 'problem', ...rest } = extra;
  return { key, content: () => ({ title, lines, detail: null, tone }), link: null, requestId: null, ...rest };
};
const title = (item: Toast) => item.content().title;

describe('the toasts shown', () => {
  it('merges the same words again into the toast that said them, counted and moved to the newest', () => {
    let shown = addToast([], toast('n1', 'Upload failed', { requestId: 'req-1' }));
    shown = addToast(shown, toast('n2', 'Import failed'));
    shown = addToast(shown, toast('n3', 'Upload failed', { requestId: 'req-3' }));
    shown = addToast(shown, toast('n4', 'Upload failed', { requestId: 'req-4' }));
    expect(
      shown.map((item) => ({ key: item.key, title: title(item), count: item.count, requestId: item.requestId })),
    ).toEqual([
      { key: 'n2', title: 'Import failed', count: 1, requestId: null },
      // the newest key, so the live region reads it out again; the newest request id
      { key: 'n4', title: 'Upload failed', count: 3, requestId: 'req-4' },
    ]);
    // other lines, or a toast that fades, are other words
    shown = addToast(shown, toast('n5', 'Upload failed', { lines: ['other.mp4'] }));
    shown = addToast(shown, toast('n6', 'Upload failed', { tone: 'done' }));
    expect(shown.map((item) => [item.key, item.count])).toEqual([
      ['n4', 3],
      ['n5', 1],
      ['n6', 1],
    ]);
  });

  it('shows one row of at most three, the oldest making way, and takes a toast shown again by its key', () => {
    let shown: Toast[] = [];
    for (const key of ['a', 'b', 'c', 'd']) shown = addToast(shown, toast(key, `Title ${key}`));
    expect(shown.map((item) => item.key)).toEqual(['b', 'c', 'd']);
    shown = addToast(shown, toast('c', 'Title c, again'));
    expect(shown.map((item) => [item.key, title(item), item.count])).toEqual([
      ['b', 'Title b', 1],
      ['d', 'Title d', 1],
      ['c', 'Title c, again', 1],
    ]);
  });
});
