import * as z from 'zod';
import {
  AccountSchema,
  FileDetailSchema,
  FileIdSchema,
  FileSchema,
  FileStatusSchema,
  PLANS,
  PaginationMetaSchema,
  RemoteJobSchema,
  UploadDetailsSchema,
} from '../api/index.js';
import { MessageSchema } from '../i18n/message-schema.js';
import type { AppErrorCode } from './app-error-codes.js';
import { ConversionFollowSchema, type ConversionFollow } from '../model/conversion-follow.js';
import { FilesLinkSchema, ImportLinkSchema, InvalidLinkSchema } from '../model/deep-link.js';
import { FolderOptionsSchema, WatchedFolderSchema } from '../model/folder-options.js';
import { FolderPollingSchema, FolderStateSchema, FolderStatusSchema } from '../model/folder-status.js';
import { LeftAloneSchema } from '../model/left-alone.js';
import { FolderPreviewSchema } from '../model/folder-preview.js';
import { QueueHoldSchema } from '../model/queue-hold.js';
import { QueuePauseSchema } from '../model/queue-pause-schema.js';
import { FileChangesSchema, ImportRequestSchema, VisibilitySchema } from '../model/visibility.js';
import { WhenDoneActionSchema, WhenDoneViewSchema } from '../model/when-done.js';
import { NotificationKindSchema, SettingsChangeSchema, SettingsSchema } from '../model/settings.js';
import { UpdateStatusSchema } from '../model/update-status.js';
import { UploadItemSchema, UploadMetadataSchema, UploadStateSchema, type UploadItem } from '../model/upload-state.js';

/**
 * The app's own contract between the core and any UI: one map of commands,
 * each a request and a response schema, and one map of events. Both
 * transports (Electron's preload and the headless WebSocket) carry exactly
 * these. The core parses every request with them (a payload that does not
 * parse is refused with a clear error and changes nothing) and builds its
 * answers and events from them, so its clients take those as typed
 * (contract-client.ts). Names are `namespace:verb`.
 *
 * A token crosses this boundary once, inward, in `account:signIn`; nothing
 * that goes out ever holds one.
 */

// ---- shared shapes -----------------------------------------------------------------

/** An error as it crosses the boundary: what a person reads, and the request id for support. */
export const IpcErrorSchema = z.object({
  code: z.string(),
  /** in English (the core's own sentences) or as the server sent it */
  message: z.string(),
  requestId: z.string().nullable(),
  /** the core's own sentence as a catalog message, for the UI to show in its language; absent for a server's */
  text: MessageSchema.optional(),
  /**
   * A refusal's reasons per field of the request, as the service gave them
   * (`urls.2` → ["The target address is not allowed."]); only when it gave
   * them as field paths and sentences (model/field-reasons.ts)
   */
  fields: z.record(z.string(), z.array(z.string())).optional(),
});
export type IpcError = z.infer<typeof IpcErrorSchema>;

const AccountId = z.string().min(1);
const ItemId = z.int().positive();
const JobId = z.uuid();
/** when a person's pause ends (epoch ms); null or absent: until resumed */
const PauseUntil = z.int().positive().nullable().default(null);

/** A signed-in account as the UI sees it (never its token). */
export const AccountViewSchema = z.object({
  id: AccountId,
  baseUrl: z.string(),
  username: z.string().nullable(),
  plan: z.enum(PLANS),
  /** why the server refused the token, when it did: the queue of this account waits */
  blocked: IpcErrorSchema.nullable(),
  /** how the token is kept, said plainly in English (e.g. "a file only your user can read", "not encrypted: no keyring") */
  tokenStorage: z.string(),
  /** the same as a catalog message, for the UI to say in its language (a phrase, as `tokenStorage`) */
  tokenStorageText: MessageSchema.optional(),
});
export type AccountView = z.infer<typeof AccountViewSchema>;

/**
 * An upload as the UI sees it: the file password never leaves the core (the
 * schema drops it even from a raw item), only whether one will be set.
 */
