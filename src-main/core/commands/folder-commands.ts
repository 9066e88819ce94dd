import { message } from '../../../src-shared/i18n/message.js';
import { CoreError } from '../../common/core-error.js';
import { listSubfolders } from '../folder-listing.js';
import { OK, type CommandContext, type HandlersOf } from './handlers.js';

/** The watched folders. */
export function folderCommands(
  core: Pick<CommandContext, 'engine' | 'options' | 'emit' | 'client'>,
): HandlersOf<'folders'> {
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
  return {
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
    'folders:preview': async ({ path, id, options }) => engine.sync.preview(path, id, options),
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
}
