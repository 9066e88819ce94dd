import * as z from 'zod';
import { API_LIMITS } from './limits.js';
import { maxChars, withoutControlCharacters } from './text.js';

/**
 * Every request of the API v1 as zod schemas with the spec's limits. The
 * reference server validates with them; the client builds requests that pass
 * them. Bodies are strict: a field the spec does not list is a mistake.
 */

// ---- query and path ------------------------------------------------------------

/** `page` (min 1) and `per_page` (default 25, max 100) of GET /files and GET /remote-uploads. */
export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(API_LIMITS.pageMin).default(API_LIMITS.pageMin),
  per_page: z.coerce.number().int().min(1).max(API_LIMITS.perPageMax).default(API_LIMITS.perPageDefault),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

export const ListFilesQuerySchema = PageQuerySchema.extend({
  search: maxChars(API_LIMITS.searchMaxChars).optional(),
});
export type ListFilesQuery = z.infer<typeof ListFilesQuerySchema>;

/** `{id}` of /files routes: a public file ID. */
export const FileIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
export const FileIdParamsSchema = z.object({ id: FileIdSchema });

/** `{id}` of /remote-uploads routes: a job UUID. */
export const JobIdParamsSchema = z.object({ id: z.uuid() });

// ---- PATCH /files/{id} ---------------------------------------------------------

const nonBlank = (s: string) => s.trim().length > 0;

/** A name a person gives a file: control and direction characters dropped, then 1 to `max` characters. */
const nameSchema = (max: number) =>
  maxChars(max, z.string().overwrite(withoutControlCharacters)).refine(nonBlank, 'must not be blank');

/** Password of a file; the spec gives no length, the reference server allows 1–255. */
export const FilePasswordSchema = z.string().min(1).max(255);

export const UpdateFileBodySchema = z.strictObject({
  name: nameSchema(API_LIMITS.fileNameMaxChars).optional(),
  description: maxChars(API_LIMITS.descriptionMaxChars).nullable().optional(),
  visibility: z.boolean().optional(),
  allow_online_watch: z.boolean().optional(),
  /** null removes the password */
  password: FilePasswordSchema.nullable().optional(),
});
export type UpdateFileBody = z.infer<typeof UpdateFileBodySchema>;

/** What an upload may ask of its file besides its visibility (sent with one PATCH once it exists), by the same rules. */
export const UploadDetailsSchema = UpdateFileBodySchema.pick({
  name: true,
  description: true,
  allow_online_watch: true,
});

// ---- POST /remote-uploads ------------------------------------------------------

/** Authority with a `user:pass@` part; WHATWG URL would accept it silently. */
export const USERINFO_PATTERN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i;

/** The longest remote URL the app sends (the spec gives none; browsers' practical limit). */
export const REMOTE_URL_MAX_CHARS = 2048;

/** A public direct HTTP/HTTPS media URL, without credentials. */
export const RemoteUrlSchema = z
  .url({ protocol: /^https?$/, message: 'must be an http or https URL' })
  .max(REMOTE_URL_MAX_CHARS)
  .refine((url) => !USERINFO_PATTERN.test(url), 'must not contain a user name or password');

/** Two-letter country code, normalised to upper case. */
export const CountryCodeSchema = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
  .transform((code) => code.toUpperCase());

export const CreateRemoteUploadsBodySchema = z.strictObject({
  urls: z.array(RemoteUrlSchema).min(1),
  name: nameSchema(API_LIMITS.remoteNameMaxChars).nullable().optional(),
  description: maxChars(API_LIMITS.descriptionMaxChars).nullable().optional(),
  folder_id: z.int().positive().nullable().optional(),
  visibility: z.boolean().optional(),
  allow_online_watch: z.boolean().optional(),
  password: FilePasswordSchema.nullable().optional(),
  blocked_countries: z.array(CountryCodeSchema).max(API_LIMITS.blockedCountriesMax).optional(),
});
export type CreateRemoteUploadsBody = z.input<typeof CreateRemoteUploadsBodySchema>;

// ---- POST /files/upload (multipart fields; every value arrives as a string) ----

/** `visibility`: `1` public, `0` private (`true`/`false` tolerated). */
export const VisibilityFieldSchema = z
  .enum(['1', '0', 'true', 'false'])
  .transform((value) => value === '1' || value === 'true');

const integerField = z
  .string()
  .regex(/^\d{1,16}$/, 'must be a non-negative integer')
  .transform(Number)
  .refine(Number.isSafeInteger, 'is too large');

export const CHUNK_FIELD_NAMES = [
  'dzuuid',
  'dzchunkindex',
  'dztotalchunkcount',
  'dzchunksize',
  'dztotalfilesize',
  'dzchunkbyteoffset',
] as const;

/**
 * The Dropzone chunk fields, checked against each other:
 * - `dzchunksize` is the client's own choice, 1 byte up to the 90 MB chunk limit;
 * - `dztotalchunkcount` = ceil(`dztotalfilesize` / `dzchunksize`);
 * - `dzchunkindex` < `dztotalchunkcount`;
 * - `dzchunkbyteoffset` = `dzchunkindex` × `dzchunksize`.
 */
export const ChunkFieldsSchema = z
  .object({
    dzuuid: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9._-]+$/, 'must be letters, digits, dots, dashes or underscores'),
    dzchunkindex: integerField,
    dztotalchunkcount: integerField.refine((n) => n >= 1, 'must be at least 1'),
    dzchunksize: integerField.refine(
      (n) => n >= 1 && n <= API_LIMITS.chunkSizeBytes,
      `must be between 1 and ${API_LIMITS.chunkSizeBytes}`,
    ),
    dztotalfilesize: integerField.refine((n) => n >= 1, 'must be at least 1'),
    dzchunkbyteoffset: integerField,
  })
  .superRefine((f, ctx) => {
    const expectedCount = Math.ceil(f.dztotalfilesize / f.dzchunksize);
    if (f.dztotalchunkcount !== expectedCount) {
      ctx.addIssue({
        code: 'custom',
        path: ['dztotalchunkcount'],
        message: `must be ${expectedCount} for ${f.dztotalfilesize} bytes in chunks of ${f.dzchunksize}`,
      });
    }
    if (f.dzchunkindex >= f.dztotalchunkcount) {
      ctx.addIssue({ code: 'custom', path: ['dzchunkindex'], message: 'must be less than dztotalchunkcount' });
    }
    if (f.dzchunkbyteoffset !== f.dzchunkindex * f.dzchunksize) {
      ctx.addIssue({ code: 'custom', path: ['dzchunkbyteoffset'], message: 'must be dzchunkindex × dzchunksize' });
    }
  });
export type ChunkFields = z.output<typeof ChunkFieldsSchema>;

/** Bytes the file part of this chunk must hold. */
export function expectedChunkLength(fields: ChunkFields): number {
  return Math.min(fields.dzchunksize, fields.dztotalfilesize - fields.dzchunkbyteoffset);
}
