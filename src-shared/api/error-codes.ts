import * as z from 'zod';

/**
 * Every `error.code` the API can answer with: the spec's table plus the codes
 * the reference server chose where the spec says "not shown" (marked below).
 * Closed on purpose: a new code is a contract change, made here.
 */
export const ERROR_CODES = [
  'UNAUTHENTICATED',
  'TOKEN_DISABLED',
  'TOKEN_EXPIRED',
  'TOKEN_ABILITY_DENIED',
  /** reference server: the spec's "IP blocked" 403 has no code of its own */
  'IP_NOT_ALLOWED',
  'NOT_FOUND',
  /** reference server: an address that cannot be decoded (a broken percent escape, 400) */
  'BAD_REQUEST',
  'REMOTE_JOB_NOT_CANCELLABLE',
  /** reference server: retry of a job that is not failed or cancelled */
  'REMOTE_JOB_NOT_RETRYABLE',
  'VALIDATION_ERROR',
  /** reference server: a request body over the edge proxy's cap (413) */
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'API_DISABLED',
  /** reference server: an unexpected failure (500); never carries a stack trace */
  'INTERNAL_ERROR',
] as const;

export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** The HTTP status that goes with each code. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  UNAUTHENTICATED: 401,
  TOKEN_DISABLED: 403,
  TOKEN_EXPIRED: 403,
  TOKEN_ABILITY_DENIED: 403,
  IP_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  BAD_REQUEST: 400,
  REMOTE_JOB_NOT_CANCELLABLE: 409,
  REMOTE_JOB_NOT_RETRYABLE: 409,
  VALIDATION_ERROR: 422,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  API_DISABLED: 503,
  INTERNAL_ERROR: 500,
};
