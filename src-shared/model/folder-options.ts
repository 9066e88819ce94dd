import * as z from 'zod';
import { VisibilitySchema } from './visibility.js';

/** What happens to a local file once it is on the service. */
export const AfterUploadSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('keep') }),
  /** moved into a subfolder of the watched folder (which is then never watched) */
  z.object({
    kind: z.literal('move'),
    subfolder: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[^/\\]+$/, 'must be a folder name, not a path')
      .refine((name) => name !== '.' && name !== '..', 'must be a folder name'),
  }),
  z.object({ kind: z.literal('delete') }),
]);
export type AfterUpload = z.infer<typeof AfterUploadSchema>;

/**
 * "Notify me" per watched folder: each upload on its own, a summary of what
 * the folder uploads within a minute (the default), only problems, or never
 * (what happens still goes to the Activity panel).
 */
export const FOLDER_NOTIFY_MODES = ['everyFile', 'batch', 'problems', 'never'] as const;
export const FolderNotifySchema = z.enum(FOLDER_NOTIFY_MODES);
export type FolderNotify = z.infer<typeof FolderNotifySchema>;

/** The longest settle window a folder may ask for: 10 minutes. */
export const MAX_SETTLE_SECONDS = 600;
/** The settle window of the named choice "for recordings": a recorder or camera tool flushes, or pauses, for longer than 3 s. */
export const RECORDINGS_SETTLE_SECONDS = 120;
/** The windows the folder form offers (null: the app's default, 3 s). */
export const SETTLE_CHOICES = [null, 10, 30, RECORDINGS_SETTLE_SECONDS, MAX_SETTLE_SECONDS] as const;

/** The groups of file types a folder can take (file-rules.ts lists their extensions). */
export const FILE_TYPE_GROUPS = ['videos', 'pictures', 'audio'] as const;
export type FileTypeGroup = (typeof FILE_TYPE_GROUPS)[number];

/** An extension as a folder's type rule takes it: letters and digits, without the dot, lower case. */
export const FileExtensionSchema = z
  .string()
  .trim()
  .transform((value) => value.replace(/^\./, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{1,16}$/, 'must be an extension such as mp4'));

/**
 * Which files a folder takes by what they are: every file (null), or those
 * of the named groups and extensions.
 */
export const FileTypesSchema = z
  .object({
    groups: z.array(z.enum(FILE_TYPE_GROUPS)).default([]),
    extensions: z.array(FileExtensionSchema).default([]),
  })
  .refine((types) => types.groups.length + types.extensions.length > 0, 'must name at least one type');
export type FileTypes = z.output<typeof FileTypesSchema>;

/** Per-folder choices (docs/ARCHITECTURE.md, Folders). Defaults are what a newcomer expects: private, keep the file. */
export const FolderOptionsSchema = z
  .object({
    visibility: VisibilitySchema.default('private'),
    /** null leaves the server's default */
    allowOnlineWatch: z.boolean().nullable().default(null),
    includeSubfolders: z.boolean().default(true),
    /** false: only files that appear after the folder was added */
    uploadExisting: z.boolean().default(true),
    afterUpload: AfterUploadSchema.default({ kind: 'keep' }),
    /**
     * Before a file's first byte, one search: a file of the same name and size
     * already on the account is not sent again (the item ends "Already on the
     * service"). Off by default: a name and a size are a guess, not proof.
     */
    skipExisting: z.boolean().default(false),
    ignoreGlobs: z.array(z.string().min(1)).default([]),
    /**
     * How long a file must stay unchanged (size and mtime) before it is taken
     * as complete, in seconds; null: the app's default (3 s). Longer for a
     * folder a recorder writes in bursts ("for recordings": 2 minutes)
     */
    settleSeconds: z.int().min(1).max(MAX_SETTLE_SECONDS).nullable().default(null),
    /**
     * Look for changes by polling (Settings: every minute) rather than by the
     * system's change events, for a folder whose file system does not announce
     * changes and is not recognised as such (a network share, FUSE and 9p are)
     */
    checkByPolling: z.boolean().default(false),
    // ---- file rules (file-rules.ts): by a file's type, size and age; the defaults take every file
    /** null: every type */
    fileTypes: FileTypesSchema.nullable().default(null),
    /** bytes; a smaller file is left alone (null: no minimum) */
    minSize: z.int().min(0).nullable().default(null),
    /** bytes; a larger file is left alone (null: no maximum) */
    maxSize: z.int().min(0).nullable().default(null),
    /** epoch ms: a file last modified at or before it is left alone (null: any age) */
    modifiedAfter: z.number().nullable().default(null),
    /** what the folder's uploads tell the person (docs/ui.md, Notifications) */
    notify: FolderNotifySchema.default('batch'),
  })
  .refine((options) => options.minSize === null || options.maxSize === null || options.minSize <= options.maxSize, {
    message: 'the minimum size must not be above the maximum',
    path: ['minSize'],
  });
export type FolderOptions = z.output<typeof FolderOptionsSchema>;
export type FolderOptionsInput = z.input<typeof FolderOptionsSchema>;

export const WatchedFolderSchema = z.object({
  id: z.int().positive(),
  accountId: z.string(),
  path: z.string(),
  options: FolderOptionsSchema,
  createdAt: z.number(),
});
export type WatchedFolder = z.infer<typeof WatchedFolderSchema>;
