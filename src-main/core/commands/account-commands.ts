import { OK, type CoreServices, type HandlersOf } from './handlers.js';

/** The accounts, and "Try it locally". */
export function accountCommands({ accounts }: Pick<CoreServices, 'accounts'>): HandlersOf<'account'> {
  return {
    'account:signIn': async (request) => accounts.signIn(request),
    'account:signOut': async ({ accountId }) => {
      await accounts.signOut(accountId);
      return OK;
    },
    'account:list': async () => accounts.views(),
    'account:summary': async ({ accountId }) => accounts.client(accountId).getAccount(),
    'account:startDemo': async () => accounts.startDemo(),
  };
}
