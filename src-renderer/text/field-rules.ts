import type { z } from 'zod';
import { charLength } from '../../src-shared/api/index.js';
import { currentLocale, t } from '../i18n/i18n.js';
import { formatCount } from './file-columns.js';

/** The shared schemas' own words (src-shared/api/requests.ts) that the catalogs say for a person. */
const KNOWN_MESSAGES = {
  'must not be blank': 'fields.blank',
  'must be a two-letter country code': 'fields.countryCode',
  'must be an http or https URL': 'fields.httpUrl',
  'must not contain a user name or password': 'fields.userInfo',
} as const;

/**
 * The first complaint of a shared schema about one field, as a whole
 * sentence that names the field ("Name must be at most 255 characters (256
 * now)."), or null when the value passes. `label` is the field's name in the
 * UI's language. Forms check each field with the same schema the request is
 * checked with, so what the form accepts the API accepts.
 */
export function fieldError(schema: z.ZodType, value: unknown, label: string): string | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issue = result.error.issues[0];
  const field = label;
  const locale = currentLocale();
  if (!issue) return t('fields.invalid', { field });
  // maxChars (src-shared/api/text.ts) counts characters, not UTF-16 units: a refinement that says its limit
  const charLimit = /^must be at most (\d+) characters$/.exec(issue.message);
  if (charLimit && typeof value === 'string') {
    const now = charLength(value);
    const limit = Number(charLimit[1]);
    return t('fields.tooLong', { field, max: formatCount(limit, locale), now: formatCount(now, locale), count: limit });
  }
  if (issue.code === 'too_big') {
    const max = formatCount(Number(issue.maximum), locale);
    if (Array.isArray(value)) {
      return t('fields.tooManyEntries', { field, max, now: formatCount(value.length, locale), count: value.length });
    }
    if (typeof value === 'string') {
      const now = charLength(value);
      return t('fields.tooLong', { field, max, now: formatCount(now, locale), count: Number(issue.maximum) });
    }
    return t('fields.invalid', { field });
  }
  if (issue.code === 'too_small') {
    return Array.isArray(value)
      ? t('fields.tooFewEntries', {
          field,
          min: formatCount(Number(issue.minimum), locale),
          count: Number(issue.minimum),
        })
      : t('fields.empty', { field });
  }
  const known = KNOWN_MESSAGES[issue.message as keyof typeof KNOWN_MESSAGES];
  if (known) return t(known, { field });
  if (/^Invalid/i.test(issue.message)) return t('fields.invalid', { field });
  // a rule the catalogs do not know yet: the schema's own (English) words, still a whole sentence
  return t('fields.other', { field, message: issue.message });
}

/** "12 of 255 characters": the counter under a limited text field. */
export function characterCount(value: string, max: number, locale = currentLocale()): string {
  return t('fields.count', { now: formatCount(charLength(value), locale), max: formatCount(max, locale), count: max });
}
