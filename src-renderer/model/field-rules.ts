import type { z } from 'zod';
import { charLength } from '../../src-shared/api/index.js';

/** zod's own wording ("Too big: expected string to have <=255 characters") in the words of the shared schemas. */
function issueText(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === 'too_big') {
    const max = String(issue.maximum);
    return Array.isArray(value) ? `can have at most ${max} entries` : `must be at most ${max} characters`;
  }
  if (issue.code === 'too_small') {
    return Array.isArray(value) ? `needs at least ${String(issue.minimum)}` : 'must not be empty';
  }
  if (/^Invalid/i.test(issue.message)) return 'is not valid';
  return issue.message;
}

/**
 * The first complaint of a shared schema about one field, as a sentence that
 * names the field ("Name must be at most 255 characters (256 now)."), or null
 * when the value passes. Forms check each field with the same schema the
 * request is checked with, so what the form accepts the API accepts.
 */
export function fieldError(schema: z.ZodType, value: unknown, label: string): string | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issue = result.error.issues[0];
  const message = issue ? issueText(issue, value) : 'is not valid';
  if (/at most \d+ characters/.test(message) && typeof value === 'string') {
    return `${label} ${message} (${charLength(value)} now).`;
  }
  if (/at most \d+ entries/.test(message) && Array.isArray(value)) {
    return `${label} ${message} (${value.length} now).`;
  }
  return `${label} ${message}.`;
}

/** "12 of 255 characters": the counter under a limited text field. */
export function characterCount(value: string, max: number): string {
  return `${charLength(value)} of ${max} characters`;
}
