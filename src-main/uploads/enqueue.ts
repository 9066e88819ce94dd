import { basename, resolve } from 'node:path';
import * as z from 'zod';
import { UpdateFileBodySchema } from '../../src-shared/api/index.js';
import type { UploadItem, UploadMetadata } from '../../src-shared/model/upload-state.js';
import type { Visibility } from '../../src-shared/model/visibility.js';
import { CoreError } from '../common/core-error.js';
import { quickFingerprint, sameVersion, type FileIdentity } from '../common/file-fingerprint.js';
import { sameFileOnDisk } from '../common/path-spellings.js';
import type { UploadStore } from './upload-store.js';

export interface EnqueueInput {
  accountId: string;
  path: string;
  /** `visibility` of the upload; null leaves the server's default (private) */
  visibility?: Visibility | null;
  metadata?: UploadMetadata;
  folderId?: number | null;
  /** upload again even if this exact file was uploaded before */
  force?: boolean;
  /** the file's identity, when the caller has just read it (a watched folder's file that settled) */
  identity?: FileIdentity;
}

export interface EnqueueResult {
  item: UploadItem;
  /** `new`: queued now; `resumed`: an unfinished (or failed) upload of the same file; `done`: already uploaded */
  outcome: 'new' | 'resumed' | 'done';
}

/** What enqueueing needs of the queue. */
export interface EnqueueHost {
  store: UploadStore;
  /** the chunk size of a new item */
  chunkSize: number;
  /** whether the account is signed in (it has a client) */
  hasClient(accountId: string): boolean;
  isRunning(id: number): boolean;
  retry(id: number): Promise<UploadItem | undefined>;
  moveToAccount(ids: readonly number[], accountId: string, folderId: number | null): UploadItem[];
  /** a new item is stored */
  added(item: UploadItem): void;
}

/**
 * Puts a file in the queue (UploadQueue.enqueue): resumes its unfinished
 * upload if it has one, answers the done one if this version went already
 * (unless `force`), else stores a new item.
 */
export async function enqueue(input: EnqueueInput, host: EnqueueHost): Promise<EnqueueResult> {
  const path = resolve(input.path);
  const metadata = UpdateFileBodySchema.safeParse(input.metadata ?? {});
  // the contract refuses such details first; here too they are a mistake in what was asked, not a failure to log
  if (!metadata.success) {
    throw new CoreError('VALIDATION_ERROR', `Invalid file details: ${z.prettifyError(metadata.error)}`);
  }
  const identity = input.identity ?? (await quickFingerprint(path));
  const store = host.store;
  let existing = await unfinishedUploadOf(store, path);
  if (existing && existing.accountId !== input.accountId && !host.hasClient(existing.accountId)) {
    // queued for an account signed out since: the file goes to the account it is asked for now
    [existing] = host.moveToAccount([existing.id], input.accountId, input.folderId ?? null);
  }
  if (existing) return { item: await resumeWith(existing, identity, host), outcome: 'resumed' };
  if (!input.force) {
    const done = store.findDone(path, identity, input.accountId);
    if (done) return { item: done, outcome: 'done' };
  }
  const item = store.insert({
    accountId: input.accountId,
    path,
    // the name the file has on the service: composed, whatever the disk holds (UploadItemSchema)
    fileName: basename(path).normalize('NFC'),
    identity,
    visibility: input.visibility ?? null,
    metadata: input.metadata ?? {},
    folderId: input.folderId ?? null,
    chunkSize: host.chunkSize,
  });
  host.added(item);
  return { item, outcome: 'new' };
}

/**
 * The unfinished upload of the file at `path`: at this path, or at another
 * spelling of its name that is the same file on disk (a file system that
 * ignores the difference). On one that keeps both (Linux), two spellings
 * are two files, each with its own upload.
 */
async function unfinishedUploadOf(store: UploadStore, path: string): Promise<UploadItem | undefined> {
  for (const item of store.findUnfinishedByPath(path)) {
    if (item.path === path || (await sameFileOnDisk(item.path, path))) return item;
  }
  return undefined;
}

/**
 * The unfinished upload of a file enqueued again: a failed one goes back
 * in line. Given another version of the file than the item's (a folder's
 * file that settled after a change, or a person uploading it again), an
 * item not running starts over from it, at once: a wait for the file to
 * settle (`changed`) is over. One whose last request may have made a file
 * (`finalSent`) is left to look for that file first.
 */
async function resumeWith(item: UploadItem, identity: FileIdentity, host: EnqueueHost): Promise<UploadItem> {
  const store = host.store;
  const other = !sameVersion(identity, item);
  if (other && !host.isRunning(item.id) && !item.finalSent) store.restart(item.id, { identity });
  const state = item.state;
  if (state.kind === 'failed' || (state.kind === 'retrying' && state.changed && other)) {
    return (await host.retry(item.id)) ?? item;
  }
  return store.get(item.id) ?? item;
}
