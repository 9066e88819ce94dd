import { message } from '../../../src-shared/i18n/message.js';
import { CoreError } from '../../common/core-error.js';
import { OK, type CommandContext, type HandlersOf } from './handlers.js';

/** The accounts, and "Try it locally". */
export function accountCommands(
  core: Pick<CommandContext, 'engine' | 'options' | 'emit' | 'client' | 'accountViews'>,
): HandlersOf<'account'> {
  const { engine } = core;
  const handlers: HandlersOf<'account'> = {
    'account:signIn': async ({ baseUrl, token, plan }) => {
      const { account } = await engine.signIn(baseUrl, token, plan);
      core.emit('account:changed', core.accountViews());
      return core.accountViews().find((view) => view.id === account.id)!;
    },
    'account:signOut': async ({ accountId }) => {
      await engine.signOut(accountId);
      core.emit('account:changed', core.accountViews());
      return OK;
    },
    'account:list': async () => core.accountViews(),
    'account:summary': async ({ accountId }) => core.client(accountId).getAccount(),
    'account:startDemo': async () => {
      const demo = core.options.demo;
      if (!demo) throw CoreError.say('UNAVAILABLE', message('core.errors.noDemo'));
      const { baseUrl, token } = await demo.start(engine);
      return handlers['account:signIn']({ baseUrl, token });
    },
  };
  return handlers;
}
