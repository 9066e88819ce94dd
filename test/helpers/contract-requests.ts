import { join } from 'node:path';
import type { IpcCommandName } from '../../src-shared/ipc/ipc-contract.js';

/**
 * One request for every contract command, for the round trips over both
 * transports. They are chosen to be harmless against a fresh app: most refer
 * to things that do not exist and get the core's clear error back.
 */
export function requestForEveryCommand(context: {
  accountId: string;
  baseUrl: string;
  dataDir: string;
}): Record<IpcCommandName, unknown> {
  const { accountId, baseUrl, dataDir } = context;
  const file = { accountId, fileId: 'nope' };
  const job = { accountId, jobId: '00000000-0000-4000-8000-000000000000' };
  return {
    'account:signIn': { baseUrl, token: 'mfs_wrong' },
    'account:signOut': { accountId: 'unknown' },
    'account:list': {},
    'account:summary': { accountId },
    'account:startDemo': {},
    'folders:list': {},
    'folders:add': { accountId, path: join(dataDir, 'missing') },
    'folders:update': { id: 99, options: {} },
    'folders:countToRemove': { path: join(dataDir, 'missing'), id: null, options: {} },
    'folders:preview': { path: join(dataDir, 'missing'), id: null, options: {} },
    'folders:remove': { id: 99 },
    'folders:move': { id: 99, accountId },
    'folders:whenSettled': {},
    'folders:status': {},
    'folders:pause': { id: 99 },
    'folders:resume': { id: 99 },
    'folders:rescan': { id: 99 },
    'folders:why': { path: join(dataDir, 'missing.mp4') },
    'uploads:addPaths': { accountId, paths: [join(dataDir, 'missing.mp4')] },
    'uploads:list': {},
    'uploads:status': {},
    'uploads:overview': {},
    'uploads:pauseAll': { until: Date.UTC(2030, 0, 1) },
    'uploads:resumeAll': {},
    'uploads:pause': { id: 99 },
    'uploads:resume': { id: 99 },
    'uploads:cancel': { id: 99 },
    'uploads:retry': { id: 99 },
    'uploads:clearFinished': {},
    'uploads:setWhenDone': { action: 'nothing' },
    'uploads:reveal': { id: 99 },
    'files:list': { accountId, perPage: 25 },
    'files:get': file,
    'files:status': file,
    'files:update': { ...file, changes: { name: 'x' } },
    'files:delete': file,
    'files:copyLink': { ...file, kind: 'page' },
    'files:open': { ...file, kind: 'page' },
    'imports:create': { accountId, body: { urls: ['http://127.0.0.1:9/a.mp4'] } },
    'imports:list': { accountId },
    'imports:get': job,
    'imports:cancel': job,
    'imports:retry': job,
    'settings:get': {},
    'settings:update': { concurrency: 2 },
    'conversions:list': {},
    'notifications:list': {},
    'notifications:clear': {},
    'app:rateLimits': {},
    'app:diagnostics': {},
    'app:info': {},
    'app:openLink': { link: 'media-sync://files?search=clip' },
    'app:openFiles': { paths: [join(dataDir, 'missing.mp4')] },
    'app:takeIntents': {},
    'app:wake': {},
    'app:openLogsFolder': {},
    'app:pickFolder': {},
    'app:updateStatus': {},
    'app:checkForUpdates': {},
    'app:installUpdate': {},
    'folders:browse': { path: dataDir },
    'folders:reveal': { id: 99 },
    'support:preview': { days: 1 },
    'support:build': { days: 1 },
  };
}

/** Commands whose answer changes from one call to the next (time, counters, the server's own state). */
export const VOLATILE_COMMANDS: ReadonlySet<string> = new Set([
  'app:rateLimits',
  'app:diagnostics',
  // the time in the name and the log's own lines; the stand-ins' key is new for each zip
  'support:preview',
  'support:build',
  'uploads:pauseAll',
  'imports:list',
  // each link gets the next intent id; what is waiting depends on the links opened before
  'app:openLink',
  'app:openFiles',
  'app:takeIntents',
]);

/** Each answer of the server has its own request id; the rest must be the same. */
export function withoutRequestId(result: unknown): unknown {
  return JSON.parse(JSON.stringify(result).replace(/"requestId":"[^"]*"/g, '"requestId":"…"'));
}
