import type { MediaFile } from '../../src-shared/api/index.js';
import { ackedBytes } from '../../src-shared/model/chunk-bytes.js';
import type { UploadItem } from '../../src-shared/model/upload-state.js';
import type { ChunkInfo, MediaApiClient, UploadAck } from '../api-client/media-api-client.js';
import { ApiError } from '../api-client/api-error.js';
import { FileChangedError, WHOLE_BODY_BYTES } from '../api-client/multipart-body.js';
import type { Clock } from '../common/clock.js';
import { fileCalls } from '../common/file-calls.js';
import { sameVersion, type FileIdentity } from '../common/file-fingerprint.js';
import { NotRegularFileError } from '../common/open-regular.js';
import type { BandwidthLimiter } from './bandwidth-limiter.js';
import { LaneGovernor } from './lane-governor.js';
import { FileUnreadableError, TooLargeError, UploadRejectedError } from './upload-errors.js';
import { assertUnchanged, identityNow, rangeOf, readIdentity } from './upload-source.js';
import type { UploadStore } from './upload-store.js';
import { nodeCrypto } from '../common/lazy-builtins.js';

/** Bytes of a running upload: acknowledged (committed) and sent (acknowledged + in flight). */
export interface UploadProgress {
  ackedBytes: number;
  sentBytes: number;
}

export interface ChunkedUploadOptions {
  client: MediaApiClient;
  store: UploadStore;
  limiter: BandwidthLimiter;
  clock: Clock;
  /** the largest file the account's plan accepts, in bytes */
  fileSizeLimit: number;
  /** chunks of this file in flight at most; more than one only while it raises the file's throughput */
  chunksPerFile: number;
  /** whether the item, not started yet, is first looked for on the service (its folder's `skipExisting`) */
  skipIfOnService: boolean;
  /** runs one upload request in one of the queue's request slots */
  withSlot<T>(signal: AbortSignal, run: () => Promise<T>): Promise<T>;
  /** bytes moved; `committed` when a chunk was just acknowledged (or the upload started over) */
  onProgress(progress: UploadProgress, committed: boolean): void;
}

/** How sending a file ended, short of a failure (thrown). */
export type SendOutcome =
  /**
   * the service has the file; `existing`: it had it already and nothing was
   * sent; `replacedStale`: copies of a version that changed as the service
   * took it were deleted, now that this one is there
   */
  | { kind: 'sent'; fileId: string; file: MediaFile | null; existing?: true; replacedStale?: true }
  /** the service made no usable file: it starts over with a new dzuuid, back in line */
  | { kind: 'restart' }
  /** stopped after the chunks in flight, each committed (`finishInFlight`): the rest is for later */
  | { kind: 'drained' };

/**
 * One file's upload, from the check of its identity to the file's id on the
 * service, then its metadata PATCH. Every step is recorded in the store, so
 * a new ChunkedUpload of the same item, after a pause, a quit or a crash,
 * goes on where this one stopped.
 *
 * Invariants:
 * - chunks go in order; another chunk of the file is opened only while it
 *   raises the file's throughput (LaneGovernor), never under a bandwidth limit;
 * - a chunk counts as sent only once its acknowledgement is committed;
 * - resuming sends exactly the chunks not acknowledged, with the same dzuuid,
 *   unless the file changed (size, mtime or fingerprint): then a new dzuuid;
 * - the last chunk goes alone, after all others; a request that may finish the
 *   file is never repeated before looking for the file it may have made;
 * - a file that changes while it is sent never lands stale or torn: size and
 *   mtime are checked before each request and again once each body's file
 *   part is read, before its closing boundary (a change cuts the request
 *   off); a change seen only once the service took the file (it changed
 *   between that check and the answer) leaves the copy recorded as stale,
 *   deleted once the new version is there. Either way FileChangedError: the
 *   item starts over from the file as it is now, once it has settled.
 */