export const UploadItemViewSchema = UploadItemSchema.omit({
  metadata: true,
  fingerprint: true,
  staleFileIds: true,
}).extend({
  metadata: UploadMetadataSchema.omit({ password: true }).extend({ hasPassword: z.boolean().default(false) }),
  /** once done: the file's conversion as the core follows it (converting, ready to watch…); null before */
  afterUpload: ConversionFollowSchema.nullable().default(null),
  /** once done: the file at its path has changed since (a later version was queued), so this upload is not its content */
  changedSinceUpload: z.boolean().default(false),
  /**
   * a page sent the file (dropped on it, or Add files… in a browser): `path` is the core's temporary copy,
   * deleted once uploaded, so its name (and once uploaded its link) is what there is to copy
   */
  fromBrowser: z.boolean().default(false),
});
export type UploadItemView = z.infer<typeof UploadItemViewSchema>;

export function toUploadItemView(
  item: UploadItem,
  afterUpload: ConversionFollow | null = null,
  changedSinceUpload = false,
  fromBrowser = false,
): UploadItemView {
  // built, not parsed: the item is the core's own, checked as it entered, and a parse of each was a fortieth
  // of a small file's CPU (every change of every item is sent as a view)
  const { fingerprint: _fingerprint, staleFileIds: _staleFileIds, metadata: withPassword, ...shown } = item;
  const { password, ...metadata } = withPassword;
  return {
    ...shown,
    metadata: { ...metadata, hasPassword: Boolean(password) },
    afterUpload,
    changedSinceUpload,
    fromBrowser,
  };
}

/** The request budget of an account, for the rate-limit indicator. */
export const RateLimitViewSchema = z.object({
  accountId: AccountId,
  limit: z.int().nullable(),
  remaining: z.int().nullable(),
  /** 0 when open; counts down while a Retry-After or an API switch holds requests */
  gateOpensInMs: z.int().min(0),
  gateReason: z.enum(['rate-limited', 'api-disabled']).nullable(),
});
export type RateLimitView = z.infer<typeof RateLimitViewSchema>;

export const QueueStatusSchema = z.object({
  /** the person's own pause, null when running */
  pause: QueuePauseSchema.nullable(),
  /** the app's own hold (the schedule's pause, the battery, a metered connection), apart from the person's pause: uploads wait while either holds */
  hold: QueueHoldSchema.nullable().default(null),
  active: z.int().min(0),
  /** the limit in force: a schedule window's, the Bandwidth setting, or a metered connection's when lower */
  bandwidthBytesPerSecond: z.int().positive().nullable(),
  /** whose limit is in force */
  bandwidthBy: z.enum(['setting', 'schedule', 'metered']).default('setting'),
  /** "When done": what runs once the queue is done, and its countdown; null when nothing is chosen */
  whenDone: WhenDoneViewSchema.nullable().default(null),
});
export type QueueStatus = z.infer<typeof QueueStatusSchema>;

/** An upload as the tray and the taskbar follow its bytes: what moved (the running ones' progress included). */
const UploadProgressSchema = UploadItemSchema.pick({
  id: true,
  fileName: true,
  size: true,
  chunkSize: true,
  ackedChunks: true,
  state: true,
});
export type UploadProgress = z.infer<typeof UploadProgressSchema>;

/** The queue summed up for the desktop's tray and taskbar (uploads:overview); never its history. */
export const QueueOverviewSchema = z.object({
  /** the uploads not final, in queue order */
  unfinished: z.array(UploadProgressSchema),
  /** those being sent now */
  running: z.array(UploadProgressSchema),
  /** queued, or waiting to retry */
  waiting: z.int().min(0),
  failed: z.int().min(0),
  /** those of the asked ids (`ended`) that are final now (done, failed, cancelled); absent: still unfinished, or removed */
  ended: z.array(UploadProgressSchema),
});
export type QueueOverview = z.infer<typeof QueueOverviewSchema>;

/**
 * What a notification says as catalog messages, so a page shows it in its
 * own language (a browser's may differ from the headless daemon's) and a
 * change of language reaches the feed. `body` null: the body is not the
 * app's sentence (a server's reason, file names) and is shown as sent.
 */
export const NotificationTextSchema = z.object({
  title: MessageSchema,
  body: MessageSchema.nullable(),
});
export type NotificationText = z.infer<typeof NotificationTextSchema>;

