import { describe, expect, it } from 'vitest';
import { NotificationCenter } from '../../../src-main/core/notification-center.js';
import type { NotificationKind } from '../../../src-shared/model/settings.js';
import type { Notification } from '../../../src-shared/ipc/ipc-contract.js';
import { FakeClock } from '../../helpers/fake-clock.js';

function setup(disabled: NotificationKind[] = []) {
  const clock = new FakeClock({ wallStart: 1_000_000 });
  const center = new NotificationCenter({ clock, isEnabled: (kind) => !disabled.includes(kind) });
  const shown: Notification[] = [];
  center.onDidAdd((n) => shown.push(n));
  return { clock, center, shown };
}

describe('NotificationCenter', () => {
  it('merges uploads finished within 5 s into one notification', async () => {
    const { clock, center, shown } = setup();
    for (let i = 0; i < 12; i++) center.uploaded(`clip-${i}.mp4`, `http://files/${i}/file`);
    await clock.advance(4_999);
    expect(shown).toEqual([]);
    await clock.advance(1);
    expect(shown).toEqual([
      {
        id: 1,
        kind: 'uploadsDone',
        title: '12 files uploaded',
        body: 'clip-0.mp4, clip-1.mp4, clip-2.mp4 and 9 more',
        at: 1_005_000,
        link: null,
        requestId: null,
      },
    ]);
  });

  it('names a single upload and links its page', async () => {
    const { clock, center, shown } = setup();
    center.uploaded('holiday.mp4', 'http://files/abc/file');
    await clock.advance(5_000);
    expect(shown.map((n) => [n.title, n.body, n.link])).toEqual([['Uploaded', 'holiday.mp4', 'http://files/abc/file']]);
  });

  it('says a video is ready to watch, links its watch page, and merges several within 5 s', async () => {
    const { clock, center, shown } = setup();
    center.readyToWatch('holiday.mp4', 'http://files/abc/watch');
    await clock.advance(5_000);
    center.readyToWatch('a.mp4', 'http://files/a/watch');
    center.readyToWatch('b.mp4', 'http://files/b/watch');
    await clock.advance(5_000);
    expect(shown.map((n) => [n.kind, n.title, n.link])).toEqual([
      ['readyToWatch', 'Ready to watch: holiday.mp4', 'http://files/abc/watch'],
      ['readyToWatch', '2 videos are ready to watch', null],
    ]);
    expect(shown[1]!.body).toBe('a.mp4, b.mp4');
  });

  it('tells a failed conversion at once with its reason, under the same switch', () => {
    const { center, shown } = setup();
    center.conversionFailed('clip.mp4', 'the file has no video stream');
    expect(shown.map((n) => [n.kind, n.title, n.body])).toEqual([
      ['readyToWatch', 'Conversion failed: clip.mp4', 'the file has no video stream'],
    ]);
    const off = setup(['readyToWatch']);
    off.center.conversionFailed('clip.mp4', 'x');
    off.center.readyToWatch('clip.mp4', null);
    off.center.flush();
    expect(off.shown).toEqual([]);
  });

  it('shows each failure at once with its reason and request id', () => {
    const { center, shown } = setup();
    center.uploadFailed('a.mp4', 'The file is too large.', 'req-1');
    center.uploadFailed('b.mp4', 'Cannot read b.mp4.', null);
    expect(shown.map((n) => [n.kind, n.title, n.body, n.requestId])).toEqual([
      ['uploadFailed', 'Upload failed: a.mp4', 'The file is too large.', 'req-1'],
      ['uploadFailed', 'Upload failed: b.mp4', 'Cannot read b.mp4.', null],
    ]);
    expect(center.list().map((n) => n.body)).toEqual(['Cannot read b.mp4.', 'The file is too large.']);
  });

  it('keeps a kind that is switched off out of toasts and the feed', async () => {
    const { clock, center, shown } = setup(['uploadsDone']);
    center.uploaded('a.mp4', null);
    center.importCompleted('Clip', 'http://files/x/file');
    await clock.advance(5_000);
    expect(shown.map((n) => n.kind)).toEqual(['importCompleted']);
    expect(center.list().length).toBe(1);
  });

  it('flushes what is waiting, once', async () => {
    const { clock, center, shown } = setup();
    center.uploaded('a.mp4', null);
    center.flush();
    await clock.advance(10_000);
    expect(shown.length).toBe(1);
  });
});