export class ChunkedUpload {
  private item: UploadItem;
  private readonly lanes: LaneGovernor;
  /** upload requests of this file under way */
  private sending = 0;
  /** "pause after this chunk": no request starts any more */
  private draining = false;
  private ended = false;
  /** opens chunks while the lanes allow; nothing while no chunk is sent */
  private openLanes: () => void = () => undefined;

  constructor(
    item: UploadItem,
    private readonly options: ChunkedUploadOptions,
  ) {
    this.item = item;
    const limiter = options.limiter;
    this.lanes = new LaneGovernor({
      max: options.chunksPerFile,
      clock: options.clock,
      limited: () => limiter.limit !== null,
    });
  }

  /**
   * Sends what the service does not have yet; throws what failed. A file
   * that changed throws FileChangedError with the item started over from
   * the file as it is now (a new dzuuid, its new size, mtime and fingerprint).
   */
  async send(signal: AbortSignal): Promise<SendOutcome> {
    try {
      const existing = await this.foundOnService();
      if (existing) return existing;
      const sent =
        this.item.fileId !== null
          ? ({ kind: 'sent', fileId: this.item.fileId, file: null } as const)
          : await this.upload(signal);
      return sent.kind === 'sent' ? await this.dropStaleCopies(sent) : sent;
    } catch (error) {
      if (error instanceof FileChangedError) this.startOver(await readIdentity(this.item.path));
      throw error;
    } finally {
      this.ended = true;
    }
  }

  /**
   * "Pause after this chunk": no request starts any more; those under way
   * finish and are committed, then `send` ends `drained` (or `sent`, when the
   * one under way finishes the file). False when none is under way: there is
   * nothing to wait for.
   */
  finishInFlight(): boolean {
    if (this.sending === 0) return false;
    this.draining = true;
    return true;
  }

  /** Takes `finishInFlight` back; false when it is too late (the upload ended). */
  keepGoing(): boolean {
    if (this.ended) return false;
    this.draining = false;
    this.openLanes();
    return true;
  }

  /** Whether the file has details to send once it exists (`applyMetadata`). */
  hasMetadata(): boolean {
    return Object.keys(this.metadataPatch()).length > 0;
  }

  /**
   * `name`, `description`, `allow_online_watch` and `password`, in one PATCH
   * once the file exists, only when set. The file id is committed first: a
   * crash meanwhile finds the file by it, not by a search.
   */
  async applyMetadata(fileId: string, signal: AbortSignal): Promise<void> {
    const patch = this.metadataPatch();
    if (Object.keys(patch).length === 0) return;
    this.options.store.recordFileId(this.item.id, fileId);
    if (signal.aborted) throw signal.reason;
    await this.options.client.updateFile(fileId, patch, 'upload');
    if (patch['password'] !== undefined) this.options.store.forgetPassword(this.item.id);
  }

