import {
  FILE_TYPE_GROUPS,
  FileExtensionSchema,
  type FileTypeGroup,
  type FolderOptions,
} from '../../src-shared/model/folder-options.js';
import { byteSize, type Flags } from './cli-args.js';
import { UsageError } from './cli-output.js';

/**
 * A folder's file rules from `watch`'s flags: `--types videos,pictures`
 * (or `everything`), `--ext braw,r3d`, `--min-size 1MB`, `--max-size 4GB`,
 * `--modified-after 2026-01-01` (from the start of that day, local time, or
 * an ISO date and time). A bad value is a UsageError naming the flag.
 */
export function fileRuleFlags(
  flags: Flags,
): Pick<FolderOptions, 'fileTypes' | 'minSize' | 'maxSize' | 'modifiedAfter'> {
  const minSize = byteSize(flags['min-size'], 'min-size') ?? null;
  const maxSize = byteSize(flags['max-size'], 'max-size') ?? null;
  if (minSize !== null && maxSize !== null && minSize > maxSize) {
    throw new UsageError('--min-size must not be larger than --max-size.');
  }
  return {
    fileTypes: fileTypes(flags.types, flags.ext),
    minSize,
    maxSize,
    modifiedAfter: date(flags['modified-after']),
  };
}

function fileTypes(types: string | undefined, ext: string | undefined): FolderOptions['fileTypes'] {
  const names = listOf(types);
  const extensions = listOf(ext).map((value) => {
    const parsed = FileExtensionSchema.safeParse(value);
    if (!parsed.success) throw new UsageError(`--ext takes extensions such as mp4,mov; "${value}" is not one.`);
    return parsed.data;
  });
  if (names.includes('everything')) {
    if (names.length > 1 || extensions.length > 0) {
      throw new UsageError('--types everything takes every file: leave out the other types and --ext.');
    }
    return null;
  }
  const unknown = names.find((name) => !(FILE_TYPE_GROUPS as readonly string[]).includes(name));
  if (unknown !== undefined) {
    throw new UsageError(`--types takes ${FILE_TYPE_GROUPS.join(', ')} or everything; "${unknown}" is not one.`);
  }
  if (types !== undefined && names.length === 0) throw new UsageError('--types needs at least one type.');
  if (ext !== undefined && extensions.length === 0) throw new UsageError('--ext needs at least one extension.');
  const groups = names as FileTypeGroup[];
  return groups.length + extensions.length === 0 ? null : { groups, extensions };
}

function date(value: string | undefined): number | null {
  if (value === undefined) return null;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  const at = day
    ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime()
    : /^\d{4}-\d{2}-\d{2}T/.test(value.trim())
      ? Date.parse(value.trim())
      : Number.NaN;
  const valid = day ? new Date(at).getDate() === Number(day[3]) : !Number.isNaN(at);
  if (!valid) throw new UsageError('--modified-after must be a date such as 2026-01-01 (or 2026-01-01T18:00).');
  return at;
}

/** `a,b c` → ['a', 'b', 'c'], lower case. */
function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
}
