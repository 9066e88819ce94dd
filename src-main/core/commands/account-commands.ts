import { message } from '../../../src-shared/i18n/message.js';
import { CoreError } from '../../common/core-error.js';
import { listSubfolders } from '../folder-listing.js';
import { OK, type CommandContext, type HandlersOf } from './command-context.js';

/** Accounts and watched folders. */
export function accountCommands(core: CommandContext): HandlersOf<'account' | 'folders'> {
  const { engine } = core;
  const changedFolders = () => core.emit('folders:changed', engine.folders.list());
  const folderStatus = (id: number) => {
    const status = engine.folderStatus.status(id);
    if (!status) throw CoreError.say('NOT_FOUND', message('core.errors.noFolder', { id }));
    return status;
  };
  const setPaused = (id: number, paused: boolean) => {
    engine.sync.setPaused(id, paused);
    return folderStatus(id);
  };
  const handlers: HandlersOf<'account' | 'folders'> = {
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

    'folders:list': async () => engine.folders.list(),
    'folders:add': async ({ accountId, path, options }) => {
      core.client(accountId);
      const folder = await engine.sync.addFolder(accountId, path, options);
      changedFolders();
      return folder;
    },
    'folders:update': async ({ id, options }) => {
      const folder = await engine.sync.updateFolder(id, options);
      changedFolders();
      return folder;
    },
    'folders:countToRemove': async ({ path, id, options }) => engine.sync.countToRemove(path, id, options),
    'folders:remove': async ({ id }) => {
      await engine.sync.removeFolder(id);
      changedFolders();
      return OK;
    },
    'folders:move': async ({ id, accountId }) => {
      const folder = await engine.moveFolder(id, accountId);
      changedFolders();
      return folder;
    },
    'folders:whenSettled': async () => {
      await engine.sync.whenSettled();
      return OK;
    },
    'folders:browse': async (request) => listSubfolders(request),
    'folders:status': async () => engine.folderStatus.statuses(),
    'folders:pause': async ({ id }) => setPaused(id, true),
    'folders:resume': async ({ id }) => setPaused(id, false),
    'folders:rescan': async ({ id }) => {
      engine.sync.rescanFolder(id);
      return folderStatus(id);
    },
    'folders:reveal': async ({ id }) => {
      await core.options.shell.openFolder(folderStatus(id).path);
      return OK;
    },
  };
  return handlers;
}
