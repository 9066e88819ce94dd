import { message } from '../../../src-shared/i18n/message.js';
import type { FileWhy } from '../../../src-shared/ipc/ipc-contract.js';
import type { FolderStatus } from '../../../src-shared/model/folder-status.js';
import { CoreError } from '../../common/core-error.js';
import type { FolderStore } from '../../storage/folder-store.js';
import { explainFile } from '../../sync/file-why.js';
import type { SyncService } from '../../sync/sync-service.js';
import type { Engine } from '../engine.js';
import type { UploadsService } from './uploads-service.js';

/** The watched folders: what is watched, how each is doing, and what a person does to them. */
export interface FoldersService {
  readonly store: Pick<FolderStore, 'list'>;
  readonly sync: Pick<
    SyncService,
    | 'addFolder'
    | 'updateFolder'
    | 'countToRemove'
    | 'preview'
    | 'removeFolder'
    | 'setPaused'
    | 'rescanFolder'
    | 'whenSettled'
  >;
  /** each folder's state, counts and recent files */
  statuses(): FolderStatus[];
  /** the folder's; NOT_FOUND when there is none */
  status(id: number): FolderStatus;
  /** moves a signed-out account's folder, and its waiting files, to a signed-in account */
  move: Engine['moveFolder'];
  /** "Why this file?": for any local path, its folder, the rule or queue item or upload that decides it, and what to do */
  why(path: string): Promise<FileWhy>;
}

export function createFoldersService(
  engine: Pick<
    Engine,
    'folders' | 'sync' | 'folderStatus' | 'moveFolder' | 'uploads' | 'index' | 'declines' | 'client'
  >,
  uploads: Pick<UploadsService, 'view'>,
): FoldersService {
  const status = (id: number) => {
    const found = engine.folderStatus.status(id);
    if (!found) throw CoreError.say('NOT_FOUND', message('core.errors.noFolder', { id }));
    return found;
  };
  return {
    store: engine.folders,
    sync: engine.sync,
    statuses: () => engine.folderStatus.statuses(),
    status,
    move: (id, accountId) => engine.moveFolder(id, accountId),
    why: (path) =>
      explainFile(path, {
        folders: () => engine.folders.list(),
        folderStatus: (id) => engine.folderStatus.status(id),
        latestItem: (file) => engine.uploads.latestByPath(file),
        view: (item) => uploads.view(item),
        index: engine.index,
        declines: engine.declines,
        remoteFile: async (accountId, fileId) => {
          const file = await engine.client(accountId)?.getFile(fileId);
          return file
            ? { name: file.name, link: file.mime.startsWith('video/') ? file.urls.watch : file.urls.page }
            : null;
        },
      }),
  };
}
