import * as z from 'zod';

/**
 * The rule that leaves a file under a watched folder alone, named so a
 * person can be told which one ("why this file?", a folder's rule preview).
 * Name rules (hidden, litter, the folder's globs) are checked on the path;
 * file rules (type, size, modified after) on the file's stat.
 */
export const LeftAloneSchema = z.discriminatedUnion('rule', [
  /** a segment of the path starts with '.' */
  z.object({ rule: z.literal('hidden'), segment: z.string() }),
  /** one of the names never uploaded (DEFAULT_IGNORED_NAMES: `*.part`, `Thumbs.db` …) */
  z.object({ rule: z.literal('litter'), pattern: z.string() }),
  /** one of the folder's own ignore globs */
  z.object({ rule: z.literal('glob'), pattern: z.string() }),
  /** the folder does not include its subfolders */
  z.object({ rule: z.literal('inSubfolder') }),
  /** a subfolder the folder's files are moved into after their upload */
  z.object({ rule: z.literal('movedInto'), subfolder: z.string() }),
  /** the folder's file types (names of the groups or extensions it takes) */
  z.object({ rule: z.literal('type'), allowed: z.array(z.string()) }),
  /** the folder's size limits, in bytes (null: none on that side) */
  z.object({ rule: z.literal('size'), min: z.number().nullable(), max: z.number().nullable() }),
  /** the folder takes only files modified after `after` (epoch ms) */
  z.object({ rule: z.literal('modified'), after: z.number() }),
]);
export type LeftAlone = z.infer<typeof LeftAloneSchema>;
export type LeftAloneRule = LeftAlone['rule'];
