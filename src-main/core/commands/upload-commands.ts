import type { UploadItem } from '../../../src-shared/model/upload-state.js';
import { checkUploadPath } from '../opened-files.js';
import { OK, type CoreServices, type HandlersOf } from './handlers.js';

/** The upload queue: what is in it, and what a person does to it. */
export function uploadCommands({
  uploads,
  accounts,
}: Pick<CoreServices, 'uploads' | 'accounts'>): HandlersOf<'uploads'> {
  const { queue } = uploads;
  // the item as the command left it, or as it was when the command had nothing to do
  const viewOf = async (id: number, changed: Promise<UploadItem | undefined>) =>
    uploads.view((await changed) ?? uploads.item(id));
  return {
    'uploads:addPaths': async ({ accountId, paths, visibility, metadata, force }) => {
      accounts.client(accountId);
      // every path first: one that cannot be read queues none of them, and the answer names it
      for (const path of paths) await checkUploadPath(path);
      const items: UploadItem[] = [];
      for (const path of paths) {
        const { item } = await queue.enqueue({ accountId, path, visibility, metadata, force });
        items.push(item);
      }
      return items.map((item) => uploads.view(item));
    },
    'uploads:list': async ({ offset, limit }) => {
      const { items, total } = queue.page(offset, limit);
      return { items: items.map((item) => uploads.view(item)), total };
    },
    'uploads:status': async () => uploads.status(),
    'uploads:overview': async ({ ended }) => uploads.overview(ended),
    'uploads:pauseAll': async ({ until, afterChunk }) => {
      await queue.pauseAll(until, { afterChunk });
      return uploads.status();
    },
    'uploads:resumeAll': async () => {
      queue.resumeAll();
      return uploads.status();
    },
    'uploads:pause': async ({ id, until, afterChunk }) => viewOf(id, queue.pause(id, until, { afterChunk })),
    'uploads:resume': async ({ id }) => viewOf(id, queue.resume(id)),
    'uploads:cancel': async ({ id }) => viewOf(id, queue.cancel(id)),
    'uploads:retry': async ({ id }) => viewOf(id, queue.retry(id)),
    'uploads:clearFinished': async () => ({ removed: queue.clearFinished() }),
    'uploads:setWhenDone': async ({ action }) => {
      uploads.chooseWhenDone(action === 'nothing' ? null : action);
      return uploads.status();
    },
    'uploads:reveal': async ({ id }) => {
      await uploads.reveal(id);
      return OK;
    },
  };
}