  private metadataPatch(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.item.metadata).filter(([, value]) => value !== undefined));
  }

  /**
   * For an item whose folder skips what is on the service already, before
   * its first byte: one search by name; a file of that name and size ends the
   * item as done, `existing`, without sending anything. Files this app
   * uploaded count too: they are on the service.
   */
  private async foundOnService(): Promise<SendOutcome | null> {
    const item = this.item;
    const untouched = item.fileId === null && item.dzuuid === null && item.ackedChunks.length === 0 && !item.finalSent;
    if (!untouched || !this.options.skipIfOnService) return null;
    const found = await this.options.client.findUploadedFile(item.fileName, item.size, () => false);
    if (!found) return null;
    return { kind: 'sent', fileId: found.id, file: null, existing: true };
  }

  /**
   * The file as it is now becomes the item's: a new dzuuid, from the first
   * byte, once the runner saw it settle (its `changed` wait). Copies of the
   * earlier version already on the service stay recorded as stale.
   */
  private startOver(identity: FileIdentity): void {
    const store = this.options.store;
    store.restart(this.item.id, { identity });
    this.item = store.get(this.item.id)!;
    this.report({ ackedBytes: 0, sentBytes: 0, committed: true });
  }

  private async upload(signal: AbortSignal): Promise<SendOutcome> {
    const { store, client } = this.options;
    const item = this.item;
    const identity = await identityNow(item);
    const changed = !sameVersion(identity, item);
    if (item.finalSent) {
      // the last request may have made the file without our hearing back: look before sending again
      const found = await client.findUploadedFile(item.fileName, item.size, (id) => store.isKnownFileId(id));
      if (found && !changed) return this.checkedSent({ kind: 'sent', fileId: found.id, file: null });
      // made from the version before the change (a quit or crash came before the answer): stale now
      if (found) store.addStaleCopy(item.id, found.id);
      else store.setFinalSent(item.id, false);
    }
    // the file on disk is not the one the upload started from: start over once it has settled
    if (changed) throw new FileChangedError(item.path);
    const limit = this.options.fileSizeLimit;
    if (item.size > limit) throw new TooLargeError(item.size, limit);

    const outcome = item.size <= item.chunkSize ? await this.sendWhole(signal) : await this.sendChunks(signal);
    return outcome.kind === 'sent' ? this.checkedSent(outcome) : outcome;
  }

  /**
   * A file up to the chunk size, in one request. One small enough to be read
   * whole before it is sent (WHOLE_BODY_BYTES) is checked once read, by its
   * body, not also before (a third look at a photo that had just settled):
   * one that cannot be read then is FileUnreadableError, as the look before
   * would have said.
   */
  private async sendWhole(signal: AbortSignal): Promise<SendOutcome> {
    const onProgress = (sentBytes: number) => this.report({ ackedBytes: 0, sentBytes });
    const selfChecked = this.item.size <= WHOLE_BODY_BYTES;
    const ack = await this.sendFinal(signal, { onProgress }, selfChecked).catch((error: unknown) => {
      const unreadable =
        selfChecked &&
        !(error instanceof ApiError) &&
        ((error as NodeJS.ErrnoException).syscall || error instanceof NotRegularFileError);
      if (!unreadable) throw error;
      // read before anything was sent: no request can have made the file
      this.options.store.setFinalSent(this.item.id, false);
      throw new FileUnreadableError(this.item.path, error);
    });
    return ack ? this.finishFrom(ack) : { kind: 'drained' };
  }

  /**
   * The last look once the service has the file: a file that changed after
   * the body's own check (between its last byte and the answer) left a stale
   * copy there. It is recorded as such, to be deleted once the new version
   * is there, and the upload starts over (FileChangedError).
   */
  private async checkedSent(sent: SendOutcome & { kind: 'sent' }): Promise<SendOutcome> {
    const item = this.item;
    const now = await fileCalls.stat(item.path).catch(() => null);
    if (now?.size === item.size && now.mtimeMs === item.mtimeMs) return sent;
    this.options.store.addStaleCopy(item.id, sent.fileId);
    throw new FileChangedError(item.path);
  }

  /**
   * Deletes this item's stale copies (`checkedSent`) now that the file's
   * current version is on the service, its id committed first: a quit or a
   * failed delete meanwhile goes on with the deletes, never uploads again.
   * They are the item's as it started (or started over): a copy found stale
   * during this send ended it (FileChangedError) before it got here, so the
   * row need not be read again.
   */
  private async dropStaleCopies(sent: SendOutcome & { kind: 'sent' }): Promise<SendOutcome> {
    const { store, client } = this.options;
    const stale = this.item.staleFileIds;
    if (stale.length === 0) return sent;
    store.recordFileId(this.item.id, sent.fileId);
    for (const fileId of stale) {
      await client.deleteFile(fileId, 'upload').catch((error: unknown) => {
        // deleted already (by the person, or by us before a quit)
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      });
      store.forgetStaleCopy(this.item.id, fileId);
    }
    return { ...sent, replacedStale: true };
  }

  private async sendChunks(signal: AbortSignal): Promise<SendOutcome> {
    const { store, client } = this.options;
    const item = this.item;
    let dzuuid = item.dzuuid;
    if (!dzuuid) {
      dzuuid = nodeCrypto().randomUUID();
      store.setDzuuid(item.id, dzuuid);
    }
    const totalChunks = Math.ceil(item.size / item.chunkSize);
    const acked = new Set(item.ackedChunks);
    const inFlight = new Map<number, number>();
    let confirmed = ackedBytes(item);
    const report = ({ committed = false } = {}) => {
      let sentBytes = confirmed;
      for (const bytes of inFlight.values()) sentBytes += bytes;
      this.report({ ackedBytes: confirmed, sentBytes, committed });
    };
    const waiting = [...Array(totalChunks - 1).keys()].filter((index) => !acked.has(index));
    const chunkFor = (index: number): ChunkInfo => ({
      dzuuid,
      index,
      totalChunks,
      chunkSize: item.chunkSize,
      totalSize: item.size,
      offset: index * item.chunkSize,
    });
    const sendChunk = async (index: number): Promise<boolean> => {
      const ack = await this.request(signal, () =>
        client
          .upload({
            range: rangeOf(item, index),
            visibility: item.visibility ?? undefined,
            chunk: chunkFor(index),
            idempotent: true,
            signal,
            limiter: this.options.limiter,
            onProgress: (bytes) => {
              // a request tried again starts from 0: nothing moved then
              const moved = Math.max(0, bytes - (inFlight.get(index) ?? 0));
              inFlight.set(index, bytes);
              report();
              if (this.lanes.record(moved)) this.openLanes();
            },
          })
          .finally(() => inFlight.delete(index)),
      );
      if (!ack) return false;
      store.ackChunk(item.id, index);
      acked.add(index);
      confirmed = ackedBytes({ ...item, ackedChunks: [...acked] });
      report({ committed: true });
      return true;
    };

    // a chunk kept back by a pause after this chunk, taken back before the others ended, is sent after all
    while (waiting.length > 0) {
      await this.inOrder(waiting, signal, sendChunk);
      if (this.draining) return { kind: 'drained' };
    }
    const last = totalChunks - 1;
    const ack = await this.sendFinal(signal, {
      chunk: chunkFor(last),
      onProgress: (bytes) => {
        inFlight.set(last, bytes);
        report();
      },
    });
    if (!ack) return { kind: 'drained' };
    if (ack.fileId === null && ack.receivedChunks !== null && ack.receivedChunks < totalChunks) {
      return this.restartOnce('the server no longer had all chunks of the file');
    }
    return this.finishFrom(ack);
  }

  /**
   * Sends the chunks of `waiting` in order, as many at once as the lanes
   * allow. Those a pause after this chunk kept from starting go back to
   * `waiting`. The first failure stops the rest and is thrown once the
   * chunks in flight ended.
   */
  private inOrder(waiting: number[], signal: AbortSignal, send: (index: number) => Promise<boolean>): Promise<void> {
    return new Promise((resolve, reject) => {
      let running = 0;
      let failure: unknown;
      const open = () => {
        while (
          failure === undefined &&
          !signal.aborted &&
          !this.draining &&
          waiting.length > 0 &&
          running < this.lanes.allowed()
        ) {
          const index = waiting.shift()!;
          running++;
          send(index)
            .then(
              (sent) => {
                if (sent) return;
                waiting.push(index);
                waiting.sort((a, b) => a - b);
              },
              (error: unknown) => {
                failure ??= error;
              },
            )
            .finally(() => {
              running--;
              open();
            });
        }
        if (running > 0) return;
        this.openLanes = () => undefined;
        if (failure !== undefined) reject(failure);
        else if (signal.aborted) reject(signal.reason);
        else resolve();
      };
      this.openLanes = open;
      open();
    });
  }

  /** Bytes moved; `committed` when a chunk was just acknowledged (or the upload started over). */
  private report({ committed = false, ...progress }: UploadProgress & { committed?: boolean }): void {
    this.options.onProgress(progress, committed);
  }

  /**
   * One upload request in one of the queue's slots, the file checked first
   * unless its body checks it (`selfChecked`); null, sending nothing, when a
   * pause after this chunk came before it started.
   */
  private request<T>(signal: AbortSignal, send: () => Promise<T>, selfChecked = false): Promise<T | null> {
    return this.options.withSlot(signal, async () => {
      if (this.draining) return null;
      this.sending++;
      try {
        if (!selfChecked) await assertUnchanged(this.item);
        return await send();
      } finally {
        this.sending--;
      }
    });
  }

  /**
   * The request that may finish the file (its last chunk, or the whole file
   * without `chunk`): marked sent first, so a lost answer is looked for, never repeated.
   */
  private async sendFinal(
    signal: AbortSignal,
    { chunk, onProgress }: { chunk?: ChunkInfo; onProgress: (bytes: number) => void },
    selfChecked = false,
  ): Promise<UploadAck | null> {
    const item = this.item;
    return this.request(
      signal,
      () => {
        this.options.store.setFinalSent(item.id, true);
        return this.options.client.upload({
          range: rangeOf(item, chunk?.index ?? 'whole'),
          visibility: item.visibility ?? undefined,
          chunk,
          idempotent: false,
          signal,
          limiter: this.options.limiter,
          onProgress,
        });
      },
      selfChecked,
    );
  }

  /**
   * The file id from the answer, or from a search when the answer carried
   * none; then the size the service stored, checked against the file's.
   */
  private async finishFrom(ack: UploadAck): Promise<SendOutcome> {
    const { client, store } = this.options;
    const item = this.item;
    if (ack.fileId) {
      // an answer without the file's size costs one GET to verify it
      const stored = ack.file?.size_bytes ?? (await client.getFile(ack.fileId, 'upload')).size_bytes;
      if (stored !== item.size) return this.storedWrongSize(ack.fileId, stored, ack.requestId);
      return { kind: 'sent', fileId: ack.fileId, file: ack.file };
    }
    // a search matches the size already
    const found = await client.findUploadedFile(item.fileName, item.size, (id) => store.isKnownFileId(id));
    if (found) return { kind: 'sent', fileId: found.id, file: ack.file };
    return this.restartOnce('the server accepted every byte but made no file');
  }

  /**
   * The service made a file of another size than the one sent: that copy is
   * of no use, so it is deleted (it is ours, made a moment ago), and the
   * upload starts again from the first byte, once; a second time it fails,
   * saying what was stored.
   */
  private async storedWrongSize(fileId: string, stored: number, requestId: string | null): Promise<SendOutcome> {
    this.options.store.setFinalSent(this.item.id, false);
    await this.options.client.deleteFile(fileId, 'upload');
    const bytes = (count: number) => count.toLocaleString('en');
    const message = `The service stored ${bytes(stored)} bytes; the file has ${bytes(this.item.size)}. The incomplete copy was deleted.`;
    return this.restartOnce(message, new UploadRejectedError(message, requestId));
  }

  /**
   * A last chunk that made no usable file: start over with a new dzuuid, once;
   * a second time is a failure (`failure`, by default one that says `why`).
   */
  private restartOnce(
    why: string,
    failure = new UploadRejectedError(`Upload failed twice: ${why}. Try again later or contact the service.`),
  ): SendOutcome {
    const current = this.options.store.get(this.item.id)!;
    if (current.restarts >= 1) throw failure;
    this.options.store.restart(this.item.id, { countRestart: true });
    return { kind: 'restart' };
  }
}
