import type { RemoteJob } from '../../../src-shared/api/index.js';
import type { CommandContext, HandlersOf } from './handlers.js';

/** The account's remote imports: a job a page has seen is followed until it ends (notifications, its file's conversion). */
export function importCommands(core: Pick<CommandContext, 'imports' | 'client'>): HandlersOf<'imports'> {
  const followed = (accountId: string, job: RemoteJob) => {
    core.imports.observe(accountId, [job]);
    return job;
  };
  return {
    'imports:create': async ({ accountId, body }) => {
      const jobs = await core.client(accountId).createRemoteUploads(body);
      core.imports.observe(accountId, jobs);
      return jobs;
    },
    'imports:list': async ({ accountId, page }) => {
      const result = await core.client(accountId).listRemoteUploads({ page });
      core.imports.observe(accountId, result.data);
      return result;
    },
    'imports:get': async ({ accountId, jobId }) =>
      followed(accountId, await core.client(accountId).getRemoteUpload(jobId)),
    'imports:cancel': async ({ accountId, jobId }) => {
      const client = core.client(accountId);
      return followed(accountId, (await client.cancelRemoteUpload(jobId)) ?? (await client.getRemoteUpload(jobId)));
    },
    'imports:retry': async ({ accountId, jobId }) => {
      const client = core.client(accountId);
      return followed(accountId, (await client.retryRemoteUpload(jobId)) ?? (await client.getRemoteUpload(jobId)));
    },
  };
}
