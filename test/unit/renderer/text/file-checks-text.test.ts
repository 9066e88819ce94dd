import { describe, expect, it } from 'vitest';
import { i18n } from '../../../../src-renderer/i18n/i18n.js';
import { pollIntervalText, pollingText, settleChoiceText } from '../../../../src-renderer/text/file-checks-text.js';
import { SETTLE_CHOICES } from '../../../../src-shared/model/folder-options.js';
import { POLL_INTERVAL_CHOICES } from '../../../../src-shared/model/settings.js';

describe('how a folder notices files, in words', () => {
  it('says a polled folder’s file system and interval on its card, and that it was chosen', () => {
    expect(pollingText({ everySeconds: 60, why: 'network', fileSystem: 'NFS' })).toEqual({
      title: 'Network folder (NFS): checked every minute',
      detail: 'Its file system does not announce changes: new files are found at each check.',
    });
    expect(pollingText({ everySeconds: 300, why: 'network', fileSystem: 'FUSE' }).title).toBe(
      'Network folder (FUSE): checked every 5 minutes',
    );
    expect(pollingText({ everySeconds: 15, why: 'chosen', fileSystem: null })).toEqual({
      title: 'Checked by polling every 15 seconds',
      detail: null,
    });
  });

  it('names each choice of the settle window, "for recordings" among them, and of the polling interval', () => {
    expect(SETTLE_CHOICES.map(settleChoiceText)).toEqual([
      '3 seconds (the default)',
      '10 seconds',
      '30 seconds',
      '2 minutes: for recordings',
      '10 minutes',
    ]);
    expect(POLL_INTERVAL_CHOICES.map(pollIntervalText)).toEqual([
      'Every 15 seconds',
      'Every 30 seconds',
      'Every minute',
      'Every 5 minutes',
      'Every 15 minutes',
    ]);
  });

  it('speaks German', async () => {
    await i18n.changeLanguage('de');
    try {
      expect(pollingText({ everySeconds: 60, why: 'network', fileSystem: 'SMB/CIFS' }).title).toBe(
        'Netzwerkordner (SMB/CIFS): wird jede Minute geprüft',
      );
      expect(settleChoiceText(120)).toBe('2 Minuten: für Aufnahmen');
      expect(pollIntervalText(300)).toBe('Alle 5 Minuten');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
