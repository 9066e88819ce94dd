import type { IpcRequest } from '../../src-shared/ipc/ipc-contract.js';
import type { FolderOptions } from '../../src-shared/model/folder-options.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { ReadStore } from './store.js';

/**
 * The watched folders and their options: `folders:list`, kept by
 * `folders:changed`, which each change made here brings (and with it a new
 * read of the folders' statuses).
 */
export class FoldersStore extends ReadStore<'folders:list'> {
  constructor(bridge: AppBridge) {
    super(bridge, 'folders:list', {}, 'folders:changed');
  }

  add(request: IpcRequest<'folders:add'>) {
    return this.bridge.invoke('folders:add', request);
  }

  update(id: number, options: FolderOptions) {
    return this.bridge.invoke('folders:update', { id, options });
  }

  /** Stops watching the folder; its local files are kept. */
  remove(id: number) {
    return this.bridge.invoke('folders:remove', { id });
  }

  /** Gives a folder whose account is signed out to a signed-in account. */
  move(id: number, accountId: string) {
    return this.bridge.invoke('folders:move', { id, accountId });
  }

  /** How many files "Delete after upload" would put in the Trash now: asked before it is saved. */
  countToRemove(request: IpcRequest<'folders:countToRemove'>) {
    return this.bridge.invoke('folders:countToRemove', request);
  }

  /** What a folder's rules would upload and leave alone, counted before anything is queued. */
  preview(request: IpcRequest<'folders:preview'>) {
    return this.bridge.invoke('folders:preview', request);
  }

  /** A folder of the computer the core runs on, checked and listed (the page's folder browser). */
  browse(request: IpcRequest<'folders:browse'>) {
    return this.bridge.invoke('folders:browse', request);
  }

  /** "Why this file?": what the core knows about one local file, and what can be done about it. */
  why(path: string) {
    return this.bridge.invoke('folders:why', { path });
  }

  /** The system's folder dialog, where the bridge `canPickFolder`: the path chosen, null when cancelled. */
  async pick(): Promise<string | null> {
    return (await this.bridge.invoke('app:pickFolder', {})).path;
  }
}
