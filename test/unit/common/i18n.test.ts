import { describe, expect, it } from 'vitest';
import { CoreLanguage, processLocales } from '../../../src-main/common/i18n.js';
import { ApiError } from '../../../src-main/api-client/api-error.js';
import { ipcErrorOfThrown } from '../../../src-main/core/contract-boundary.js';
import { checkFolderPath } from '../../../src-main/sync/folder-path.js';
import { IpcErrorSchema } from '../../../src-shared/ipc/ipc-contract.js';

describe('the core’s language', () => {
  it('reads the headless process’s locale as POSIX does: LC_ALL, LC_MESSAGES, LANG, else Intl', () => {
    const intl = () => 'fr-FR';
    expect(processLocales({ LANG: 'de_DE.UTF-8' }, intl)).toEqual(['de-DE']);
    expect(processLocales({ LC_ALL: 'en_GB.UTF-8', LANG: 'de_DE.UTF-8' }, intl)).toEqual(['en-GB']);
    expect(processLocales({ LC_MESSAGES: 'de_AT@euro', LANG: 'en_US' }, intl)).toEqual(['de-AT']);
    // C and POSIX are no language: English
    expect(processLocales({ LC_ALL: 'C.UTF-8', LANG: 'de_DE.UTF-8' }, intl)).toEqual([]);
    expect(processLocales({ LANG: 'POSIX' }, intl)).toEqual([]);
    expect(processLocales({ LANG: '' }, intl)).toEqual(['fr-FR']);
    expect(processLocales({}, intl)).toEqual(['fr-FR']);
  });

  it('is the setting, else the first system locale with a catalog, else English', async () => {
    expect(new CoreLanguage(() => ['fr-FR', 'de-CH']).language).toBe('de');
    expect(new CoreLanguage(() => ['fr-FR']).language).toBe('en');
    expect(new CoreLanguage().language).toBe('en');
    const language = new CoreLanguage(() => ['en-GB']);
    language.apply('de');
    await language.ready;
    expect([language.language, language.locale]).toEqual(['de', 'de']);
    expect(language.t('core.tray.forHours', { count: 1 })).toBe('Für 1 Stunde');
    expect(language.translate({ key: 'core.tray.forHours', values: { count: 8 } })).toBe('Für 8 Stunden');
  });

  it('speaks German once its catalog is loaded, and a change back before then stays English', async () => {
    const language = new CoreLanguage(() => ['en-US']);
    const changes: string[] = [];
    language.onDidChange((changed) => changes.push(changed));
    // the setting goes to German and back before German's catalog is in: nothing changes
    language.apply('de');
    language.apply('en');
    await language.ready;
    // the catalog that was asked for has arrived meanwhile (its callback runs before this import's)
    await import('../../../src-shared/i18n/de.js');
    await new Promise(setImmediate);
    expect([language.language, language.t('core.tray.quit'), changes]).toEqual(['en', 'Quit', []]);
    language.apply('de');
    await language.ready;
    expect([language.language, language.t('core.tray.quit'), changes]).toEqual(['de', 'Beenden', ['de']]);
    // in memory now: back and forth at once
    language.apply('en');
    expect(language.t('core.tray.quit')).toBe('Quit');
    language.apply('de');
    expect(language.t('core.tray.quit')).toBe('Beenden');
    expect(changes).toEqual(['de', 'en', 'de']);
  });
});

describe('the core’s own error sentences', () => {
  it('cross the contract in English with their catalog message, which German reads', async () => {
    const error = await checkFolderPath('Videos', { home: '/home/ada', platform: 'linux' }).catch((e: unknown) => e);
    const sent = ipcErrorOfThrown(error);
    expect(sent).toEqual({
      code: 'FOLDER_PATH_NOT_ABSOLUTE',
      message:
        '“Videos” is not a full path. Type the full path of the folder, starting with / (or ~ for your home folder), for example /home/ada/Videos.',
      requestId: null,
      text: { key: 'core.folderPath.notAbsolute', values: { path: 'Videos', example: '/home/ada/Videos' } },
    });
    expect(IpcErrorSchema.parse(sent)).toEqual(sent);
    const german = new CoreLanguage(() => ['de']);
    await german.ready;
    expect(german.translate(sent.text!)).toBe(
      '„Videos“ ist kein vollständiger Pfad. Geben Sie den vollständigen Pfad des Ordners ein, beginnend mit / (oder ~ für Ihren Benutzerordner), zum Beispiel /home/ada/Videos.',
    );
  });

  it('refuses a message whose key is not in the catalogs at the contract', () => {
    expect(
      IpcErrorSchema.safeParse({ code: 'X', message: 'x', requestId: null, text: { key: 'core.nope' } }).success,
    ).toBe(false);
  });

  it('an API error of the client’s own making keeps its English message and carries its catalog message', () => {
    const error = ApiError.said({
      status: null,
      code: 'TIMEOUT',
      text: { key: 'core.errors.timeout', values: { detail: 'headers' } },
      retryable: true,
    });
    expect(error.message).toBe('The server did not answer in time (headers).');
    expect(ipcErrorOfThrown(error)).toEqual({
      code: 'TIMEOUT',
      message: 'The server did not answer in time (headers).',
      requestId: null,
      text: { key: 'core.errors.timeout', values: { detail: 'headers' } },
    });
    // a server's error has none
    const refused = new ApiError({ status: 403, code: 'FORBIDDEN', message: 'No.', retryable: false });
    expect(ipcErrorOfThrown(refused)).toEqual({ code: 'FORBIDDEN', message: 'No.', requestId: null });
  });
});
