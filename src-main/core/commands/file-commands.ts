import { message } from '../../../src-shared/i18n/message.js';
import { CoreError } from '../../common/core-error.js';
import { OK, type CoreServices, type HandlersOf } from './handlers.js';

/** The account's files on the service: each command one or two requests of the API. */
export function fileCommands({
  accounts,
  conversions,
  system,
}: Pick<CoreServices, 'accounts' | 'conversions' | 'system'>): HandlersOf<'files'> {
  return {
    'files:list': async ({ accountId, search, page, perPage }) =>
      accounts.client(accountId).listFiles({ search, page, per_page: perPage }),
    'files:get': async ({ accountId, fileId }) => accounts.client(accountId).getFile(fileId),
    'files:status': async ({ accountId, fileId }) => accounts.client(accountId).getFileStatus(fileId),
    'files:update': async ({ accountId, fileId, changes }) => {
      const client = accounts.client(accountId);
      // a file's password is a secret from here on: never in the log, nor in a support file made from it
      if (changes.password) system.log?.addSecret(changes.password);
      await client.updateFile(fileId, changes);
      return client.getFile(fileId);
    },
    'files:delete': async ({ accountId, fileId }) => {
      await accounts.client(accountId).deleteFile(fileId);
      conversions.forget(accountId, fileId);
      return OK;
    },
    'files:copyLink': async ({ accountId, fileId, kind }) => {
      const url = (await accounts.client(accountId).getFile(fileId)).urls[kind];
      await system.shell.writeClipboard(url);
      return { url };
    },
    'files:open': async ({ accountId, fileId, kind }) => {
      const url = (await accounts.client(accountId).getFile(fileId)).urls[kind];
      if (!/^https?:\/\//.test(url)) throw CoreError.say('UNSAFE_LINK', message('core.errors.unsafeLink'));
      await system.shell.openExternal(url);
      return OK;
    },
  };
}
