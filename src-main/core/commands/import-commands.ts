import type { RemoteJob } from '../../../src-shared/api/index.js';
import type { CoreServices, HandlersOf } from './handlers.js';

/** The account's remote imports: a job a page has seen is followed until it ends (notifications, its file's conversion). */
export function importCommands({
  accounts,
  imports,
}: Pick<CoreServices, 'accounts' | 'imports'>): HandlersOf<'imports'> {
  const followed = (accountId: string, job: RemoteJob) => {
    imports.observe(accountId, [job]);
    return job;
  };
  return {
    'imports:create': async ({ accountId, body }) => {
      const jobs = await accounts.client(accountId).createRemoteUploads(body);
      imports.observe(accountId, jobs);
      return jobs;
    },
    'imports:list': async ({ accountId, page }) => {
      const result = await accounts.client(accountId).listRemoteUploads({ page });
      imports.observe(accountId, result.data);
      return result;
    },
    'imports:get': async ({ accountId, jobId }) =>
      followed(accountId, await accounts.client(accountId).getRemoteUpload(jobId)),
    'imports:cancel': async ({ accountId, jobId }) => {
      const client = accounts.client(accountId);
      return followed(accountId, (await client.cancelRemoteUpload(jobId)) ?? (await client.getRemoteUpload(jobId)));
    },
    'imports:retry': async ({ accountId, jobId }) => {
      const client = accounts.client(accountId);
      return followed(accountId, (await client.retryRemoteUpload(jobId)) ?? (await client.getRemoteUpload(jobId)));
    },
  };
}
