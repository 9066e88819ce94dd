import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../../src-renderer/i18n/i18n.js';
import { errorText } from '../../../../src-renderer/i18n/translate.js';
import { notificationText } from '../../../../src-renderer/text/notification-text.js';
import { describeUpdateStatus, updateFormatters } from '../../../../src-renderer/text/update-status-text.js';
import type { Notification } from '../../../../src-shared/ipc/ipc-contract.js';

const merged: Notification = {
  id: 1,
  kind: 'uploadsDone',
  // as an English-speaking daemon wrote it
  title: '5 files uploaded',
  body: 'a.mp4, b.mp4, c.mp4 and 2 more',
  text: {
    title: { key: 'core.notifications.uploadedMany', values: { count: 5 } },
    body: { key: 'core.notifications.namesAndMore', values: { names: 'a.mp4, b.mp4, c.mp4', count: 2 } },
  },
  at: 1,
  link: null,
  requestId: null,
};

describe('core sentences in the page’s language', () => {
  afterEach(() => void i18n.changeLanguage('en'));

  it('shows a notification in the page’s language, whatever the daemon speaks; a server’s reason as sent', async () => {
    expect(notificationText(merged)).toEqual({ title: '5 files uploaded', body: 'a.mp4, b.mp4, c.mp4 and 2 more' });
    await i18n.changeLanguage('de');
    expect(notificationText(merged)).toEqual({
      title: '5 Dateien hochgeladen',
      body: 'a.mp4, b.mp4, c.mp4 und 2 weitere',
    });
    const failed: Notification = {
      ...merged,
      kind: 'uploadFailed',
      body: 'The file is too large.',
      text: { title: { key: 'core.notifications.uploadFailed', values: { name: 'a.mp4' } }, body: null },
    };
    expect(notificationText(failed)).toEqual({ title: 'Upload fehlgeschlagen: a.mp4', body: 'The file is too large.' });
  });

  it('shows the core’s own error sentence translated, a server’s as sent', async () => {
    await i18n.changeLanguage('de');
    const refused = { key: 'core.errors.tokenRefused', values: { status: 401 } } as const;
    expect(errorText({ message: 'The server refused the token (HTTP 401).', text: refused })).toBe(
      'Der Server hat den Token abgelehnt (HTTP 401).',
    );
    expect(errorText({ message: 'This token has been disabled.' })).toBe('This token has been disabled.');
  });

  it('says why this app does not update itself in the page’s language', async () => {
    await i18n.changeLanguage('de');
    const status = {
      state: 'unavailable',
      reason: 'Media Sync run with `media-sync serve` is updated with its package, not by itself.',
      text: { key: 'core.updates.headless' },
    } as const;
    const format = updateFormatters('de');
    expect(describeUpdateStatus(status, format).lines).toEqual([
      'Ein mit `media-sync serve` gestartetes Media Sync wird mit seinem Paket aktualisiert, nicht von selbst.',
    ]);
  });
});
