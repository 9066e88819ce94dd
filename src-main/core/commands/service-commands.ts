import type { RemoteJob } from '../../../src-shared/api/index.js';
import { message } from '../../../src-shared/i18n/message.js';
import { CoreError } from '../../common/core-error.js';
import { OK, type CommandContext, type HandlersOf } from './command-context.js';

/** The account's files and imports on the service: each command one or two requests of the API. */
export function serviceCommands(core: CommandContext): HandlersOf<'files' | 'imports'> {
  const { engine } = core;
  // an import job a page has seen is followed until it ends (notifications, its file's conversion)
  const followed = (accountId: string, job: RemoteJob) => {
    core.imports.observe(accountId, [job]);
    return job;
  };
  return {
    'files:list': async ({ accountId, search, page, perPage }) =>
      core.client(accountId).listFiles({ search, page, per_page: perPage }),
    'files:get': async ({ accountId, fileId }) => core.client(accountId).getFile(fileId),
    'files:status': async ({ accountId, fileId }) => core.client(accountId).getFileStatus(fileId),
    'files:update': async ({ accountId, fileId, changes }) => {
      const client = core.client(accountId);
      await client.updateFile(fileId, changes);
      return client.getFile(fileId);
    },
    'files:delete': async ({ accountId, fileId }) => {
      await core.client(accountId).deleteFile(fileId);
      engine.conversions.forget(accountId, fileId);
      return OK;
    },
    'files:copyLink': async ({ accountId, fileId, kind }) => {
      const url = (await core.client(accountId).getFile(fileId)).urls[kind];
      await core.options.shell.writeClipboard(url);
      return { url };
    },
    'files:open': async ({ accountId, fileId, kind }) => {
      const url = (await core.client(accountId).getFile(fileId)).urls[kind];
      if (!/^https?:\/\//.test(url)) throw CoreError.say('UNSAFE_LINK', message('core.errors.unsafeLink'));
      await core.options.shell.openExternal(url);
      return OK;
    },

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
