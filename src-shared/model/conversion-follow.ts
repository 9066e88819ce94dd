import * as z from 'zod';
import { MessageSchema } from '../i18n/message-schema.js';

/** What the last status answer said of the HLS conversion; `progress` only when the service gives one. */
export const ConversionSeenSchema = z.object({
  status: z.string(),
  stage: z.string(),
  /** 0–100, when the status carries a progress figure (the spec has none; a tolerant reader keeps it) */
  progress: z.number().min(0).max(100).nullable(),
});
export type ConversionSeen = z.infer<typeof ConversionSeenSchema>;

/**
 * Where a file stands after its upload (or import) finished, while the core
 * follows its HLS conversion (issue 13 §1), a union keyed on `kind`:
 *
 * ```
 *                 status: conversion pending/processing (backoff 10 s → 2 min)
 *               ┌──────┐
 *               ▼      │
 *   following ─────────┴─ status: completed ─────────▶ ready
 *       │  │  └────────── status: failed ────────────▶ failed
 *       │  └───────────── status: no conversion ─────▶ uploaded   (not a video)
 *       ├──────────────── 404 ───────────────────────▶ deleted
 *       └──────────────── 24 h without a final answer ▶ stopped
 * ```
 * A poll that fails (network, 5xx, a refused token) stays in `following`
 * and waits longer. Times are wall-clock milliseconds: they survive a restart.
 */
export const FollowStateSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('following'),
    /** polls since the conversion last moved: the next wait is 10 s doubled this many times, at most 2 min */
    polls: z.int().min(0),
    nextPollAt: z.number(),
    /** null until a status answer showed a conversion */
    conversion: ConversionSeenSchema.nullable(),
  }),
  z.object({ kind: z.literal('ready'), at: z.number() }),
  /** `reason`: the service's words, or the app's English one with `text` (a catalog message) when the service gave none */
  z.object({ kind: z.literal('failed'), reason: z.string(), text: MessageSchema.optional(), at: z.number() }),
  z.object({ kind: z.literal('uploaded'), at: z.number() }),
  z.object({ kind: z.literal('deleted'), at: z.number() }),
  z.object({ kind: z.literal('stopped'), at: z.number() }),
]);
export type FollowState = z.infer<typeof FollowStateSchema>;
export type FollowStateKind = FollowState['kind'];

/** One file the core follows (or followed) after its upload or import: a row of `conversion_follows`. */
export const ConversionFollowSchema = z.object({
  accountId: z.string(),
  fileId: z.string(),
  name: z.string(),
  /** the queue item it was uploaded by, if any */
  uploadId: z.int().positive().nullable(),
  /** the import job that made it, if any */
  jobId: z.string().nullable(),
  /** `urls.watch` of the file, once known */
  watchUrl: z.url().nullable(),
  state: FollowStateSchema,
  startedAt: z.number(),
  updatedAt: z.number(),
});
export type ConversionFollow = z.infer<typeof ConversionFollowSchema>;
