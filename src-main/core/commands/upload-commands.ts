import { message } from '../../../src-shared/i18n/message.js';
import type { UploadProgress } from '../../../src-shared/ipc/ipc-contract.js';
import { FINAL_UPLOAD_KINDS, type UploadItem } from '../../../src-shared/model/upload-state.js';
import { CoreError } from '../../common/core-error.js';
import { checkUploadPath } from '../opened-files.js';
import { OK, type CommandContext, type HandlersOf } from './handlers.js';

/** An upload's bytes as the tray and the taskbar follow them (UploadProgress), nothing more. */
const progressOf = ({ id, fileName, size, chunkSize, ackedChunks, state }: UploadItem): UploadProgress => ({
  id,
  fileName,
  size,
  chunkSize,
  ackedChunks,
  state,
});

/** The upload queue: what is in it, and what a person does to it. */
export function uploadCommands(
  core: Pick<CommandContext, 'engine' | 'options' | 'whenDone' | 'emit' | 'client' | 'item' | 'view' | 'queueStatus'>,
): HandlersOf<'uploads'> {
  const queue = core.engine.queue;
  // the item as the command left it, or as it was when the command had nothing to do
  const viewOf = async (id: number, changed: Promise<UploadItem | undefined>) =>
    core.view((await changed) ?? core.item(id));
  return {
    'uploads:addPaths': async ({ accountId, paths, visibility, metadata, force }) => {
      core.client(accountId);
      // every path first: one that cannot be read queues none of them, and the answer names it
      for (const path of paths) await checkUploadPath(path);
      const items: UploadItem[] = [];
      for (const path of paths) {
        const { item } = await queue.enqueue({ accountId, path, visibility, metadata, force });
        items.push(item);
      }
      return items.map((item) => core.view(item));
    },
    'uploads:list': async ({ offset, limit }) => {
      const { items, total } = queue.page(offset, limit);
      return { items: items.map((item) => core.view(item)), total };
    },
    'uploads:status': async () => core.queueStatus(),
    'uploads:overview': async ({ ended }) => ({
      unfinished: queue.listActive().map(progressOf),
      running: queue.runningItems().map(progressOf),
      // from the kind index: never the queue's history
      waiting: core.engine.uploads.count(['queued', 'retrying']),
      failed: core.engine.uploads.count(['failed']),
      ended: ended.flatMap((id) => {
        const item = queue.get(id);
        return item && FINAL_UPLOAD_KINDS.has(item.state.kind) ? [progressOf(item)] : [];
      }),
    }),
    'uploads:pauseAll': async ({ until, afterChunk }) => {
      await queue.pauseAll(until, { afterChunk });
      return core.queueStatus();
    },
    'uploads:resumeAll': async () => {
      queue.resumeAll();
      return core.queueStatus();
    },
    'uploads:pause': async ({ id, until, afterChunk }) => viewOf(id, queue.pause(id, until, { afterChunk })),
    'uploads:resume': async ({ id }) => viewOf(id, queue.resume(id)),
    'uploads:cancel': async ({ id }) => viewOf(id, queue.cancel(id)),
    'uploads:retry': async ({ id }) => viewOf(id, queue.retry(id)),
    'uploads:clearFinished': async () => {
      const removed = queue.clearFinished();
      if (removed > 0) core.emit('uploads:removed', { removed });
      return { removed };
    },
    'uploads:setWhenDone': async ({ action }) => {
      if (!core.whenDone) throw CoreError.say('UNAVAILABLE', message('core.errors.noWhenDone'));
      core.whenDone.choose(action === 'nothing' ? null : action);
      return core.queueStatus();
    },
    'uploads:reveal': async ({ id }) => {
      await core.options.shell.revealPath(core.item(id).path);
      return OK;
    },
  };
}
