import { describe, expect, it } from 'vitest';
import type { AppIntent } from '../../../../src-shared/ipc/ipc-contract.js';
import { i18n } from '../../../../src-renderer/i18n/i18n.js';
import { intentToast } from '../../../../src-renderer/text/intent-toasts.js';

const account = { id: 'acc-1', username: 'demo', baseUrl: 'http://127.0.0.1:8787/api/v1' };
const none = { count: 0, names: [] };
const noneSkipped = { count: 0, files: [] };

describe('toasts for links and opened files', () => {
  it('names the queued files in whole sentences, singular and plural, and the account they go to', () => {
    const three: AppIntent = {
      kind: 'filesQueued',
      id: 1,
      account,
      queued: { count: 3, names: ['a.mp4', 'b.mp4', 'c.mp4'] },
      uploadedBefore: none,
      skipped: noneSkipped,
    };
    expect(intentToast(three)).toEqual({
      title: 'Added to the queue',
      lines: [
        '3 files were added to the queue: a.mp4, b.mp4 and c.mp4.',
        'They will be uploaded to demo on 127.0.0.1:8787.',
      ],
      detail: null,
      tone: 'done',
    });
    expect(intentToast({ ...three, queued: { count: 1, names: ['a.mp4'] } })?.lines).toEqual([
      'a.mp4 was added to the queue.',
      'It will be uploaded to demo on 127.0.0.1:8787.',
    ]);
    const many = { count: 1234, names: ['1.mp4', '2.mp4', '3.mp4', '4.mp4', '5.mp4'] };
    expect(intentToast({ ...three, queued: many })?.lines[0]).toBe(
      '1,234 files were added to the queue: 1.mp4, 2.mp4, 3.mp4, 4.mp4, 5.mp4 and 1,229 more.',
    );
  });

  it('speaks German, numbers and lists written the German way', async () => {
    await i18n.changeLanguage('de');
    try {
      const toast = intentToast({
        kind: 'filesQueued',
        id: 1,
        account,
        queued: { count: 1234, names: ['1.mp4', '2.mp4'] },
        uploadedBefore: none,
        skipped: { count: 3, files: [{ name: 'Ordner', reason: 'folder' }] },
      });
      expect(toast?.title).toBe('Zur Warteschlange hinzugefügt');
      expect(toast?.lines).toEqual([
        '1.234 Dateien wurden zur Warteschlange hinzugefügt: 1.mp4, 2.mp4 und 1.232 weitere.',
        'Die Dateien werden zu demo auf 127.0.0.1:8787 hochgeladen.',
        'Ordner wurde nicht hinzugefügt: Es ist ein Ordner. Um den Inhalt eines Ordners hochzuladen, überwachen Sie ihn in den Einstellungen.',
        '2 weitere Dateien wurden nicht hinzugefügt.',
      ]);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('says which files were skipped and why, and keeps that toast until dismissed', () => {
    const toast = intentToast({
      kind: 'filesQueued',
      id: 2,
      account,
      queued: { count: 1, names: ['a.mp4'] },
      uploadedBefore: { count: 2, names: ['old.mp4', 'older.mp4'] },
      skipped: {
        count: 6,
        files: [
          { name: 'gone.mp4', reason: 'missing' },
          { name: 'Holiday', reason: 'folder' },
          { name: 'pipe', reason: 'notAFile' },
          { name: 'locked.mp4', reason: 'unreadable' },
        ],
      },
    });
    expect(toast?.tone).toBe('problem');
    expect(toast?.lines.slice(2)).toEqual([
      '2 files were uploaded before, so they were not added again: old.mp4 and older.mp4.',
      'gone.mp4 was not added: it does not exist.',
      'Holiday was not added: it is a folder. To upload what is in a folder, watch it in Settings.',
      'pipe was not added: it is not a regular file.',
      'locked.mp4 was not added: Media Sync may not read it.',
      '2 more files were not added.',
    ]);
  });

  it('tells to sign in first when no account could take the files', () => {
    const intent: AppIntent = {
      kind: 'filesNotQueued',
      id: 3,
      reason: 'signInFirst',
      account: null,
      opened: { count: 2, names: ['a.mp4', 'b.mp4'] },
      uploadedBefore: none,
      skipped: noneSkipped,
    };
    expect(intentToast(intent)).toEqual({
      title: 'Not added to the queue',
      lines: [
        'No account is signed in, so 2 files were not added to the queue: a.mp4 and b.mp4.',
        'Sign in first, then open the files again.',
      ],
      detail: null,
      tone: 'problem',
    });
    expect(intentToast({ ...intent, opened: { count: 1, names: ['a.mp4'] } })?.lines).toEqual([
      'No account is signed in, so a.mp4 was not added to the queue.',
      'Sign in first, then open the file again.',
    ]);
  });

  it('says why nothing was queued when every file was skipped or sent before', () => {
    expect(
      intentToast({
        kind: 'filesNotQueued',
        id: 4,
        reason: 'nothingQueued',
        account,
        opened: { count: 2, names: ['a.mp4', 'gone.mp4'] },
        uploadedBefore: { count: 1, names: ['a.mp4'] },
        skipped: { count: 1, files: [{ name: 'gone.mp4', reason: 'missing' }] },
      })?.lines,
    ).toEqual(['a.mp4 was uploaded before, so it was not added again.', 'gone.mp4 was not added: it does not exist.']);
  });

  it('shows a refused link with its reason and the link as written', () => {
    expect(
      intentToast({ kind: 'invalidLink', id: 5, link: 'media-sync://nope', message: 'Media Sync does not know.' }),
    ).toEqual({
      title: 'This link was not opened',
      lines: ['Media Sync does not know.'],
      detail: 'media-sync://nope',
      tone: 'problem',
    });
  });
});
