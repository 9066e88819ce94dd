import { rm } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { message } from '../../../src-shared/i18n/message.js';
import {
  toUploadItemView,
  type QueueOverview,
  type QueueStatus,
  type UploadItemView,
  type UploadProgress,
} from '../../../src-shared/ipc/ipc-contract.js';
import { FINAL_UPLOAD_KINDS, type UploadItem } from '../../../src-shared/model/upload-state.js';
import type { WhenDoneAction } from '../../../src-shared/model/when-done.js';
import { CoreError } from '../../common/core-error.js';
import type { ConversionFollower } from '../../conversions/conversion-follower.js';
import type { BandwidthLimiter } from '../../uploads/bandwidth-limiter.js';
import type { UploadQueue } from '../../uploads/upload-queue.js';
import type { UploadStore } from '../../uploads/upload-store.js';
import type { ShellPorts } from '../ports.js';
import type { QueuePolicy } from '../queue-policy.js';
import type { WhenDoneRunner } from '../when-done-runner.js';

/** The upload queue: what is in it, how a page sees it, and what a person does to it. */
export interface UploadsService {
  /** the queue's own verbs (enqueue, pause, resume, cancel, retry …) */
  readonly queue: Pick<
    UploadQueue,
    'enqueue' | 'page' | 'get' | 'pauseAll' | 'resumeAll' | 'pause' | 'resume' | 'cancel' | 'retry' | 'clearFinished'
  >;
  /** the items by kind (from the kind index), the unfinished ones, and the recently changed ones for a support file */
  readonly store: Pick<UploadStore, 'count' | 'counts' | 'ofKind' | 'unfinished' | 'updatedSince'>;
  /** the queue as the UI (and the tray) sees it */
  status(): QueueStatus;
  /** the queue summed up for the tray and the taskbar, with the items of `ended` that are final */
  overview(ended: readonly number[]): QueueOverview;
  /** an upload as the UI sees it, with its file's conversion once it is done, and whether the file changed since */
  view(item: UploadItem): UploadItemView;
  /** the daemon's copy of a file a page sent, removed once the file is on the service (`item` done) */
  forgetDroppedCopy(item: UploadItem): void;
  /** the upload; NOT_FOUND when there is none */
  item(id: number): UploadItem;
  /** "When done": UNAVAILABLE where the shell offers none */
  chooseWhenDone(action: WhenDoneAction | null): void;
  /** shows the upload's file in the file manager */
  reveal(id: number): Promise<void>;
}

export interface UploadsServiceOptions {
  queue: UploadQueue;
  store: UploadStore;
  limiter: Pick<BandwidthLimiter, 'limit'>;
  policy: Pick<QueuePolicy, 'limitBy'>;
  whenDone: WhenDoneRunner | undefined;
  conversions: Pick<ConversionFollower, 'get'>;
  shell: Pick<ShellPorts, 'revealPath'>;
  /** where the daemon writes files a page sends before they are queued */
  droppedFilesDir?: string;
}

/** An upload's bytes as the tray and the taskbar follow them (UploadProgress), nothing more. */
const progressOf = ({ id, fileName, size, chunkSize, ackedChunks, state }: UploadItem): UploadProgress => ({
  id,
  fileName,
  size,
  chunkSize,
  ackedChunks,
  state,
});

export function createUploadsService(options: UploadsServiceOptions): UploadsService {
  const { queue, store, whenDone } = options;
  const dropped = options.droppedFilesDir && resolve(options.droppedFilesDir) + sep;
  // a file a page sent: its path is the daemon's temporary copy (docs/ui.md, The file of a row)
  const fromBrowser = (item: UploadItem) => dropped !== undefined && dropped !== '' && item.path.startsWith(dropped);
  const item = (id: number) => {
    const found = queue.get(id);
    if (!found) throw CoreError.say('NOT_FOUND', message('core.errors.noUpload', { id }));
    return found;
  };
  return {
    queue,
    store,
    status: () => {
      const status = queue.status();
      return {
        pause: status.pause,
        hold: status.hold,
        active: status.active,
        bandwidthBytesPerSecond: options.limiter.limit,
        bandwidthBy: options.policy.limitBy,
        whenDone: whenDone?.view() ?? null,
      };
    },
    overview: (ended) => ({
      unfinished: queue.listActive().map(progressOf),
      running: queue.runningItems().map(progressOf),
      waiting: store.count(['queued', 'retrying']),
      failed: store.count(['failed']),
      ended: ended.flatMap((id) => {
        const ending = queue.get(id);
        return ending && FINAL_UPLOAD_KINDS.has(ending.state.kind) ? [progressOf(ending)] : [];
      }),
    }),
    view: (upload) => {
      if (upload.state.kind !== 'done') return toUploadItemView(upload, null, false, fromBrowser(upload));
      // by the file it made, not by its number: a queue cleared of every item gives the next one the same number
      const afterUpload = options.conversions.get(upload.accountId, upload.state.fileId) ?? null;
      return toUploadItemView(upload, afterUpload, store.changedSince(upload), fromBrowser(upload));
    },
    forgetDroppedCopy: (upload) => {
      // the daemon writes each dropped file in a folder of its own under the drop folder (daemon.ts): that
      // folder goes, never the drop folder itself nor anything else in it
      const folder = dirname(upload.path);
      if (upload.state.kind === 'done' && dropped && dirname(folder) + sep === dropped) {
        void rm(folder, { recursive: true, force: true }).catch(() => undefined);
      }
    },
    item,
    chooseWhenDone: (action) => {
      if (!whenDone) throw CoreError.say('UNAVAILABLE', message('core.errors.noWhenDone'));
      whenDone.choose(action);
    },
    reveal: (id) => options.shell.revealPath(item(id).path),
  };
}
