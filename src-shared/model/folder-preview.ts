import * as z from 'zod';
import type { LeftAloneRule } from './left-alone.js';

/** The rules a preview counts left-alone files by, in the order they are said. */
export const LEFT_ALONE_RULES = [
  'type',
  'size',
  'modified',
  'hidden',
  'litter',
  'glob',
  'inSubfolder',
  'movedInto',
] as const satisfies readonly LeftAloneRule[];

/** Where a preview's walk stops: 100,000 files seen, or 10 s. */
export const PREVIEW_LIMITS = { files: 100_000, ms: 10_000 };

const Count = z.object({ files: z.int().min(0), bytes: z.number().min(0) });

/**
 * What a folder's rules do to what is in it now, before anything is queued
 * (folders:preview, `watch --dry-run`): computed by a walk that stops at
 * 100,000 files or 10 s (`stopped` says which; the counts are then of what
 * was walked).
 */
export const FolderPreviewSchema = z.object({
  /** what will be uploaded once the folder is added (or its rules saved) */
  upload: Count,
  /**
   * What the rules take that the folder has not sent: the same as `upload`
   * with "everything in it", and what "only what arrives from now on" leaves
   * where it is (then `upload` is none)
   */
  existing: Count,
  /** files the folder uploaded already (or the person declined), at the same path and size: not sent again */
  known: z.int().min(0),
  /**
   * Files a rule leaves alone, by rule. A folder a rule leaves alone (a
   * hidden one, a glob's, the after-upload subfolder) is not walked: its
   * files are not counted
   */
  leftAlone: z.object({
    files: z.int().min(0),
    byRule: z.partialRecord(z.enum(LEFT_ALONE_RULES), z.int().min(0)),
  }),
  /** null: the whole folder was walked */
  stopped: z.enum(['files', 'time']).nullable(),
});
export type FolderPreview = z.infer<typeof FolderPreviewSchema>;
