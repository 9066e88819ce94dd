/**
 * A readable message from an API `error` value whose shape the spec does not
 * fix (conversion and remote-job errors): a string, `{message}`, or anything else.
 */
export function describeErrorValue(error: unknown): string | null {
  if (error === null || error === undefined) return null;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return JSON.stringify(error);
}
