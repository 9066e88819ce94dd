import type { z } from 'zod';
import { ERROR_STATUS, type ErrorCode, type ValidationDetails } from '../../src-shared/api/index.js';

/**
 * An error the API answers with its envelope. Thrown anywhere in a handler;
 * the error handler turns it into `{success: false, error, request_id}`.
 */
export class ApiProblem extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ValidationDetails,
    /** extra response headers, e.g. Retry-After */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiProblem';
    this.status = ERROR_STATUS[code];
  }

  static validation(details: ValidationDetails, message = 'The given data was invalid.'): ApiProblem {
    return new ApiProblem('VALIDATION_ERROR', message, details);
  }

  static notFound(what = 'Resource'): ApiProblem {
    return new ApiProblem('NOT_FOUND', `${what} not found.`);
  }

  /** The edge proxy's answer to a body over its cap. */
  static tooLarge(limitBytes: number): ApiProblem {
    return new ApiProblem(
      'PAYLOAD_TOO_LARGE',
      `The request body is over the ${limitBytes}-byte limit; send large files in chunks of at most 90 MB.`,
    );
  }
}

/** Flattens zod issues into `{ "field.path": ["message", ...] }`. */
export function detailsFromZod(error: z.ZodError, prefix = ''): ValidationDetails {
  const details: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'body';
    (details[key] ??= []).push(issue.message);
  }
  return details;
}

/** Parses `value` or throws a 422 with per-field details. */
export function parseOr422<T extends z.ZodType>(schema: T, value: unknown, prefix = ''): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw ApiProblem.validation(detailsFromZod(result.error, prefix));
  return result.data;
}
