import { describe, expect, it } from 'vitest';
import { NotificationCenter } from '../../../src-main/core/notification-center.js';
import type { FolderNotify } from '../../../src-shared/model/folder-options.js';
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

  it('says a video is ready to watch, links its watch page, and merges several within 5 s, once a minute at most', async () => {
    const { clock, center, shown } = setup();
    center.readyToWatch('holiday.mp4', 'http://files/abc/watch');
    await clock.advance(5_000);
    center.readyToWatch('a.mp4', 'http://files/a/watch');
    center.readyToWatch('b.mp4', 'http://files/b/watch');
    await clock.advance(59_999);
    expect(shown.length).toBe(1);
    await clock.advance(1);
    expect(shown.map((n) => [n.kind, n.title, n.link])).toEqual([
      ['readyToWatch', 'Ready to watch: holiday.mp4', 'http://files/abc/watch'],
      ['readyToWatch', '2 videos are ready to watch', null],
    ]);
    expect(shown[1]!.body).toBe('a.mp4, b.mp4');
  });

  it('tells a failed conversion with its reason, under the same switch', async () => {
    const { clock, center, shown } = setup();
    center.conversionFailed('clip.mp4', 'the file has no video stream');
    await clock.advance(5_000);
    expect(shown.map((n) => [n.kind, n.title, n.body])).toEqual([
      ['readyToWatch', 'Conversion failed: clip.mp4', 'the file has no video stream'],
    ]);
    const off = setup(['readyToWatch']);
    off.center.conversionFailed('clip.mp4', 'x');
    off.center.readyToWatch('clip.mp4', null);
    off.center.flush();
    expect(off.shown).toEqual([]);
  });

  it('shows a failure within 5 s with its reason and request id, and the next one a minute after', async () => {
    const { clock, center, shown } = setup();
    center.uploadFailed('a.mp4', 'The file is too large.', 'req-1');
    await clock.advance(5_000);
    center.uploadFailed('b.mp4', 'Cannot read b.mp4.', null);
    await clock.advance(59_999);
    expect(shown.length).toBe(1);
    await clock.advance(1);
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
    const german = new CoreLanguage(() => ['de-DE']);
    await german.ready;
    const { clock, center, shown } = setup([], german);
    for (let i = 0; i < 5; i++) center.uploaded(`clip-${i}.mp4`, null);
    center.readyToWatch('holiday.mp4', 'http://files/abc/watch');
    center.uploadFailed('a.mp4', 'The file is too large.', 'req-1');
    center.importFailed('Clip', null);
    await clock.advance(5_000);
    expect(shown.map((n) => [n.title, n.body])).toEqual([
      ['5 Dateien hochgeladen', 'clip-0.mp4, clip-1.mp4, clip-2.mp4 und 2 weitere'],
      ['Bereit zum Ansehen: holiday.mp4', 'Das Video ist fertig konvertiert. Öffnen Sie es, um es anzusehen.'],
      ['Upload fehlgeschlagen: a.mp4', 'The file is too large.'],
      ['Import fehlgeschlagen: Clip', 'Der Import ist fehlgeschlagen.'],
    ]);
    // the app's own reason is said in German too; a server's stays as it was sent
    center.uploadFailed('b.mp4', 'Could not reach the server (ECONNREFUSED).', null, {
      key: 'core.errors.unreachable',
      values: { detail: 'ECONNREFUSED' },
    });
    await clock.advance(60_000);
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
    await language.ready;
    center.importFailed('Clip', 'Not found.');
    await clock.advance(5_000);
    expect(shown.map((n) => n.title)).toEqual(['2 files uploaded', 'Import fehlgeschlagen: Clip']);
    expect(center.list().map((n) => [n.title, n.body])).toEqual([
      ['Import fehlgeschlagen: Clip', 'Not found.'],
      ['2 Dateien hochgeladen', 'a.mp4, b.mp4'],
    ]);
    language.apply('system');
    expect(center.list().map((n) => n.title)).toEqual(['Import failed: Clip', '2 files uploaded']);
  });
});

