/** The `default` of an exhaustive `switch`: a compile error when a case is missing, a throw if one slips through at run time. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
