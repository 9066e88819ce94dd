import * as z from 'zod';
import { PUBLIC_VISIBILITY } from '../api/file.js';
import { CreateRemoteUploadsBodySchema, UpdateFileBodySchema } from '../api/requests.js';

/**
 * Who may see a file, in the app's one word for it wherever it is asked or
 * told (a folder's options, an upload, an import, a file's edit); only the
 * api-client turns it into the API's own (`1`/`0`, a boolean).
 */
export const VisibilitySchema = z.enum(['private', 'public']);
export type Visibility = z.infer<typeof VisibilitySchema>;

/** A file's visibility as the service lists it: `public`, else private (the spec shows no other value). */
export function visibilityOf(listed: string): Visibility {
  return listed === PUBLIC_VISIBILITY ? 'public' : 'private';
}

/** A file's changes (PATCH /files/{id}), its visibility in the app's word. */
export const FileChangesSchema = UpdateFileBodySchema.extend({ visibility: VisibilitySchema.optional() });
export type FileChanges = z.infer<typeof FileChangesSchema>;

/** Imports to start (POST /remote-uploads), their visibility in the app's word. */
export const ImportRequestSchema = CreateRemoteUploadsBodySchema.extend({ visibility: VisibilitySchema.optional() });
export type ImportRequest = z.input<typeof ImportRequestSchema>;
