import type { IpcRequest } from '../../src-shared/ipc/ipc-contract.js';
import type { FileChanges, ImportRequest } from '../../src-shared/model/visibility.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { writeClipboard } from '../bridge/clipboard.js';

/** A file of an account on the service. */
type FileRef = IpcRequest<'files:delete'>;
/** An import job of an account on the service. */
type JobRef = IpcRequest<'imports:cancel'>;

/**
 * The account's files on the service. No store keeps them: Files and the
 * details panel read their own (`useQuery`), so these actions only send,
 * and the view takes the answer in.
 */
export class FileActions {
  constructor(private readonly bridge: AppBridge) {}

  get(file: FileRef) {
    return this.bridge.invoke('files:get', file);
  }

  update(file: FileRef, changes: FileChanges) {
    return this.bridge.invoke('files:update', { ...file, changes });
  }

  delete(file: FileRef) {
    return this.bridge.invoke('files:delete', file);
  }

  /**
   * Puts a link of the file on the person's clipboard: the core does where
   * the bridge `canCopyLinks`, a page in a browser writes it itself.
   * `copied` false: the browser refused, and the view shows the link to
   * copy by hand rather than lose it.
   */
  async copyLink(file: FileRef, kind: IpcRequest<'files:copyLink'>['kind']): Promise<{ url: string; copied: boolean }> {
    const { url } = await this.bridge.invoke('files:copyLink', { ...file, kind });
    return { url, copied: this.bridge.capabilities.canCopyLinks || (await writeClipboard(url)) };
  }

  /** Opens the file's watch page, `url`: in the system's browser where the core can, else in a tab of this one. */
  async openWatchPage(file: FileRef, url: string): Promise<void> {
    if (this.bridge.capabilities.canOpenInBrowser) await this.bridge.invoke('files:open', { ...file, kind: 'watch' });
    else window.open(url, '_blank', 'noopener');
  }
}

/** Imports from links. Imports reads its own pages of jobs, kept by `imports:changed`; these only send. */
export class ImportActions {
  constructor(private readonly bridge: AppBridge) {}

  create(accountId: string, body: ImportRequest) {
    return this.bridge.invoke('imports:create', { accountId, body });
  }

  cancel(job: JobRef) {
    return this.bridge.invoke('imports:cancel', job);
  }

  retry(job: JobRef) {
    return this.bridge.invoke('imports:retry', job);
  }
}

/** The app itself: what media-sync:// links asked for, its logs and its diagnostics. */
export class AppActions {
  constructor(private readonly bridge: AppBridge) {}

  /** The links and opened files waiting in the core, taken: each is acted on once. */
  takeIntents() {
    return this.bridge.invoke('app:takeIntents', {});
  }

  /** Where the bridge `canReveal`: the logs folder in the system's file manager. */
  openLogsFolder() {
    return this.bridge.invoke('app:openLogsFolder', {});
  }

  /** The diagnostics report, for the person to save and send with a question. */
  diagnostics() {
    return this.bridge.invoke('app:diagnostics', {});
  }

  /** The support file of these choices, built in the core: its entries, size and bytes (base64). */
  supportFile(request: IpcRequest<'support:build'>) {
    return this.bridge.invoke('support:build', request);
  }
}
