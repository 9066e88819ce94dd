import * as z from 'zod';
import { MessageSchema } from '../i18n/message-schema.js';
import { VisibilitySchema } from './visibility.js';

/** A failure as a person reads it: what happened and, for support, the request id. */
export const UploadProblemSchema = z.object({
  /** the server's words, or the app's own in English (then also `text`) */
  message: z.string(),
  code: z.string().nullable(),
  requestId: z.string().nullable(),
  /** the app's own sentence as a catalog message, for the UI to say in its language */
  text: MessageSchema.optional(),
});
export type UploadProblem = z.infer<typeof UploadProblemSchema>;

/**
 * The state of one upload (docs/uploads.md), a union keyed on `kind`:
 *
 * ```
 *             start                  bytesSent                succeed
 *   queued ───────────▶ uploading ─────────────▶ finalizing ─────────▶ done
 *     ▲  ▲                │  │  ▲                    │
 *     │  │ interrupt      │  │  │ progress,          │ fail (retryable, attempts left)
 *     │  │                │  │  │ pauseAfterChunk    │
 *     │  └────────────────┘  │  └──                  ▼
 *     │          fail ───────┴─────────────────▶ retrying ──start──▶ uploading
 *     │                                              │ fail (final or out of attempts)
 *     │ resume / retry                               ▼
 *   paused, failed, cancelled ◀── pause / cancel ── failed
 * ```
 * `wait` keeps a queued item queued with the reason it does not start (a
 * writer holds its file); `start` takes it on once the reason is gone.
 * `changed` (the file changed under its upload) goes to `retrying` too, for
 * the file's settle window, without counting an attempt.
 * `pauseAfterChunk` marks an upload `pausing` (no new chunk starts; the runner
 * applies pause or interrupt once the chunks in flight are committed), and
 * `resume` takes the mark back. Times are wall-clock milliseconds because
 * they survive a restart.
 */
export const UploadStateSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('queued'),
    /**
     * Why it is not started though its turn came: `beingWritten`, a process
     * holds the file open for writing (Linux: a recorder between two flushes);
     * it is looked at again every few seconds and starts once closed
     */
    waiting: z.enum(['beingWritten']).optional(),
  }),
  z.object({
    kind: z.literal('uploading'),
    attempt: z.int().min(0),
    /**
     * Bytes the service acknowledged, whole chunks, committed: what a pause, a
     * quit or a dropped connection keeps (0 in rows saved before it was kept)
     */
    ackedBytes: z.number().min(0).default(0),
    /** bytes handed to the network: `ackedBytes` and those of the chunks in flight */
    sentBytes: z.number().min(0),
    totalBytes: z.number().min(0),
    /** "pause after this chunk": no new chunk starts; once those in flight are committed, the upload stops */
    pausing: z.literal(true).optional(),
  }),
  z.object({ kind: z.literal('finalizing'), attempt: z.int().min(0) }),
  z.object({
    kind: z.literal('retrying'),
    /** attempts that failed; a file that changed under its upload costs none (`changed`) */
    attempt: z.int().min(0),
    retryAt: z.number(),
    lastError: UploadProblemSchema,
    /**
     * the file changed while it was sent: the upload starts over (a new dzuuid)
     * at `retryAt` if the file stayed the same for its settle window meanwhile,
     * else it waits for another window
     */
    changed: z.literal(true).optional(),
  }),
  z.object({ kind: z.literal('paused'), until: z.number().nullable() }),
  z.object({
    kind: z.literal('done'),
    fileId: z.string(),
    finishedAt: z.number(),
    /** not sent: a file of the same name and size was on the service already (the folder's `skipExisting`) */
    existing: z.literal(true).optional(),
  }),
  z.object({ kind: z.literal('failed'), reason: UploadProblemSchema }),
  z.object({ kind: z.literal('cancelled') }),
]);
export type UploadState = z.infer<typeof UploadStateSchema>;
export type UploadStateKind = UploadState['kind'];

/** States of an upload not finished: it moves on by itself, or waits for the person (paused). */
export const UNFINISHED_KINDS: readonly UploadStateKind[] = ['queued', 'uploading', 'finalizing', 'retrying', 'paused'];

/** Unfinished and not paused: uploads that run or wait their turn. */
export const ACTIVE_KINDS: readonly UploadStateKind[] = UNFINISHED_KINDS.filter((kind) => kind !== 'paused');

/** States an upload never leaves by itself. */
export const FINAL_UPLOAD_KINDS: ReadonlySet<UploadStateKind> = new Set(['done', 'failed', 'cancelled']);

export const UPLOAD_STATE_KINDS: readonly UploadStateKind[] = [...UNFINISHED_KINDS, ...FINAL_UPLOAD_KINDS];

/** Metadata the upload request cannot carry: sent with one PATCH once the file exists, only when set. */
export const UploadMetadataSchema = z.object({
  name: z.string().optional(),
  description: z.string().nullable().optional(),
  allow_online_watch: z.boolean().optional(),
  password: z.string().nullable().optional(),
});
export type UploadMetadata = z.infer<typeof UploadMetadataSchema>;

/** One upload as the queue holds it (one row of `upload_items`). */
export const UploadItemSchema = z.object({
  id: z.int().positive(),
  accountId: z.string(),
  path: z.string(),
  /**
   * The name the file gets on the service, composed (NFC) whatever the disk
   * holds: "Café" typed on one system and read from another's disk is one
   * name, and the service's search finds it (rows saved before this, which
   * kept the disk's spelling, are composed when read)
   */
  fileName: z.string().transform((name) => name.normalize('NFC')),
  size: z.int().min(0),
  mtimeMs: z.number(),
  fingerprint: z.string(),
  /** sent in the upload itself; null leaves the server's default */
  visibility: VisibilitySchema.nullable(),
  metadata: UploadMetadataSchema,
  /** the watched folder it came from, if any */
  folderId: z.int().nullable(),
  state: UploadStateSchema,
  dzuuid: z.string().nullable(),
  chunkSize: z.int().positive(),
  ackedChunks: z.array(z.int().min(0)),
  restarts: z.int().min(0),
  finalSent: z.boolean(),
  fileId: z.string().nullable(),
  /**
   * this app's copies of an earlier version of the file on the service (it
   * changed as the service took it): deleted once the new version is there
   */
  staleFileIds: z.array(z.string()).default([]),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type UploadItem = z.infer<typeof UploadItemSchema>;