export const NotificationSchema = z.object({
  id: z.int().positive(),
  kind: NotificationKindSchema,
  /** `text.title` in the core's language (OS notifications) */
  title: z.string(),
  /** `text.body` in the core's language, or the server's reason or the file names as they are */
  body: z.string(),
  text: NotificationTextSchema,
  /** epoch ms */
  at: z.number(),
  /** the file page it is about, opened on click */
  link: z.url().nullable(),
  requestId: z.string().nullable(),
  /**
   * true: for the Activity panel only, never a toast or an OS notification
   * (notifications are snoozed, or the watched folder's "Notify me" leaves it out)
   */
  quiet: z.boolean().optional(),
  /** up to 3 of the files a batch names, for their Copy link */
  files: z
    .array(z.object({ accountId: AccountId, fileId: z.string(), name: z.string() }))
    .max(3)
    .optional(),
});
export type Notification = z.infer<typeof NotificationSchema>;

// ---- folder picking

/**
 * Why a folder path was refused (folders:add, folders:browse): the answer's
 * code is one of these and its message a sentence naming the path, so a form
 * can show it next to the field it is about.
 */
export const FOLDER_PATH_PROBLEMS = [
  'FOLDER_PATH_NOT_ABSOLUTE',
  'FOLDER_NOT_FOUND',
  'NOT_A_FOLDER',
  'FOLDER_NOT_READABLE',
] as const satisfies readonly AppErrorCode[];
export type FolderPathProblem = (typeof FOLDER_PATH_PROBLEMS)[number];

export function isFolderPathProblem(code: string): code is FolderPathProblem {
  return (FOLDER_PATH_PROBLEMS as readonly string[]).includes(code);
}

/** At most this many subfolders in one listing: a person browses, and types a path to reach the rest. */
export const FOLDER_BROWSE_LIMIT = 1_000;

/** Windows allows paths this long (with the \\?\ prefix); POSIX systems allow fewer. */
const FolderPath = z.string().min(1).max(32_767);

/** The subfolders of one folder, sorted as a file manager sorts them (numbers by value). */
export const FolderListingSchema = z.object({
  /** the folder listed, absolute (`~` expanded) */
  path: z.string(),
  /** the folder above; null at the top: `/`, a Windows drive root (no list of drives is offered) or a share */
  parent: z.string().nullable(),
  /** the home folder of the user the core runs as */
  home: z.string(),
  entries: z.array(z.object({ name: z.string(), path: z.string() })).max(FOLDER_BROWSE_LIMIT),
  /** there are more subfolders than FOLDER_BROWSE_LIMIT: the first ones in order are listed */
  truncated: z.boolean(),
});
export type FolderListing = z.infer<typeof FolderListingSchema>;

// ---- why this file

/**
 * "Why this file?" (folders:why, `media-sync why PATH`): one answer for any
 * local path, built by the core from what it already knows (the watched
 * folders and their state, the rules, the queue, the declined files, the
 * folders' index). `verdict` is the one thing that holds for the file now,
 * the most telling first: a queue item over a rule (a file uploaded anyway is
 * uploaded), a rule over the index.
 */
export const FileWhyVerdictSchema = z.discriminatedUnion('kind', [
  /** nothing at this path */
  z.object({ kind: z.literal('missing') }),
  /** a folder or another non-file at this path */
  z.object({ kind: z.literal('notAFile') }),
  /** under no watched folder, and never queued */
  z.object({ kind: z.literal('outside') }),
  /** a rule of its folder leaves it alone */
  z.object({ kind: z.literal('leftAlone'), rule: LeftAloneSchema }),
  /** in the queue, not finished: `item.state` says what it waits for (with the folder's state) */
  z.object({ kind: z.literal('inQueue'), item: UploadItemViewSchema }),
  /** its upload failed: `item.state.reason` says why, with the request id */
  z.object({ kind: z.literal('failed'), item: UploadItemViewSchema }),
  /** the person cancelled it: the folder leaves this version alone; `itemId` null once the item left the queue */
  z.object({ kind: z.literal('declined'), itemId: z.int().positive().nullable() }),
  /** uploaded (or found on the service already) */
  z.object({
    kind: z.literal('uploaded'),
    fileId: z.string(),
    /** the file's name on the service; null when the service could not be asked */
    name: z.string().nullable(),
    /** when (epoch ms); null once its queue item is gone (the folder's index keeps no time) */
    at: z.number().nullable(),
    itemId: z.int().positive().nullable(),
    /** the page to open or share (a video's watch page); null when the service could not be asked */
    link: z.string().nullable(),
    /** the file on disk is not the version uploaded (its size or modification time differ) */
    changedSince: z.boolean(),
    /** not sent: a file of the same name and size was on the service already */
    existing: z.boolean(),
  }),
  /** in the folder before it was watched with "only new files": known, never uploaded */
  z.object({ kind: z.literal('known') }),
  /** under a watched folder, no rule leaves it alone, and the folder has not taken it in yet */
  z.object({ kind: z.literal('notSeenYet') }),
]);
export type FileWhyVerdict = z.infer<typeof FileWhyVerdictSchema>;

