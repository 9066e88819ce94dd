import { afterEach, describe, expect, it } from 'vitest';
import type { FolderState } from '../../../../src-shared/model/folder-status.js';
import { i18n } from '../../../../src-renderer/i18n/i18n.js';
import { folderStateText } from '../../../../src-renderer/text/folder-status-text.js';

const NOW = new Date(2026, 10, 26, 15, 30).getTime();
const AT_0905 = new Date(2026, 10, 26, 9, 5).getTime();
const clock = (ms: number) => new Date(ms).toTimeString().slice(0, 5);
const words = (state: FolderState, locale = 'en-US') => folderStateText(state, { now: NOW, clock, locale });

describe('a watched folder’s state in words', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('says what the folder is doing, with its counts, sizes and time left', () => {
    expect(
      [
        { kind: 'watching', since: AT_0905 },
        { kind: 'scanning', found: 1 },
        { kind: 'scanning', found: 120 },
        { kind: 'settling', files: 2 },
        { kind: 'uploading', files: 3, bytesDone: 1_500_000, bytesTotal: 12_000_000, secondsLeft: 250 },
        { kind: 'uploading', files: 1, bytesDone: 0, bytesTotal: 5_000, secondsLeft: null },
      ].map((state) => words(state as FolderState)),
    ).toEqual([
      { title: 'Up to date since 09:05', detail: null, icon: 'ok', action: null },
      { title: 'Scanning: 1 file found', detail: null, icon: 'busy', action: null },
      { title: 'Scanning: 120 files found', detail: null, icon: 'busy', action: null },
      {
        title: 'Waiting for 2 files to settle',
        detail: 'Files still being written are uploaded once they stop changing.',
        icon: 'busy',
        action: null,
      },
      { title: 'Uploading 3 files', detail: '1.50 MB of 12.0 MB, 4 min 10 s left', icon: 'busy', action: null },
      { title: 'Uploading 1 file', detail: '0 B of 5.00 KB', icon: 'busy', action: null },
    ]);
  });

  it('says a file of it is paused, with what of it was sent', () => {
    const state: FolderState = { kind: 'filesPaused', files: 1, bytesDone: 90_000_000, bytesTotal: 200_000_000 };
    expect(words(state)).toEqual({
      title: '1 file paused',
      detail: '90.0 MB of 200.0 MB sent. Resume it in the Queue to go on.',
      icon: 'paused',
      action: null,
    });
    expect(words({ ...state, files: 2 }).title).toBe('2 files paused');
  });

  it('names who paused it: the person, the queue’s pause, the schedule (until when), the battery, a metered link', () => {
    const paused = (by: string, until: number | null = null) => words({ kind: 'paused', by, until } as FolderState);
    expect(paused('folder')).toEqual({
      title: 'Paused by you',
      detail: 'New files of this folder wait until you resume it. The other folders go on.',
      icon: 'paused',
      action: null,
    });
    expect(paused('queue').title).toBe('Paused: all uploads are paused');
    expect(paused('schedule').title).toBe('Paused by the schedule');
    expect(paused('schedule', new Date(2026, 10, 26, 18, 0).getTime()).title).toBe('Paused until 18:00 (schedule)');
    // another day: with its weekday (27 Nov 2026 is a Friday)
    expect(paused('schedule', new Date(2026, 10, 27, 9, 0).getTime()).title).toBe(
      'Paused until Fri 09:00 AM (schedule)',
    );
    expect(paused('battery').title).toBe('Paused while on battery');
    expect(paused('metered').title).toBe('Paused on a metered connection');
  });

  it('says a problem and what to do about it; a refused token asks for a sign-in', () => {
    const problem = (kind: string) => words({ kind: 'problem', problem: kind, since: AT_0905 } as FolderState);
    expect(problem('missing')).toEqual({
      title: 'The folder is gone',
      detail:
        'It was moved or deleted, or its drive is not mounted. Put it back or connect the drive: Media Sync picks it up again by itself, without uploading anything twice.',
      icon: 'problem',
      action: null,
    });
    expect(problem('unreadable').detail).toBe('Media Sync is not allowed to read it. Check the folder’s permissions.');
    // the folder's disk (its after-upload moves) and Media Sync's own are two things, said apart
    expect(problem('diskFull').title).toBe('This folder’s disk is full');
    expect(problem('dataDiskFull')).toEqual({
      title: 'Media Sync’s disk is full',
      detail:
        'New files of this folder wait, and are uploaded by themselves once there is room. Free some space on the disk of Media Sync’s data folder.',
      icon: 'problem',
      action: null,
    });
    expect(problem('notConnected')).toMatchObject({
      title: 'Not connected: is its drive plugged in?',
      icon: 'problem',
    });
    expect(problem('signedOut')).toMatchObject({ title: 'The account’s token was refused', action: 'signIn' });
    expect(problem('accountGone')).toMatchObject({ title: 'Its account is signed out', action: 'signInOrMove' });
  });

  it('speaks German, numbers and sizes written the German way', async () => {
    await i18n.changeLanguage('de');
    expect(
      words({ kind: 'uploading', files: 2, bytesDone: 1_500_000, bytesTotal: 12_000_000, secondsLeft: 30 }, 'de-DE'),
    ).toMatchObject({ title: '2 Dateien werden hochgeladen', detail: '1,50 MB von 12,0 MB, noch 30 s' });
    expect(words({ kind: 'watching', since: AT_0905 }, 'de-DE').title).toBe('Aktuell seit 09:05');
    expect(words({ kind: 'problem', problem: 'missing', since: AT_0905 }, 'de-DE').title).toBe(
      'Der Ordner ist nicht mehr da',
    );
  });
});
