import { listSubfolders } from '../folder-listing.js';
import { OK, type CoreServices, type HandlersOf } from './handlers.js';

/** The watched folders. */
export function folderCommands({
  folders,
  accounts,
  system,
  emit,
}: Pick<CoreServices, 'folders' | 'accounts' | 'system' | 'emit'>): HandlersOf<'folders'> {
  const { sync } = folders;
  const changedFolders = () => emit('folders:changed', folders.store.list());
  const setPaused = (id: number, paused: boolean) => {
    sync.setPaused(id, paused);
    return folders.status(id);
  };
  return {
    'folders:list': async () => folders.store.list(),
    'folders:add': async ({ accountId, path, options }) => {
      accounts.client(accountId);
      const folder = await sync.addFolder(accountId, path, options);
      changedFolders();
      return folder;
    },
    'folders:update': async ({ id, options }) => {
      const folder = await sync.updateFolder(id, options);
      changedFolders();
      return folder;
    },
    'folders:countToRemove': async ({ path, id, options }) => sync.countToRemove(path, id, options),
    'folders:preview': async ({ path, id, options }) => sync.preview(path, id, options),
    'folders:remove': async ({ id }) => {
      await sync.removeFolder(id);
      changedFolders();
      return OK;
    },
    'folders:move': async ({ id, accountId }) => {
      const folder = await folders.move(id, accountId);
      changedFolders();
      return folder;
    },
    'folders:whenSettled': async () => {
      await sync.whenSettled();
      return OK;
    },
    'folders:browse': async (request) => listSubfolders(request),
    'folders:status': async () => folders.statuses(),
    'folders:pause': async ({ id }) => setPaused(id, true),
    'folders:resume': async ({ id }) => setPaused(id, false),
    'folders:rescan': async ({ id }) => {
      sync.rescanFolder(id);
      return folders.status(id);
    },
    'folders:reveal': async ({ id }) => {
      await system.shell.openFolder(folders.status(id).path);
      return OK;
    },
    'folders:why': async ({ path }) => folders.why(path),
  };
}
