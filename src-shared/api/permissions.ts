import * as z from 'zod';

/** Token permissions of the spec ("Authentication", item 3). */
export const TOKEN_PERMISSIONS = ['files:read', 'files:write', 'remote:write'] as const;
export const TokenPermissionSchema = z.enum(TOKEN_PERMISSIONS);
export type TokenPermission = z.infer<typeof TokenPermissionSchema>;
