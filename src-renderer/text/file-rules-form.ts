import { FileExtensionSchema, type FileTypeGroup, type FolderOptions } from '../../src-shared/model/folder-options.js';
import { t } from '../i18n/i18n.js';

/** Decimal megabytes, as the sizes are said everywhere else. */
const MB = 1_000_000;

export type FileRules = Pick<FolderOptions, 'fileTypes' | 'minSize' | 'maxSize' | 'modifiedAfter'>;

/** A folder's file rules as the form holds them: text where a person types. */
export interface FileRulesDraft {
  everyType: boolean;
  groups: FileTypeGroup[];
  /** `braw, r3d` */
  extensionsText: string;
  /** MB, empty for no limit */
  minMb: string;
  maxMb: string;
  /** `YYYY-MM-DD` (the date input's value), empty for any date */
  modifiedAfter: string;
}

export type FileRulesErrors = Partial<Record<'types' | 'extensions' | 'size', string>>;

export function fileRulesDraft(rules: FileRules): FileRulesDraft {
  const mb = (bytes: number | null) => (bytes === null ? '' : String(bytes / MB));
  return {
    everyType: rules.fileTypes === null,
    groups: rules.fileTypes?.groups ?? [],
    extensionsText: rules.fileTypes?.extensions.join(', ') ?? '',
    minMb: mb(rules.minSize),
    maxMb: mb(rules.maxSize),
    modifiedAfter: rules.modifiedAfter === null ? '' : localDate(rules.modifiedAfter),
  };
}

/** The rules to send, or what is wrong with the draft, in the UI's language. */
export function fileRulesFromDraft(draft: FileRulesDraft): { rules: FileRules | null; errors: FileRulesErrors } {
  const errors: FileRulesErrors = {};
  const extensions: string[] = [];
  for (const value of draft.extensionsText.split(/[\s,]+/).filter((entry) => entry !== '')) {
    const parsed = FileExtensionSchema.safeParse(value);
    if (parsed.success) extensions.push(parsed.data);
    else errors.extensions ??= t('folderRules.extensionsError', { value });
  }
  if (!draft.everyType && draft.groups.length + extensions.length === 0 && !errors.extensions) {
    errors.types = t('folderRules.typesNone');
  }
  const minSize = bytesOf(draft.minMb);
  const maxSize = bytesOf(draft.maxMb);
  if (minSize === undefined || maxSize === undefined || (minSize !== null && maxSize !== null && minSize > maxSize)) {
    errors.size = t('folderRules.sizeError');
  }
  if (Object.keys(errors).length > 0 || minSize === undefined || maxSize === undefined) return { rules: null, errors };
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(draft.modifiedAfter);
  return {
    rules: {
      fileTypes: draft.everyType ? null : { groups: draft.groups, extensions },
      minSize,
      maxSize,
      // the start of that day where the person is, as `watch --modified-after` takes it
      modifiedAfter: day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime() : null,
    },
    errors,
  };
}

/** null for empty, undefined for what is not a size. */
function bytesOf(text: string): number | null | undefined {
  if (text.trim() === '') return null;
  const mb = Number(text.trim().replace(',', '.'));
  return Number.isFinite(mb) && mb >= 0 ? Math.round(mb * MB) : undefined;
}

function localDate(epochMs: number): string {
  const date = new Date(epochMs);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
