import type { UploadItemView } from '../../../src-shared/ipc/ipc-contract.js';
import type { UploadState } from '../../../src-shared/model/upload-state.js';

/** An upload as the UI receives it, queued unless told otherwise. */
export function item(
  id: number,
  state: UploadState = { kind: 'queued' },
  extra: Partial<UploadItemView> = {},
): UploadItemView {
  return {
    id,
    accountId: 'a1',
    path: `/videos/clip-${id}.mp4`,
    fileName: `clip-${id}.mp4`,
    size: 1_000_000,
    mtimeMs: 1,
    visibility: null,
    metadata: { hasPassword: false },
    folderId: null,
    state,
    dzuuid: null,
    chunkSize: 90_000_000,
    ackedChunks: [],
    restarts: 0,
    finalSent: false,
    fileId: null,
    createdAt: 1,
    updatedAt: 1,
    afterUpload: null,
    ...extra,
  };
}
