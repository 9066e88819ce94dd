import { z } from 'zod';

/**
 * Length in characters (Unicode code points), the way the API counts "max 255
 * characters": an emoji is one character, not two UTF-16 units.
 */
export function charLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/** A string of at most `max` characters (code points). */
export function maxChars(max: number) {
  return z.string().refine((s) => charLength(s) <= max, {
    message: `must be at most ${max} characters`,
  });
}
