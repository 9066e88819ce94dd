import * as z from 'zod';

/**
 * Length in characters (Unicode code points), the way the API counts "max 255
 * characters": an emoji is one character, not two UTF-16 units.
 */
export function charLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/** A string of at most `max` characters (code points); `base` adds what comes first. */
export function maxChars(max: number, base = z.string()) {
  return base.refine((s) => charLength(s) <= max, {
    message: `must be at most ${max} characters`,
  });
}

/**
 * Control characters (C0, DEL, C1) and the marks that change the direction of
 * text (LRM, RLM, ALM, the embeddings, overrides and isolates): in a name they
 * hide or reorder what a person reads (`clip\u202egpj.exe` shows as `clipexe.jpg`).
 */
// eslint-disable-next-line no-control-regex -- the very characters meant
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function hasControlCharacters(text: string): boolean {
  return text.search(CONTROL_CHARACTERS) !== -1;
}

/**
 * A name as the service keeps it: control and direction characters dropped
 * (or each replaced `by`, to show where they were). One rule for every way a
 * name arrives: an uploaded file's name, PATCH `name`, an import's `name`.
 */
export function withoutControlCharacters(text: string, by = ''): string {
  return text.replace(CONTROL_CHARACTERS, by);
}