/** What the person can do about it, each one contract command (the UI's buttons, the CLI's hints). */
export const FileWhyActionSchema = z.discriminatedUnion('kind', [
  /** uploads:retry */
  z.object({ kind: z.literal('retry'), itemId: z.int().positive() }),
  /** uploads:addPaths with `force`; `accountId` null: the default account */
  z.object({ kind: z.literal('uploadAnyway'), accountId: z.string().nullable() }),
  /** folders:update without this glob */
  z.object({ kind: z.literal('removeRule'), folderId: z.int().positive(), pattern: z.string() }),
]);
export type FileWhyAction = z.infer<typeof FileWhyActionSchema>;

export const FileWhySchema = z.object({
  /** absolute, as asked (`~` expanded, relative paths resolved) */
  path: z.string(),
  /** the file on disk now; null when there is none */
  file: z.object({ size: z.number().min(0), mtimeMs: z.number() }).nullable(),
  /** the watched folder it is under (the innermost), with its state; null under none */
  folder: z
    .object({
      id: z.int().positive(),
      path: z.string(),
      accountId: z.string(),
      state: FolderStateSchema,
      /** checked by polling, and why; null: the system's change events (or not watched now) */
      polling: FolderPollingSchema.nullable(),
    })
    .nullable(),
  verdict: FileWhyVerdictSchema,
  actions: z.array(FileWhyActionSchema),
});
export type FileWhy = z.infer<typeof FileWhySchema>;

const FilePage = z.object({ data: z.array(FileSchema), meta: PaginationMetaSchema.nullable() });
const JobPage = z.object({ data: z.array(RemoteJobSchema), meta: PaginationMetaSchema.nullable() });
const Ok = z.object({ ok: z.literal(true) });
const FileRef = z.object({ accountId: AccountId, fileId: FileIdSchema });
const JobRef = z.object({ accountId: AccountId, jobId: JobId });

// ---- links and opened files

/** How many names of opened files an intent carries: the rest are counted, not named. */
export const OPENED_NAMES_SHOWN = 5;

/** Some files by name (the first OPENED_NAMES_SHOWN) and how many there are in all. */
const FileNamesSchema = z.object({
  count: z.int().min(0),
  names: z.array(z.string()).max(OPENED_NAMES_SHOWN),
});

