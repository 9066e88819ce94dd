import { basename } from 'node:path';
import type { Translate } from '../../src-shared/i18n/message.js';
import type { UploadItem } from '../../src-shared/model/upload-state.js';
import { DisposableStore, type Disposable } from '../common/disposable.js';
import type { Engine } from './engine.js';
import {
  isFolderProblem,
  type FolderProblem,
  type FromFolder,
  type NotificationCenter,
} from './notification-center.js';

/** What of the engine a person is told about. */
type NotifyingEngine = Pick<
  Engine,
  'queue' | 'folders' | 'accounts' | 'conversions' | 'folderStatus' | 'sync' | 'dataDisk' | 'onDidChangeAccountState'
>;

/**
 * What the engine does that a person is told of, said to the notification
 * center: an upload failed or done (as its watched folder's "Notify me"
 * says), a stale copy replaced, a conversion ready or failed, a file left in
 * place, the data disk full, and a folder or an account that comes to need
 * the person (said once, when it starts). The contract's events are AppCore's.
 */
export function notifyWhatTheEngineDoes(
  engine: NotifyingEngine,
  notifications: NotificationCenter,
  options: { translate: Translate; dataDir: string },
): Disposable {
  const subscriptions = new DisposableStore();
  /** per watched folder and per account: the problem last said of it (null: none) */
  const folderProblems = new Map<number, FolderProblem | null>();
  const accountProblems = new Map<string, string | null>();

  /** The watched folder `item` came from, as its notifications need it; undefined: added by hand or imported. */
  const fromFolder = (item: UploadItem): FromFolder | undefined => {
    const folder = item.folderId === null ? undefined : engine.folders.get(item.folderId);
    return folder && { id: folder.id, name: basename(folder.path), notify: folder.options.notify };
  };

  for (const subscription of [
    engine.queue.onDidChangeItem((item) => {
      if (item.state.kind !== 'failed') return;
      const { message, requestId, text } = item.state.reason;
      notifications.uploadFailed(basename(item.path), message, requestId, text, fromFolder(item));
    }),
    engine.queue.onDidUpload(({ item, file, replacedStale }) => {
      if (replacedStale) return notifications.replacedStale(item.fileName, file?.urls.page ?? null);
      const from = fromFolder(item);
      const fileId = item.state.kind === 'done' ? item.state.fileId : null;
      const uploaded = fileId === null ? null : { accountId: item.accountId, fileId };
      notifications.uploaded(
        item.fileName,
        file?.urls.page ?? null,
        from && { ...from, bytes: item.size, file: uploaded },
      );
    }),
    engine.conversions.onDidChange((follow) => {
      if (follow.state.kind === 'ready') notifications.readyToWatch(follow.name, follow.watchUrl);
      if (follow.state.kind === 'failed')
        notifications.conversionFailed(follow.name, follow.state.reason, follow.state.text);
    }),
    engine.folderStatus.onDidChange((statuses) => {
      for (const { id, path, state } of statuses) {
        const problem = state.kind === 'problem' && isFolderProblem(state.problem) ? state.problem : null;
        if (folderProblems.get(id) === problem) continue;
        folderProblems.set(id, problem);
        if (problem) notifications.folderProblem(id, basename(path), problem);
      }
    }),
    // a refused token needs the person: said when it starts, snoozed or not
    engine.onDidChangeAccountState(({ accountId, state: { blocked } }) => {
      if ((accountProblems.get(accountId) ?? null) === (blocked?.code ?? null)) return;
      accountProblems.set(accountId, blocked?.code ?? null);
      if (!blocked) return;
      const account = engine.accounts.list().find((one) => one.id === accountId);
      const name = account ? (account.username ?? new URL(account.baseUrl).host) : accountId;
      notifications.accountProblem(
        name,
        blocked.text ? options.translate(blocked.text) : blocked.message,
        blocked.requestId,
      );
    }),
    engine.sync.onDidLeaveFile(({ path, why }) => notifications.leftInPlace(basename(path), why)),
    // once each time it fills up; the hold and the folders' state say it for as long as it lasts
    engine.dataDisk.onDidChange((full) => full && notifications.dataDiskFull(options.dataDir)),
  ])
    subscriptions.add(subscription);
  return subscriptions;
}
