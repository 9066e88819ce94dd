import { describe, expect, it } from 'vitest';
import { i18n } from '../../../../src-renderer/i18n/i18n.js';
import { DEFAULT_SETTINGS } from '../../../../src-shared/model/settings.js';
import {
  folderOptionsSummary,
  globsFromText,
  notificationLabel,
  settingsChange,
  settingsForm,
  subfolderError,
  tokenStorageEncrypted,
  updateUrlChange,
  updateUrlText,
} from '../../../../src-renderer/text/settings-form.js';
import { DEFAULT_UPDATE_URL } from '../../../../src-shared/model/update-status.js';
import { FolderOptionsSchema } from '../../../../src-shared/model/folder-options.js';

describe('settings form', () => {
  it('turns the settings into fields and back without a change', () => {
    const form = settingsForm({ ...DEFAULT_SETTINGS, bandwidthBytesPerSecond: 2_500_000 });
    expect(form).toMatchObject({ bandwidthLimited: true, bandwidthMb: '2.5', chunkMb: '90', proxyUrl: '' });
    expect(settingsChange(form)).toEqual({
      change: {
        concurrency: 3,
        bandwidthBytesPerSecond: 2_500_000,
        chunkSizeBytes: 90_000_000,
        notifications: DEFAULT_SETTINGS.notifications,
        launchAtLogin: false,
        proxyUrl: null,
        removeFinishedAfterDays: 7,
        pollIntervalSeconds: 60,
      },
      errors: {},
    });
    expect(
      settingsChange({ ...form, bandwidthLimited: false, bandwidthMb: 'junk' }).change?.bandwidthBytesPerSecond,
    ).toBe(null);
  });

  it('says what is wrong with each field, with the rules of the settings schema', () => {
    const form = settingsForm(DEFAULT_SETTINGS);
    const { change, errors } = settingsChange({
      ...form,
      bandwidthLimited: true,
      bandwidthMb: '0',
      chunkMb: '91',
      proxyUrl: 'socks5://proxy:1080',
    });
    expect(change).toBeNull();
    expect(errors).toEqual({
      bandwidthMb: 'Enter a speed above 0 MB/s, or choose no limit.',
      chunkMb: 'Enter a chunk size from 1 to 90 MB.',
      proxyUrl: 'Enter a proxy address starting with http:// or https://, e.g. http://proxy.example:3128.',
    });
    expect(settingsChange({ ...form, proxyUrl: ' https://proxy.example:3128 ' }).change?.proxyUrl).toBe(
      'https://proxy.example:3128',
    );
  });

  it('sums up a folder in one line, reads ignore patterns one per line, and checks a subfolder name', () => {
    expect(folderOptionsSummary(FolderOptionsSchema.parse({}))).toBe(
      'Private · with subfolders · existing files too · files kept',
    );
    expect(
      folderOptionsSummary(
        FolderOptionsSchema.parse({
          visibility: 'public',
          allowOnlineWatch: false,
          includeSubfolders: false,
          uploadExisting: false,
          afterUpload: { kind: 'move', subfolder: 'Sent' },
          ignoreGlobs: ['*.tmp'],
        }),
      ),
    ).toBe('Public · online watch off · this folder only · new files only · files moved to “Sent” · ignores 1 pattern');
    expect(globsFromText(' *.tmp \n\nDrafts/**\n')).toEqual(['*.tmp', 'Drafts/**']);
    expect(subfolderError('Sent')).toBeNull();
    expect(subfolderError('')).toBe('Enter the name of the subfolder.');
    expect(subfolderError('a/b')).toBe('Enter a folder name, not a path (no / or \\).');
    expect(subfolderError('..')).not.toBeNull();
  });

  it('says a folder’s own settle window and polling in its summary', () => {
    const options = FolderOptionsSchema.parse({ settleSeconds: 120, checkByPolling: true });
    expect(folderOptionsSummary(options)).toBe(
      'Private · with subfolders · existing files too · files kept · a file is taken after 2 minutes unchanged · checked by polling',
    );
    expect(folderOptionsSummary({ ...options, settleSeconds: 45, checkByPolling: false })).toContain(
      'a file is taken after 45 seconds unchanged',
    );
  });

  it('says a folder’s file rules and a Notify me other than the summary per batch', () => {
    const options = FolderOptionsSchema.parse({ minSize: 1_000_000, notify: 'problems' });
    expect(folderOptionsSummary(options)).toBe(
      'Private · with subfolders · existing files too · files kept · only some files (by type, size or date) · notifies only about problems',
    );
    expect(folderOptionsSummary(FolderOptionsSchema.parse({ notify: 'never' }))).toMatch(/ · never notifies$/);
  });

  it('calls a token encrypted only when its storage says so', () => {
    expect(tokenStorageEncrypted('encrypted with the macOS Keychain')).toBe(true);
    expect(tokenStorageEncrypted('a file only your user can read (0600)')).toBe(false);
    expect(tokenStorageEncrypted('not encrypted: this desktop has no keyring (basic_text)')).toBe(false);
  });

  it('shows the default update address as an empty field, and an empty field goes back to the default', () => {
    expect(updateUrlText(DEFAULT_SETTINGS)).toBe('');
    expect(updateUrlText({ updateUrl: 'https://updates.example.com/media-sync/' })).toBe(
      'https://updates.example.com/media-sync/',
    );
    expect(updateUrlChange('  ')).toEqual({ change: { updateUrl: DEFAULT_UPDATE_URL }, error: null });
    expect(updateUrlChange(' http://10.0.0.5:8080/updates/ ')).toEqual({
      change: { updateUrl: 'http://10.0.0.5:8080/updates/' },
      error: null,
    });
  });

  it('refuses an update address the settings schema refuses, and says what to type', () => {
    for (const text of ['ftp://updates.example.com/', 'updates.example.com', 'file:///srv/updates']) {
      expect(updateUrlChange(text)).toEqual({
        change: null,
        error:
          'Enter an update address starting with http:// or https://, e.g. https://updates.example.com/media-sync/.',
      });
    }
  });

  it('says its labels, summaries and errors in the UI’s language', async () => {
    expect(notificationLabel('importCompleted')).toBe('An import completed');
    await i18n.changeLanguage('de');
    try {
      expect(notificationLabel('importCompleted')).toBe('Ein Import ist abgeschlossen');
      // decimals as German writes them, read back either way
      const form = settingsForm({ ...DEFAULT_SETTINGS, bandwidthBytesPerSecond: 2_500_000 });
      expect(form.bandwidthMb).toBe('2,5');
      expect(settingsChange(form).change?.bandwidthBytesPerSecond).toBe(2_500_000);
      expect(
        folderOptionsSummary(
          FolderOptionsSchema.parse({
            afterUpload: { kind: 'move', subfolder: 'Fertig' },
            ignoreGlobs: ['*.tmp', '*.part'],
          }),
        ),
      ).toBe(
        'Privat · mit Unterordnern · auch vorhandene Dateien · Dateien werden nach „Fertig“ verschoben · ignoriert 2 Muster',
      );
      expect(settingsChange({ ...settingsForm(DEFAULT_SETTINGS), chunkMb: '0' }).errors).toEqual({
        chunkMb: 'Geben Sie eine Blockgröße von 1 bis 90 MB ein.',
      });
      expect(updateUrlChange('ftp://x').error).toMatch(/^Geben Sie eine Update-Adresse ein/);
      expect(subfolderError('a/b')).toBe('Geben Sie einen Ordnernamen ein, keinen Pfad (kein / oder \\).');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
