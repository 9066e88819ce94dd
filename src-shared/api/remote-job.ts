import * as z from 'zod';

export const REMOTE_JOB_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export const RemoteJobStatusSchema = z.enum(REMOTE_JOB_STATUSES);
export type RemoteJobStatus = z.infer<typeof RemoteJobStatusSchema>;

/**
 * The stages a job is known to pass through: the spec shows `queued` and
 * `completed`, the reference server says the others. `stage` stays an open
 * string (a service may say more, shown as sent); these the UI has words for.
 */
export const REMOTE_JOB_STAGES = [
  'queued',
  'connecting',
  'downloading',
  'storing',
  'completed',
  'cancelling',
  'cancelled',
  'failed',
] as const;

/** Statuses a job never leaves on its own. */
export const FINAL_REMOTE_JOB_STATUSES: ReadonlySet<RemoteJobStatus> = new Set(['completed', 'failed', 'cancelled']);

export const RemoteJobSchema = z.looseObject({
  id: z.uuid(),
  host: z.string(),
  name: z.string(),
  status: RemoteJobStatusSchema,
  /** `queued` on creation, `completed` at the end; other values are not shown in the spec */
  stage: z.string(),
  attempts: z.int().min(0),
  bytes_downloaded: z.int().min(0),
  bytes_total: z.int().min(0).nullable(),
  progress_percent: z.number().min(0).max(100).nullable(),
  /** null when no error; the shape is not shown in the spec (reference server: `{code, message}`) */
  error: z.unknown(),
  file_id: z.string().nullable(),
});
export type RemoteJob = z.infer<typeof RemoteJobSchema>;