describe('NotificationCenter: notifications people keep on', () => {
  function open() {
    const clock = new FakeClock({ wallStart: 1_000_000 });
    const snooze = { on: false };
    const center = new NotificationCenter({ clock, isEnabled: () => true, isSnoozed: () => snooze.on });
    const added: Notification[] = [];
    center.onDidAdd((n) => added.push(n));
    /** what a person sees as toasts and OS notifications */
    const shown = () => added.filter((n) => !n.quiet);
    return { clock, center, added, shown, snooze };
  }
  const camera = (notify: FolderNotify) => ({ id: 7, name: 'Camera', notify });
  const counted = (n: Notification) => (n.text.title.values?.count as number | undefined) ?? 1;

  it('says a storm of 200 failures in one notification a minute with its count, never one per file, losing none', async () => {
    const { clock, center, shown } = open();
    // 200 files fail over 90 s: one every 450 ms
    for (let i = 0; i < 200; i++) {
      center.uploadFailed(`clip-${i}.mp4`, 'The file is too large.', null, undefined, camera('batch'));
      await clock.advance(450);
    }
    await clock.advance(60_000);
    const failures = shown();
    // the first within 5 s, then one a minute: 90 s of failures are at most three notifications
    expect(failures.map((n) => n.title)).toEqual([
      '12 files could not be uploaded',
      '133 files could not be uploaded',
      '55 files could not be uploaded',
    ]);
    expect(failures.map((n) => n.at - 1_000_000)).toEqual([5_000, 65_000, 125_000]);
    expect(failures.reduce((sum, n) => sum + counted(n), 0)).toBe(200);
    expect(failures[0]!.body).toBe('clip-0.mp4, clip-1.mp4, clip-2.mp4 and 9 more');
  });

  it('sums up what a folder uploads within a minute: count, folder, size, and links to copy for 3', async () => {
    const { clock, center, shown } = open();
    for (let i = 0; i < 12; i++) {
      const file = { accountId: 'acc', fileId: `f${i}` };
      center.uploaded(`IMG_${i}.JPG`, `http://files/${i}/file`, { ...camera('batch'), bytes: 100_000_000, file });
      await clock.advance(4_000);
    }
    expect(shown()).toEqual([]);
    await clock.advance(60_000 - 48_000);
    expect(shown().map((n) => [n.title, n.body, n.files])).toEqual([
      [
        '12 files uploaded from Camera · 1.20 GB',
        'IMG_0.JPG, IMG_1.JPG, IMG_2.JPG and 9 more',
        [
          { accountId: 'acc', fileId: 'f0', name: 'IMG_0.JPG' },
          { accountId: 'acc', fileId: 'f1', name: 'IMG_1.JPG' },
          { accountId: 'acc', fileId: 'f2', name: 'IMG_2.JPG' },
        ],
      ],
    ]);
    // a file uploaded by hand meanwhile keeps today's 5 s merge
    center.uploaded('by-hand.mp4', 'http://files/h/file');
    await clock.advance(5_000);
    expect(shown().at(-1)!.title).toBe('Uploaded');
  });

  it("follows the folder's Notify me: every file at once; only problems; never (Activity only)", async () => {
    const every = open();
    for (const name of ['a.mp4', 'b.mp4'])
      every.center.uploaded(name, null, { ...camera('everyFile'), bytes: 1, file: null });
    expect(every.shown().map((n) => [n.title, n.body])).toEqual([
      ['Uploaded', 'a.mp4'],
      ['Uploaded', 'b.mp4'],
    ]);

    const problems = open();
    problems.center.uploaded('a.mp4', null, { ...camera('problems'), bytes: 1, file: null });
    problems.center.uploadFailed('b.mp4', 'Refused.', 'req-1', undefined, camera('problems'));
    await problems.clock.advance(60_000);
    expect(problems.shown().map((n) => n.title)).toEqual(['Upload failed: b.mp4']);
    expect(problems.center.list().map((n) => [n.title, n.quiet ?? false])).toEqual([
      ['Uploaded', true],
      ['Upload failed: b.mp4', false],
    ]);

    const never = open();
    never.center.uploaded('a.mp4', null, { ...camera('never'), bytes: 1, file: null });
    never.center.uploadFailed('b.mp4', 'Refused.', null, undefined, camera('never'));
    await never.clock.advance(60_000);
    expect(never.shown()).toEqual([]);
    expect(
      never.center
        .list()
        .map((n) => n.title)
        .sort(),
    ).toEqual(['Upload failed: b.mp4', 'Uploaded']);
  });

  it('snoozed: the rest goes to the Activity panel only; a refused token and a full disk still show, once each', async () => {
    const { clock, center, shown, snooze } = open();
    snooze.on = true;
    center.uploaded('a.mp4', null, { ...camera('batch'), bytes: 1, file: null });
    center.uploadFailed('b.mp4', 'Refused.', null);
    center.accountProblem('demo', 'The token was refused.', 'req-1');
    center.accountProblem('demo', 'The token was refused.', 'req-2');
    center.accountProblem('other', 'The token was refused.', 'req-3');
    center.dataDiskFull('/data');
    center.dataDiskFull('/data');
    center.folderProblem(3, 'Camera', 'notConnected');
    center.folderProblem(3, 'Camera', 'notConnected');
    await clock.advance(60_000);
    expect(shown().map((n) => n.title)).toEqual([
      'Uploads to demo are paused',
      'Uploads to other are paused',
      'Media Sync’s disk is full',
      'Camera is not connected',
    ]);
    expect(center.list()).toHaveLength(9);
    // snooze over: each is said again
    snooze.on = false;
    center.dataDiskFull('/data');
    expect(
      shown()
        .map((n) => n.title)
        .at(-1),
    ).toBe('Media Sync’s disk is full');
    expect(shown()).toHaveLength(5);
  });
});
