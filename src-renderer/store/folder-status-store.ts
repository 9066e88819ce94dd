import type { FolderStatus } from '../../src-shared/model/folder-status.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { toIpcError } from '../bridge/bridge-context.js';
import { Store, type Read } from './store.js';

/**
 * Every watched folder's status, in the order of folders:list: read at start
 * (`folders:status`), after a reconnection and whenever the list of folders
 * changes (one added or removed), kept from `folders:statusChanged`, which
 * carries only the folders that changed, each whole. A status that arrived
 * while a read was on its way replaces that folder's in the answer, so the
 * newer one wins.
 */
export class FolderStatusStore extends Store<Read<FolderStatus[]>> {
  /** what events brought since the last read was sent, by folder */
  private since = new Map<number, FolderStatus>();
  /** bumped by each read: the answer to an older one is dropped */
  private epoch = 0;

  constructor(private readonly bridge: AppBridge) {
    super({ data: undefined, error: null });
    bridge.on('folders:statusChanged', (changed) => this.put(changed));
    bridge.on('folders:changed', () => this.load());
  }

  load(): void {
    const epoch = ++this.epoch;
    this.since = new Map();
    this.bridge.invoke('folders:status', {}).then(
      (list) => epoch === this.epoch && this.set({ data: merge(list, [...this.since.values()]), error: null }),
      (problem: unknown) => epoch === this.epoch && this.set({ ...this.get(), error: toIpcError(problem) }),
    );
  }

  /** Statuses as the core sent them (an event, or the answer to a folder's action). */
  put(changed: readonly FolderStatus[]): void {
    for (const status of changed) this.since.set(status.id, status);
    const data = this.get().data;
    if (data) this.set({ data: merge(data, changed), error: null });
  }
}

/** `list` with each folder of `changed` it holds replaced; a folder it does not hold waits for the next read. */
function merge(list: readonly FolderStatus[], changed: readonly FolderStatus[]): FolderStatus[] {
  if (changed.length === 0) return [...list];
  const byId = new Map(changed.map((status) => [status.id, status]));
  return list.map((status) => byId.get(status.id) ?? status);
}
