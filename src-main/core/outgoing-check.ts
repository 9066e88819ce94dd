import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod';

/**
 * Whether the core checks what it sends against its contract: in tests (the
 * test runner sets NODE_ENV to `test`, and the processes a test starts
 * inherit it). Elsewhere the core builds what it sends from the contract's
 * own types and sends it as it is: parsing each answer and event again cost
 * every file a few schema walks, for nothing a person could see.
 */
export const CHECK_OUTGOING = process.env['NODE_ENV'] === 'test';

/**
 * `value` as the contract's `schema` has it, and, when `check`, the proof:
 * the schema must take it as it is. A default it would fill or a field it
 * would drop means the core sends more or less than the contract says, so in
 * a test that is an error naming `what`, not a difference production would
 * hide.
 */
export function outgoing(schema: z.ZodType, value: unknown, what: string, check: boolean): unknown {
  if (!check) return value;
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new Error(`The core sent ${what} that its contract refuses: ${z.prettifyError(parsed.error)}`);
  }
  if (!isDeepStrictEqual(parsed.data, value)) {
    throw new Error(`The core sent ${what} that its contract would change (a default filled or a field dropped).`);
  }
  return parsed.data;
}
