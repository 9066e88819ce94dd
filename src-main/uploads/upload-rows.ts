import * as z from 'zod';
import {
  UploadItemSchema,
  UploadMetadataSchema,
  UploadStateSchema,
  type UploadItem,
  type UploadMetadata,
  type UploadState,
} from '../../src-shared/model/upload-state.js';
import type { Visibility } from '../../src-shared/model/visibility.js';
import type { FileIdentity } from '../common/file-fingerprint.js';
import { parseJsonOrUndefined } from '../common/parse-json.js';

// How an upload item is written in its `upload_items` row and read back (UploadStore).

export interface NewUpload {
  accountId: string;
  path: string;
  fileName: string;
  identity: FileIdentity;
  visibility: Visibility | null;
  metadata: UploadMetadata;
  folderId: number | null;
  chunkSize: number;
}

/** An `upload_items` row as SQLite answers it. */
export interface UploadRow {
  id: number;
  account_id: string;
  path: string;
  file_name: string;
  size: number;
  mtime_ms: number;
  fingerprint: string;
  /** 1 public, 0 private, null the service's default */
  visibility: number | null;
  metadata: string;
  folder_id: number | null;
  state: string;
  dzuuid: string | null;
  chunk_size: number;
  acked_chunks: string;
  restarts: number;
  final_sent: number;
  file_id: string | null;
  stale_file_ids: string;
  created_at: number;
  updated_at: number;
}

/** A new item as its row was just written (not read back): its metadata as a read would see it. */
export function newItem(id: number, input: NewUpload, now: number): UploadItem {
  return {
    id,
    accountId: input.accountId,
    path: input.path,
    fileName: input.fileName,
    size: input.identity.size,
    mtimeMs: input.identity.mtimeMs,
    fingerprint: input.identity.fingerprint,
    visibility: input.visibility,
    metadata: UploadMetadataSchema.parse(input.metadata),
    folderId: input.folderId,
    state: { kind: 'queued' },
    dzuuid: null,
    chunkSize: input.chunkSize,
    ackedChunks: [],
    restarts: 0,
    finalSent: false,
    fileId: null,
    staleFileIds: [],
    createdAt: now,
    updatedAt: now,
  };
}

/** A visibility as its column holds it: 1 public, 0 private, null the service's default. */
export function visibilityColumn(visibility: Visibility | null): number | null {
  return visibility === null ? null : Number(visibility === 'public');
}

/** The item a row holds, checked with zod (Signal's JobQueue), or why the row does not parse. */
export function parseRow(row: UploadRow): { item: UploadItem } | { problem: string } {
  const parsed = UploadItemSchema.safeParse({
    id: row.id,
    accountId: row.account_id,
    path: row.path,
    fileName: row.file_name,
    size: row.size,
    mtimeMs: row.mtime_ms,
    fingerprint: row.fingerprint,
    visibility: row.visibility === null ? null : row.visibility === 1 ? 'public' : 'private',
    metadata: parseJsonOrUndefined(row.metadata),
    folderId: row.folder_id,
    state: UploadStateSchema.safeParse(parseJsonOrUndefined(row.state)).data,
    dzuuid: row.dzuuid,
    chunkSize: row.chunk_size,
    ackedChunks: parseJsonOrUndefined(row.acked_chunks),
    restarts: row.restarts,
    finalSent: row.final_sent === 1,
    fileId: row.file_id,
    staleFileIds: parseJsonOrUndefined(row.stale_file_ids),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
  return parsed.success ? { item: parsed.data } : { problem: z.prettifyError(parsed.error) };
}

/** The indexed columns of a state: its kind, when it wakes by itself, and when it finished (done, cancelled). */
export function stateColumns(state: UploadState, now: number) {
  return {
    kind: state.kind,
    wakeAt: state.kind === 'retrying' ? state.retryAt : state.kind === 'paused' ? state.until : null,
    finishedAt: state.kind === 'done' ? state.finishedAt : state.kind === 'cancelled' ? now : null,
  };
}
