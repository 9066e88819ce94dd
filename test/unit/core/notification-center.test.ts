import { describe, expect, it } from 'vitest';
import { NotificationCenter } from '../../../src-main/core/notification-center.js';
import type { NotificationKind } from '../../../src-shared/model/settings.js';
import type { Notification } from '../../../src-shared/ipc/ipc-contract.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { CoreLanguage } from '../../../src-main/common/i18n.js';
import { NotificationSchema } from '../../../src-shared/ipc/ipc-contract.js';

function setup(disabled: NotificationKind[] = [], language?: CoreLanguage) {
  const clock = new FakeClock({ wallStart: 1_000_000 });
  const center = new NotificationCenter({
    clock,
    isEnabled: (kind) => !disabled.includes(kind),
    translate: language?.translate,
  });
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
        text: {
          title: { key: 'core.notifications.uploadedMany', values: { count: 12 } },
          body: {
            key: 'core.notifications.namesAndMore',
            values: { names: 'clip-0.mp4, clip-1.mp4, clip-2.mp4', count: 9 },
          },
        },
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

  it('says at once, on its own, that a file changed as it was uploaded and its earlier copy was deleted', () => {
    const { center, shown } = setup();
    center.replacedStale('take-2.mov', 'http://files/t2/file');
    expect(shown.map((n) => [n.kind, n.title, n.body, n.link])).toEqual([
      [
        'uploadsDone',
        'take-2.mov changed while it was uploading',
        'Its final version is on the service; the copy of the earlier version was deleted there.',
        'http://files/t2/file',
      ],
    ]);
    // under the "Uploaded" switch
    const off = setup(['uploadsDone']);
    off.center.replacedStale('take-2.mov', null);
    expect(off.shown).toEqual([]);
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

  it('speaks German when the core does, whole sentences with German plurals', async () => {
    const { clock, center, shown } = setup([], new CoreLanguage(() => ['de-DE']));
    for (let i = 0; i < 5; i++) center.uploaded(`clip-${i}.mp4`, null);
    center.readyToWatch('holiday.mp4', 'http://files/abc/watch');
    center.uploadFailed('a.mp4', 'The file is too large.', 'req-1');
    center.importFailed('Clip', null);
    await clock.advance(5_000);
    expect(shown.map((n) => [n.title, n.body])).toEqual([
      ['Upload fehlgeschlagen: a.mp4', 'The file is too large.'],
      ['Import fehlgeschlagen: Clip', 'Der Import ist fehlgeschlagen.'],
      ['5 Dateien hochgeladen', 'clip-0.mp4, clip-1.mp4, clip-2.mp4 und 2 weitere'],
      ['Bereit zum Ansehen: holiday.mp4', 'Das Video ist fertig konvertiert. Öffnen Sie es, um es anzusehen.'],
    ]);
    // the app's own reason is said in German too; a server's stays as it was sent
    center.uploadFailed('b.mp4', 'Could not reach the server (ECONNREFUSED).', null, {
      key: 'core.errors.unreachable',
      values: { detail: 'ECONNREFUSED' },
    });
    expect(shown.at(-1)!.body).toBe('Der Server ist nicht erreichbar (ECONNREFUSED).');
    // what crosses the contract parses, messages included
    for (const notification of shown) expect(NotificationSchema.parse(notification)).toEqual(notification);
  });

  it('switches language live: new notifications and the listed feed follow the setting', async () => {
    const language = new CoreLanguage(() => ['en-US']);
    const { clock, center, shown } = setup([], language);
    center.uploaded('a.mp4', null);
    center.uploaded('b.mp4', null);
    await clock.advance(5_000);
    expect(shown.map((n) => n.title)).toEqual(['2 files uploaded']);
    language.apply('de');
    center.importFailed('Clip', 'Not found.');
    expect(shown.map((n) => n.title)).toEqual(['2 files uploaded', 'Import fehlgeschlagen: Clip']);
    expect(center.list().map((n) => [n.title, n.body])).toEqual([
      ['Import fehlgeschlagen: Clip', 'Not found.'],
      ['2 Dateien hochgeladen', 'a.mp4, b.mp4'],
    ]);
    language.apply('system');
    expect(center.list().map((n) => n.title)).toEqual(['Import failed: Clip', '2 files uploaded']);
  });
});
