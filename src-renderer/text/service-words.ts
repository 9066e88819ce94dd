import { t } from '../i18n/i18n.js';

/** Where the catalogs keep each kind of the service's words. */
const GROUPS = {
  jobStage: 'imports.stages',
  conversionStatus: 'conversion.statusWords',
  conversionStage: 'conversion.stageWords',
} as const;

/**
 * The service's own word for where a job or a conversion stands (a job's
 * stage, a conversion's status or stage) in the UI's language. The schemas
 * keep these open strings, as the spec shows only some (REMOTE_JOB_STAGES,
 * CONVERSION_STATUSES and CONVERSION_STAGES are those the catalogs know); a
 * word the catalogs do not have is shown as it came, a status capitalised.
 */
export function serviceWord(kind: keyof typeof GROUPS, word: string): string {
  const key = `${GROUPS[kind]}.${word.toLowerCase()}`;
  const said = t(key as never, { defaultValue: '' }) as string;
  if (said !== '') return said;
  return kind === 'conversionStatus' ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}
