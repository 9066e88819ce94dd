import * as z from 'zod';

/** The spec names `public`; the value for a private file is not shown (the reference server says `private`). */
export const PUBLIC_VISIBILITY = 'public';

export const FileUrlsSchema = z.looseObject({
  page: z.url(),
  watch: z.url(),
  embed: z.url(),
});
export type FileUrls = z.infer<typeof FileUrlsSchema>;

const count = z.int().min(0);

/** A File as listed by GET /files. */
export const FileSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  filename: z.string(),
  mime: z.string(),
  extension: z.string(),
  size_bytes: count,
  visibility: z.string().min(1),
  password_protected: z.boolean(),
  allow_online_watch: z.boolean(),
  downloads: count,
  stream_views: count,
  urls: FileUrlsSchema,
});
export type MediaFile = z.infer<typeof FileSchema>;

/**
 * GET /files/{id}: the body is "not shown" in the spec. The reference server
 * answers a File plus `description`; a client must not rely on the extra field.
 */
export const FileDetailSchema = FileSchema.extend({
  description: z.string().nullable().optional(),
});
export type MediaFileDetail = z.infer<typeof FileDetailSchema>;

/** `YYYY-MM-DD HH:MM:SS` */
export const SQL_DATETIME_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * A conversion's statuses and stages known to the UI: the spec shows status
 * `completed` and stage `adaptive`, the reference server says the others.
 */
export const CONVERSION_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export const CONVERSION_STAGES = ['queued', 'probing', 'transcoding', 'adaptive'] as const;

/**
 * HLS conversion of a file. Values other than status `completed` and stage
 * `adaptive` are not shown in the spec, so both stay open strings here.
 */
export const ConversionSchema = z.looseObject({
  status: z.string(),
  stage: z.string(),
  attempts: count,
  duration_seconds: count,
  /** null when no error; its shape is not shown in the spec */
  error: z.unknown(),
  updated_at: z.string().regex(SQL_DATETIME_PATTERN),
});
export type Conversion = z.infer<typeof ConversionSchema>;

/** `data` of GET /files/{id}/status. */
export const FileStatusSchema = z.looseObject({
  file: z.looseObject({
    id: z.string().min(1),
    name: z.string(),
    allow_online_watch: z.boolean(),
  }),
  conversion: ConversionSchema.optional(),
});
export type FileStatus = z.infer<typeof FileStatusSchema>;
