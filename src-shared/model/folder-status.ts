import * as z from 'zod';
import { QUEUE_HOLD_REASONS } from './queue-hold.js';

/**
 * What a watched folder is doing now, in the order a person asks it: is it
 * broken, is it held, is it busy, or is it up to date. One state at a time;
 * the most pressing wins (a problem over a pause over work over "watching").
 */
export const FolderStateSchema = z.discriminatedUnion('kind', [
  /** up to date: every file seen is uploaded, skipped or failed; `since` is when that last became true (epoch ms) */
  z.object({ kind: z.literal('watching'), since: z.number() }),
  /** the first scan, a rescan, or a watcher restarted: `found` files so far */
  z.object({ kind: z.literal('scanning'), found: z.int().min(0) }),
  /** files still being written (their size or mtime still moves) */
  z.object({ kind: z.literal('settling'), files: z.int().positive() }),
  /** `files` of this folder queued or uploading; bytes of those files; `secondsLeft` null while unknown */
  z.object({
    kind: z.literal('uploading'),
    files: z.int().positive(),
    bytesDone: z.number().min(0),
    bytesTotal: z.number().min(0),
    secondsLeft: z.number().min(0).nullable(),
  }),
  /**
   * Nothing else to do but `files` of this folder the person paused in the
   * queue (a pause after a chunk keeps what was sent): bytes of those files
   */
  z.object({
    kind: z.literal('filesPaused'),
    files: z.int().positive(),
    bytesDone: z.number().min(0),
    bytesTotal: z.number().min(0),
  }),
  /**
   * Nothing of this folder moves: `by` 'folder' is this folder's own pause
   * (folders:pause), 'queue' the person's pause of the whole queue, the rest
   * the app's hold of the queue (QueueHold's reasons; its full disk is a problem, not a pause)
   */
  z.object({
    kind: z.literal('paused'),
    by: z.enum(['folder', 'queue', ...QUEUE_HOLD_REASONS]).exclude(['dataDiskFull']),
    /** when a schedule's window ends (epoch ms), else null */
    until: z.number().nullable(),
  }),
  /**
   * Something a person has to act on: the folder is gone ('missing'), its
   * drive is unmounted ('notConnected': it was on a drive of its own, and
   * is now an empty folder of another or gone with it), it cannot be read
   * ('unreadable'), the folder's disk is full ('diskFull': after-upload
   * moves fail), Media Sync's own disk is full ('dataDiskFull': its data
   * folder's; new files wait for room), the account's token is refused
   * ('signedOut'), or the account is signed out of the app ('accountGone':
   * sign in to it again, or move the folder to another account). Checked
   * again at least every 30 s.
   */
  z.object({
    kind: z.literal('problem'),
    problem: z.enum(['missing', 'notConnected', 'unreadable', 'diskFull', 'dataDiskFull', 'signedOut', 'accountGone']),
    /** since when (epoch ms) */
    since: z.number(),
    /** 'accountGone': the account signed out, to sign in to again; null when the app no longer knows it */
    account: z.object({ baseUrl: z.string(), username: z.string().nullable() }).nullable().optional(),
  }),
]);
export type FolderState = z.infer<typeof FolderStateSchema>;

/**
 * A folder checked by polling rather than by the system's change events:
 * every `everySeconds`, because its file system gives none for what others
 * write (`network`: a network share, 9p, FUSE; `fileSystem` names it) or
 * because its options ask for it (`chosen`).
 */
export const FolderPollingSchema = z.object({
  everySeconds: z.int().positive(),
  why: z.enum(['network', 'chosen']),
  /** the file system found (NFS, SMB/CIFS, FUSE…); null on one that gives change events */
  fileSystem: z.string().nullable(),
});
export type FolderPolling = z.infer<typeof FolderPollingSchema>;

/** One of the last files a folder dealt with, newest first. */
export const FolderRecentFileSchema = z.object({
  name: z.string(),
  /** absolute: what "why this file?" is asked about (a row of the card opens its answer) */
  path: z.string(),
  /** the upload's queue item, null once it left the queue */
  uploadId: z.int().positive().nullable(),
  outcome: z.enum(['uploaded', 'failed', 'skipped']),
  /** the file on the service (uploaded, or skipped as already there), else null */
  fileId: z.string().nullable(),
  at: z.number(),
  /** uploaded, and the file has changed since: its new version is in the queue */
  changedSinceUpload: z.boolean().default(false),
});
export type FolderRecentFile = z.infer<typeof FolderRecentFileSchema>;

/** At most this many recent files per folder. */
export const FOLDER_RECENT_LIMIT = 5;

/**
 * A watched folder's status (folders:status, folders:statusChanged). The
 * counts are kept in the data folder: they survive a restart and the
 * queue's clean-ups (finished items leaving the queue).
 */
export const FolderStatusSchema = z.object({
  id: z.int().positive(),
  accountId: z.string(),
  path: z.string(),
  /** this folder's own pause (folders:pause), kept across restarts */
  paused: z.boolean(),
  state: FolderStateSchema,
  counts: z.object({
    /** since local midnight */
    uploadedToday: z.int().min(0),
    uploaded: z.int().min(0),
    /** failed and not retried successfully since */
    failed: z.int().min(0),
    /** ignored by a rule, already on the service, or cancelled */
    skipped: z.int().min(0),
  }),
  /** when the last full scan ended (epoch ms), null before the first */
  lastScanAt: z.number().nullable(),
  /** how it is checked when by polling; absent: the system's change events (or not watched now) */
  polling: FolderPollingSchema.optional(),
  recent: z.array(FolderRecentFileSchema).max(FOLDER_RECENT_LIMIT),
});
export type FolderStatus = z.infer<typeof FolderStatusSchema>;
