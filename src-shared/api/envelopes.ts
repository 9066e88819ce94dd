import * as z from 'zod';
import { ErrorCodeSchema } from './error-codes.js';

/**
 * Response envelopes of the API. Response schemas are loose objects: fields the
 * spec does not list are kept, never rejected, so a newer server cannot break
 * an older client.
 */

export const PaginationMetaSchema = z.looseObject({
  current_page: z.int().min(1),
  last_page: z.int().min(1),
  per_page: z.int().min(1),
  total: z.int().min(0),
});
export type PaginationMeta = z.infer<typeof PaginationMetaSchema>;

export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.looseObject({ success: z.literal(true), data });
}

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({
    success: z.literal(true),
    data: z.array(item),
    meta: PaginationMetaSchema,
  });
}

/** 202 of POST /remote-uploads. */
export function acceptedEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({
    success: z.literal(true),
    message: z.string(),
    data: z.array(item),
  });
}

/** Per-field messages of a validation error (reference server: `error.details`). */
export const ValidationDetailsSchema = z.record(z.string(), z.array(z.string()));
export type ValidationDetails = z.infer<typeof ValidationDetailsSchema>;

export const ErrorEnvelopeSchema = z.looseObject({
  success: z.literal(false),
  error: z.looseObject({
    code: ErrorCodeSchema,
    message: z.string(),
    details: ValidationDetailsSchema.optional(),
  }),
  request_id: z.uuid(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
