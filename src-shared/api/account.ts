import * as z from 'zod';

const count = z.int().min(0);

/** `data` of GET /account. */
export const AccountSchema = z.looseObject({
  id: z.string().min(1),
  username: z.string(),
  email: z.string(),
  status: z.boolean(),
  files: count,
  storage_bytes: count,
  remote_jobs: z.looseObject({
    pending: count,
    running: count,
    completed: count,
    failed: count,
  }),
});
export type Account = z.infer<typeof AccountSchema>;