/** Why an opened path was not queued: uploads:addPaths takes files only, so a folder is refused too. */
export const SKIP_REASONS = ['missing', 'folder', 'notAFile', 'unreadable'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
const SkippedFilesSchema = z.object({
  count: z.int().min(0),
  files: z.array(z.object({ name: z.string(), reason: z.enum(SKIP_REASONS) })).max(OPENED_NAMES_SHOWN),
});

/** The account opened files went to, for the toast to name it (never its token). */
const IntentAccountSchema = AccountViewSchema.pick({ id: true, username: true, baseUrl: true });

const IntentId = { id: z.int().positive() };

/**
 * What a link or opened files asked of the app, waiting for a page to act
 * on it (app:takeIntents). Acting means opening a view, filling in a field
 * or showing a toast: nothing reaches the service from an intent.
 * - `import`, `files`, `invalidLink`: a media-sync:// link (model/deep-link.ts);
 * - `filesQueued`: opened files went to the queue of the default account;
 * - `filesNotQueued`: none did: `signInFirst` (no account signed in) or
 *   `nothingQueued` (each was skipped or uploaded before).
 */
export const AppIntentSchema = z.discriminatedUnion('kind', [
  ImportLinkSchema.extend(IntentId),
  FilesLinkSchema.extend(IntentId),
  InvalidLinkSchema.extend(IntentId),
  z.object({
    kind: z.literal('filesQueued'),
    ...IntentId,
    account: IntentAccountSchema,
    queued: FileNamesSchema.extend({ count: z.int().positive() }),
    uploadedBefore: FileNamesSchema,
    skipped: SkippedFilesSchema,
  }),
  z.object({
    kind: z.literal('filesNotQueued'),
    ...IntentId,
    reason: z.enum(['signInFirst', 'nothingQueued']),
    account: IntentAccountSchema.nullable(),
    /** every path that was opened, named or not */
    opened: FileNamesSchema,
    uploadedBefore: FileNamesSchema,
    skipped: SkippedFilesSchema,
  }),
]);
export type AppIntent = z.infer<typeof AppIntentSchema>;

/** The log's days a support file can hold: the log keeps about a week at most (common/file-log.ts). */
export const SUPPORT_FILE_DAYS = { min: 1, max: 30, default: 3 } as const;
const SupportFileRequestSchema = z.object({
  days: z.int().min(SUPPORT_FILE_DAYS.min).max(SUPPORT_FILE_DAYS.max).default(SUPPORT_FILE_DAYS.default),
  includeNames: z.boolean().default(false),
});
export const SupportFilePreviewSchema = z.object({
  fileName: z.string(),
  entries: z.array(z.object({ name: z.string(), size: z.int().nonnegative() })),
  /** the zip's size in bytes */
  size: z.int().nonnegative(),
});
export type SupportFilePreview = z.infer<typeof SupportFilePreviewSchema>;

/** A link as long as this is refused at the boundary; shorter ones past DEEP_LINK_MAX_CHARS get the core's reason. */
const LINK_REQUEST_MAX_CHARS = 65_536;

function command<Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) {
  return { request, response };
}

// ---- commands ----------------------------------------------------------------------

