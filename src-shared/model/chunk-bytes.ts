import type { UploadItem } from './upload-state.js';

/** Bytes of chunk `index` of an upload: the chunk size, less for the last chunk. */
export function chunkLength(item: Pick<UploadItem, 'size' | 'chunkSize'>, index: number): number {
  return Math.min(item.chunkSize, item.size - index * item.chunkSize);
}

/** Bytes of an upload the server acknowledged, chunk by chunk: what a pause, a quit or a dropped connection keeps. */
export function ackedBytes(item: Pick<UploadItem, 'size' | 'chunkSize' | 'ackedChunks'>): number {
  return item.ackedChunks.reduce((sum, index) => sum + chunkLength(item, index), 0);
}
