import { englishText, message } from '../../../src-shared/i18n/message.js';
import type { UpdateStatus } from '../../../src-shared/model/update-status.js';
import { CoreError } from '../../common/core-error.js';
import { OK, type CoreServices, type HandlersOf } from './handlers.js';

/** What a shell with no updates of its own answers: the daemon is updated with its package. */
const NO_UPDATES: UpdateStatus = {
  state: 'unavailable',
  reason: englishText(message('core.updates.headless')),
  text: message('core.updates.headless'),
};
/** The lines of the log a diagnostics export carries. */
const DIAGNOSTICS_LOG_LINES = 200;

/** What the app commands use of the core. */
type AppContext = Pick<CoreServices, 'system' | 'accounts' | 'uploads' | 'folders' | 'settings' | 'notifications'>;

/** The app itself: links and opened files, logs and diagnostics, updates, the folder picker. */
export function appCommands(core: AppContext): HandlersOf<'app'> {
  const { system } = core;
  return {
    'app:rateLimits': async () => core.accounts.rateLimits(),
    'app:diagnostics': async () => diagnostics(core),
    'app:info': async () => ({ ...system.info, logsDir: system.log?.dir ?? null }),
    'app:openLogsFolder': async () => {
      if (!system.log) throw CoreError.say('UNAVAILABLE', message('core.errors.noLogs'));
      await system.shell.openLogsFolder();
      return OK;
    },

    'app:openLink': async ({ link }) => system.openLink(link),
    'app:openFiles': async ({ paths, workingDirectory }) => system.openFiles(paths, { workingDirectory }),
    'app:takeIntents': async () => system.intents.take(),
    'app:wake': async () => {
      system.wake();
      return OK;
    },
    'app:pickFolder': async () => ({ path: await system.shell.pickFolder() }),

    'app:updateStatus': async () => system.updates?.status() ?? NO_UPDATES,
    'app:checkForUpdates': async () => (await system.updates?.check()) ?? NO_UPDATES,
    'app:installUpdate': async () => {
      const updates = system.updates;
      if (updates?.status().state !== 'ready') throw CoreError.say('NO_UPDATE', message('core.errors.noUpdate'));
      await updates.install();
      return OK;
    },
  };
}

/**
 * A JSON report for a support request: versions, settings, queue counts,
 * recent failures and the log's last lines; never a token (FileLog.recent
 * scrubs each line again with every token known now).
 */
async function diagnostics(core: AppContext): Promise<{ fileName: string; json: string }> {
  const { system, uploads } = core;
  const counts = uploads.store.counts();
  const failed = uploads.store.ofKind('failed', { newest: 50 }).reverse();
  const report = {
    createdAt: new Date(system.clock.wall()).toISOString(),
    app: system.info,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    settings: core.settings.value(),
    accounts: core.accounts.views(),
    folders: core.folders.store.list().map((f) => ({ id: f.id, path: f.path, options: f.options })),
    queue: { status: uploads.status(), counts },
    failures: failed.flatMap((item) =>
      item.state.kind === 'failed' ? [{ file: item.fileName, ...item.state.reason }] : [],
    ),
    rateLimits: core.accounts.rateLimits(),
    notifications: core.notifications.list().slice(0, 50),
    logs: {
      folder: system.log?.dir ?? null,
      recent: (await system.log?.recent(DIAGNOSTICS_LOG_LINES)) ?? [],
    },
  };
  const stamp = report.createdAt.replace(/[:.]/g, '-');
  return { fileName: `media-sync-diagnostics-${stamp}.json`, json: JSON.stringify(report, null, 2) };
}