export const IPC_COMMANDS = {
  'account:signIn': command(
    z.object({ baseUrl: z.string().min(1), token: z.string().min(1), plan: z.enum(PLANS).optional() }),
    AccountViewSchema,
  ),
  'account:signOut': command(z.object({ accountId: AccountId }), Ok),
  'account:list': command(z.object({}), z.array(AccountViewSchema)),
  /** GET /account of one account (interactive priority) */
  'account:summary': command(z.object({ accountId: AccountId }), AccountSchema),
  /** starts the bundled reference server on 127.0.0.1 and signs in to it */
  'account:startDemo': command(z.object({}), AccountViewSchema),

  'folders:list': command(z.object({}), z.array(WatchedFolderSchema)),
  'folders:add': command(
    z.object({ accountId: AccountId, path: z.string().min(1), options: FolderOptionsSchema.optional() }),
    WatchedFolderSchema,
  ),
  'folders:update': command(z.object({ id: ItemId, options: FolderOptionsSchema }), WatchedFolderSchema),
  /**
   * How many files of a folder "Delete after upload" would put in the Trash,
   * each once it is uploaded: those its options take that it has not sent
   * (`id`: a watched folder's, else null for one about to be added at `path`).
   * Asked before the option is turned on; a walk that stops at 10,000 files
   * or after 2 s (`more`: it stopped before the end)
   */
  'folders:countToRemove': command(
    z.object({ path: z.string().min(1), id: ItemId.nullable(), options: FolderOptionsSchema }),
    z.object({ files: z.int().min(0), more: z.boolean() }),
  ),
  /**
   * What a folder's options would upload and leave alone, counted before
   * anything is queued: for a watched folder (`id`) whose rules change, or
   * one about to be added at `path` (id null). A walk that stops at 100,000
   * files or 10 s (FolderPreview's `stopped`)
   */
  'folders:preview': command(
    z.object({ path: z.string().min(1), id: ItemId.nullable(), options: FolderOptionsSchema }),
    FolderPreviewSchema,
  ),
  'folders:remove': command(z.object({ id: ItemId }), Ok),
  /**
   * A folder whose account is signed out uploads to a signed-in account from
   * now on: its waiting files go there from the start, what it sent before
   * stays known as sent. Refused while the folder's own account is signed in
   */
  'folders:move': command(z.object({ id: ItemId, accountId: AccountId }), WatchedFolderSchema),
  /**
   * Answers once every file the watched folders have seen so far has settled
   * and been looked at (queued, or known already): what `media-sync watch
   * --once` waits for before it follows the uploads
   */
  'folders:whenSettled': command(z.object({}), Ok),
  /** every watched folder's live status and counts, in the order of folders:list */
  'folders:status': command(z.object({}), z.array(FolderStatusSchema)),
  /** This folder only: its new and queued files wait, the other folders go on; kept across restarts */
  'folders:pause': command(z.object({ id: ItemId }), FolderStatusSchema),
  'folders:resume': command(z.object({ id: ItemId }), FolderStatusSchema),
  /** walks the folder now, as the periodic rescan does: what the watcher missed is queued */
  'folders:rescan': command(z.object({ id: ItemId }), FolderStatusSchema),
  /** opens the watched folder itself in the system's file manager (the desktop app; the headless daemon does nothing) */
  'folders:reveal': command(z.object({ id: ItemId }), Ok),
  /**
   * "Why this file?": for any local path, the watched folder it is under and
   * that folder's state, the rule that leaves it alone, its upload, and what
   * the person can do (FileWhySchema). The path is absolute or starts with
   * `~`; reads only, and asks the service at most for an uploaded file's link
   */
  'folders:why': command(z.object({ path: FolderPath }), FileWhySchema),

  /**
   * files dropped on the window or given to `media-sync upload`; each path is checked first, and one that is
   * missing, a folder or unreadable queues none of them (its code and sentence name it)
   */
  'uploads:addPaths': command(
    z.object({
      accountId: AccountId,
      paths: z.array(z.string().min(1)).min(1),
      /** null or absent: the service's default */
      visibility: VisibilitySchema.nullable().default(null),
      /** refused here when the service would refuse it (a name over 255 characters): a typing mistake, not a failure */
      metadata: UploadDetailsSchema.optional(),
      /** upload again a file already uploaded from this computer */
      force: z.boolean().optional(),
    }),
    z.array(UploadItemViewSchema),
  ),
  'uploads:list': command(
    z.object({ offset: z.int().min(0).default(0), limit: z.int().min(1).max(10_000).default(500) }),
    z.object({ items: z.array(UploadItemViewSchema), total: z.int().min(0) }),
  ),
  'uploads:status': command(z.object({}), QueueStatusSchema),
  /** the queue summed up (the tray, the taskbar); `ended`: uploads seen unfinished before, looked up again */
  'uploads:overview': command(z.object({ ended: z.array(ItemId).default([]) }), QueueOverviewSchema),
  /** `afterChunk`: uploads with a chunk in flight finish it (committed) first, marked `pausing` meanwhile */
  'uploads:pauseAll': command(z.object({ until: PauseUntil, afterChunk: z.boolean().optional() }), QueueStatusSchema),
  'uploads:resumeAll': command(z.object({}), QueueStatusSchema),
  /** `afterChunk`: "Pause after this chunk" (after the file when it goes in one request); a later pause without it pauses at once */
  'uploads:pause': command(
    z.object({ id: ItemId, until: PauseUntil, afterChunk: z.boolean().optional() }),
    UploadItemViewSchema,
  ),
  'uploads:resume': command(z.object({ id: ItemId }), UploadItemViewSchema),
  'uploads:cancel': command(z.object({ id: ItemId }), UploadItemViewSchema),
  'uploads:retry': command(z.object({ id: ItemId }), UploadItemViewSchema),
  'uploads:clearFinished': command(z.object({}), z.object({ removed: z.int().min(0) })),
  /** "When done" for this run of the queue (`nothing` clears it, and cancels a countdown) */
  'uploads:setWhenDone': command(
    z.object({ action: z.union([WhenDoneActionSchema, z.literal('nothing')]) }),
    QueueStatusSchema,
  ),
  /** shows the local file in the system's file manager */
  'uploads:reveal': command(z.object({ id: ItemId }), Ok),

  'files:list': command(
    z.object({
      accountId: AccountId,
      search: z.string().max(255).optional(),
      page: z.int().min(1).optional(),
      perPage: z.union([z.literal(25), z.literal(50), z.literal(100)]).optional(),
    }),
    FilePage,
  ),
  'files:get': command(FileRef, FileDetailSchema),
  'files:status': command(FileRef, FileStatusSchema),
  'files:update': command(FileRef.extend({ changes: FileChangesSchema }), FileDetailSchema),
  'files:delete': command(FileRef, Ok),
  'files:copyLink': command(FileRef.extend({ kind: z.enum(['page', 'watch', 'embed']) }), z.object({ url: z.url() })),
  'files:open': command(FileRef.extend({ kind: z.enum(['page', 'watch']) }), Ok),

  'imports:create': command(z.object({ accountId: AccountId, body: ImportRequestSchema }), z.array(RemoteJobSchema)),
  'imports:list': command(z.object({ accountId: AccountId, page: z.int().min(1).optional() }), JobPage),
  /** one import job as the service has it now (`media-sync jobs show`, `import --wait`) */
  'imports:get': command(JobRef, RemoteJobSchema),
  'imports:cancel': command(JobRef, RemoteJobSchema),
  'imports:retry': command(JobRef, RemoteJobSchema),

  'settings:get': command(z.object({}), SettingsSchema),
  'settings:update': command(SettingsChangeSchema, SettingsSchema),

  /** the files followed after their upload or import, the most recently changed first (the Activity panel) */
  'conversions:list': command(
    z.object({ limit: z.int().min(1).max(1_000).default(200) }),
    z.array(ConversionFollowSchema),
  ),

  'notifications:list': command(z.object({}), z.array(NotificationSchema)),
  'notifications:clear': command(z.object({}), Ok),

  'app:rateLimits': command(z.object({}), z.array(RateLimitViewSchema)),
  /**
   * a JSON report for a support request: versions, settings, queue counts, recent errors, the log's folder
   * and its last lines; never a token
   */
  'app:diagnostics': command(z.object({}), z.object({ fileName: z.string(), json: z.string() })),
  'app:info': command(
    z.object({}),
    z.object({
      version: z.string(),
      shell: z.enum(['electron', 'headless']),
      dataDir: z.string(),
      /** the folder of the app's log files; null when this app keeps none */
      logsDir: z.string().nullable(),
    }),
  ),

  // ---- the support file (docs/ui.md, Support and logs)
  /** What a support file of these choices holds: each entry's name and size, and the zip's size; nothing is saved. */
  'support:preview': command(SupportFileRequestSchema, SupportFilePreviewSchema),
  /**
   * The support file itself, base64 in `data`: the page saves it as a
   * download (the desktop app through the system's save dialog), the CLI
   * writes it to a file. Secrets are never in it; names only with `includeNames`.
   */
  'support:build': command(SupportFileRequestSchema, SupportFilePreviewSchema.extend({ data: z.base64() })),

  // ---- links and opened files
  /**
   * A media-sync:// link, from a page, the Electron shell or a CLI: parsed,
   * kept for a page to act on, and answered with what it asked for. It never
   * starts anything on the service.
   */
  'app:openLink': command(z.object({ link: z.string().max(LINK_REQUEST_MAX_CHARS) }), AppIntentSchema),
  /**
   * Files opened with the app (a second instance, a CLI): queued for the
   * default account like uploads:addPaths, answered and kept for a page to
   * show. Relative paths are read from `workingDirectory`.
   */
  'app:openFiles': command(
    z.object({
      paths: z.array(z.string().min(1).max(32_767)).min(1).max(10_000),
      workingDirectory: z.string().min(1).optional(),
    }),
    AppIntentSchema,
  ),
  /** The intents waiting for a page, oldest first, forgotten once taken: each is acted on once. */
  'app:takeIntents': command(z.object({}), z.array(AppIntentSchema)),
  /** The computer woke or came back online (the desktop's power monitor): what waits out a backoff tries again now. */
  'app:wake': command(z.object({}), Ok),
  // ---- logs
  /** shows the log folder in the system's file manager; UNAVAILABLE where the shell cannot (headless) */
  'app:openLogsFolder': command(z.object({}), Ok),
  // ---- folder picking
  /**
   * The system's folder picker (Electron: a native dialog that can also make
   * a folder); `path` null when the person cancelled. The headless daemon has
   * no screen to show one on: it answers UNAVAILABLE, and its page browses
   * with folders:browse instead.
   */
  'app:pickFolder': command(z.object({}), z.object({ path: z.string().nullable() })),
  /**
   * The subfolders of a folder on the computer running the core, for the
   * page's own folder browser (a browser page cannot read local paths). No
   * `path`: the home folder; `~` and `~/…` start there too. Hidden folders
   * (a name starting with a dot) only with `showHidden`. A path that is not
   * absolute, missing, not a folder or unreadable gets a FolderPathProblem.
   */
  'folders:browse': command(
    z.object({ path: FolderPath.optional(), showHidden: z.boolean().default(false) }),
    FolderListingSchema,
  ),

  // ---- the desktop app's own updates
  /** `unavailable` in the headless daemon and in a development build */
  'app:updateStatus': command(z.object({}), UpdateStatusSchema),
  /** checks now, whatever the 6-hour rhythm; answers with where the check ended */
  'app:checkForUpdates': command(z.object({}), UpdateStatusSchema),
  /** "Restart to update": quits as a quit does (the queue saved), installs, starts the new version */
  'app:installUpdate': command(z.object({}), Ok),
} as const;

