import type { QueueStatus, UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import type { UploadItem, UploadState } from '../../src-shared/model/upload-state.js';
import type { RowContext } from '../../src-renderer/text/queue-row-text.js';

/** An upload as the core stores it, queued unless told otherwise. */
export function uploadItem(
  id: number,
  state: UploadState = { kind: 'queued' },
  extra: Partial<UploadItem> = {},
): UploadItem {
  return {
    id,
    accountId: 'a1',
    path: `/videos/clip-${id}.mp4`,
    fileName: `clip-${id}.mp4`,
    size: 1_000_000,
    mtimeMs: 1,
    fingerprint: 'f',
    visibility: null,
    metadata: {},
    folderId: null,
    state,
    dzuuid: null,
    chunkSize: 90_000_000,
    ackedChunks: [],
    restarts: 0,
    finalSent: false,
    fileId: state.kind === 'done' ? state.fileId : null,
    staleFileIds: [],
    createdAt: 1,
    updatedAt: 1,
    ...extra,
  };
}

/** An upload as the UI receives it, queued unless told otherwise. */
export function item(
  id: number,
  state: UploadState = { kind: 'queued' },
  extra: Partial<UploadItemView> = {},
): UploadItemView {
  const { fingerprint: _fingerprint, staleFileIds: _stale, ...stored } = uploadItem(id, state);
  return {
    ...stored,
    metadata: { hasPassword: false },
    afterUpload: null,
    changedSinceUpload: false,
    fromBrowser: false,
    ...extra,
  };
}

/** What a row is described against at `now`: a running queue, nothing blocked, no speed yet; times as `T+Nmin`. */
export function rowContext(now: number): RowContext {
  return {
    now,
    queuePaused: false,
    accountBlocked: null,
    accountGate: null,
    speed: null,
    eta: null,
    clock: (ms) => `T+${(ms - now) / 60_000}min`,
  };
}

/** The queue's status with nothing held, paused or limited: `active` uploads running. */
export function queueStatus(active = 0): QueueStatus {
  return { pause: null, hold: null, active, bandwidthBytesPerSecond: null, bandwidthBy: 'setting', whenDone: null };
}
