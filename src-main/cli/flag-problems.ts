import type { z } from 'zod';
import { charLength } from '../../src-shared/api/index.js';

/**
 * What is wrong with what was typed, one sentence per problem, in the
 * person's words: the flag (`flags` names the request's fields: `name` →
 * `--name`), an entry of a list counted from 1 with its value, and the shared
 * schema's own reason, with how long a text is now ("--name must be at most
 * 255 characters (300 now); shorten it."). Never zod's paths (`urls[0]`).
 */
export function flagProblems(
  error: z.ZodError,
  input: Readonly<Record<string, unknown>>,
  flags: Readonly<Record<string, string>>,
): string[] {
  return error.issues.map((issue) => {
    const [field, index] = issue.path;
    const flag = flags[String(field)] ?? `--${String(field).replace(/_/g, '-')}`;
    const whole = input[String(field)];
    const value = typeof index === 'number' && Array.isArray(whole) ? (whole[index] as unknown) : whole;
    const where = typeof index === 'number' ? `Entry ${index + 1} of ${flag} (${String(value)})` : flag;
    if (typeof value === 'string' && /^must be at most \d+ characters$/.test(issue.message)) {
      return `${where} ${issue.message} (${charLength(value)} now); shorten it.`;
    }
    if (issue.code === 'too_big' && Array.isArray(value)) {
      return `${where} has ${value.length} entries; it takes at most ${String(issue.maximum)}.`;
    }
    return `${where} ${issue.message.startsWith('must ') ? issue.message : 'is not valid'}.`;
  });
}