export type IpcCommandName = keyof typeof IPC_COMMANDS;
export type IpcRequest<N extends IpcCommandName> = z.input<(typeof IPC_COMMANDS)[N]['request']>;
export type IpcResponse<N extends IpcCommandName> = z.output<(typeof IPC_COMMANDS)[N]['response']>;

// ---- events ------------------------------------------------------------------------

export const IPC_EVENTS = {
  'account:changed': z.array(AccountViewSchema),
  'folders:changed': z.array(WatchedFolderSchema),
  /** the folders whose status changed (each whole); at most twice a second */
  'folders:statusChanged': z.array(FolderStatusSchema),
  /** an item was added or changed state */
  'uploads:itemChanged': UploadItemViewSchema,
  /** bytes moved; at most 10 per second in all */
  'uploads:progress': z.array(z.object({ id: ItemId, state: UploadStateSchema })),
  /**
   * An upload ended and the service answered with its file (after the item's `done`): its type and links, for
   * the watch link of a video or the page of any other file; `file` null when the answer carried none
   */
  'uploads:uploaded': z.object({
    id: ItemId,
    fileId: FileIdSchema,
    /** the file's name (the tray's recent uploads) */
    name: z.string(),
    file: z.object({ mime: z.string(), urls: z.object({ page: z.url(), watch: z.url() }) }).nullable(),
  }),
  'uploads:statusChanged': QueueStatusSchema,
  /** finished items left the queue without an event each (Clear finished, or the pruning after the set days) */
  'uploads:removed': z.object({ removed: z.int().positive() }),
  'imports:changed': z.object({ accountId: AccountId, jobs: z.array(RemoteJobSchema) }),
  'notifications:added': NotificationSchema,
  /** a followed file started to be followed, its conversion moved, or it ended (ready, failed, not a video…) */
  'conversions:changed': ConversionFollowSchema,
  'app:rateLimitChanged': RateLimitViewSchema,

  // ---- links and opened files
  /** intents wait: a page takes them with app:takeIntents (`count` waiting now) */
  'app:intentsAvailable': z.object({ count: z.int().positive() }),
  'app:updateChanged': UpdateStatusSchema,
} as const;

export type IpcEventName = keyof typeof IPC_EVENTS;
export type IpcEventPayload<N extends IpcEventName> = z.output<(typeof IPC_EVENTS)[N]>;

/** The result of a command as it crosses a transport. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** What the renderer talks to: one function per command, one subscription per event. */
export interface MediaSyncBridge {
  invoke<N extends IpcCommandName>(name: N, request: IpcRequest<N>): Promise<IpcResponse<N>>;
  on<N extends IpcEventName>(name: N, listener: (payload: IpcEventPayload<N>) => void): () => void;
}
