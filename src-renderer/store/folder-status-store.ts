import type { FolderStatus } from '../../src-shared/model/folder-status.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { toIpcError } from '../bridge/bridge-context.js';
import { LatestRead } from '../bridge/latest-read.js';
import { Store, type Read } from './store.js';

/**
 * Every watched folder's status, in the order of folders:list: read at start
 * (`folders:status`), after a reconnection and whenever the list of folders
 * changes (one added or removed), kept from `folders:statusChanged`, which
 * carries only the folders that changed, each whole, and by the answers of
 * a folder's actions. A status that arrived while a read was on its way
 * replaces that folder's in the answer, so the newer one wins.
 */
export class FolderStatusStore extends Store<Read<FolderStatus[]>> {
  /** what events brought since the last read was sent, by folder */
  private since = new Map<number, FolderStatus>();
  private readonly latest = new LatestRead();

  constructor(private readonly bridge: AppBridge) {
    super({ data: undefined, error: null });
    this.register(bridge.on('folders:statusChanged', (changed) => this.put(changed)));
    this.register(bridge.on('folders:changed', () => this.load()));
  }

  load(): void {
    const isLatest = this.latest.start();
    this.since = new Map();
    this.bridge.invoke('folders:status', {}).then(
      (list) => isLatest() && this.set({ data: merge(list, [...this.since.values()]), error: null }),
      (problem: unknown) => isLatest() && this.set({ ...this.get(), error: toIpcError(problem) }),
    );
  }

  /** This folder only: the others go on. */
  pause(id: number): Promise<FolderStatus> {
    return this.act('folders:pause', id);
  }

  resume(id: number): Promise<FolderStatus> {
    return this.act('folders:resume', id);
  }

  /** Looks through the folder for files the watcher missed; its state says "Scanning" meanwhile. */
  rescan(id: number): Promise<FolderStatus> {
    return this.act('folders:rescan', id);
  }

  /** Shows the folder in the system's file manager, where the bridge `canReveal`. */
  reveal(id: number) {
    return this.bridge.invoke('folders:reveal', { id });
  }

  /** A folder's action answers with its status: the card changes at once. */
  private async act(name: 'folders:pause' | 'folders:resume' | 'folders:rescan', id: number): Promise<FolderStatus> {
    const status = await this.bridge.invoke(name, { id });
    this.put([status]);
    return status;
  }

  /** Statuses as the core sent them (an event, or the answer to a folder's action). */
  private put(changed: readonly FolderStatus[]): void {
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
