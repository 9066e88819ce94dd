import { englishText, message } from '../../../src-shared/i18n/message.js';
import type { UpdateStatus } from '../../../src-shared/model/update-status.js';
import { CoreError } from '../../common/core-error.js';
import { OK, type CommandContext, type HandlersOf } from './handlers.js';

/** What a shell with no updates of its own answers: the daemon is updated with its package. */
const NO_UPDATES: UpdateStatus = {
  state: 'unavailable',
  reason: englishText(message('core.updates.headless')),
  text: message('core.updates.headless'),
};
/** The lines of the log a diagnostics export carries. */
const DIAGNOSTICS_LOG_LINES = 200;

/** What the app commands use of the core. */
type AppContext = Pick<
  CommandContext,
  | 'engine'
  | 'options'
  | 'clock'
  | 'notifications'
  | 'intents'
  | 'settings'
  | 'accountViews'
  | 'queueStatus'
  | 'rateLimits'
  | 'openLink'
  | 'openFiles'
>;

/** The app itself: links and opened files, logs and diagnostics, updates, the folder picker. */
export function appCommands(core: AppContext): HandlersOf<'app'> {
  const { options } = core;
  return {
    'app:rateLimits': async () => core.rateLimits(),
    'app:diagnostics': async () => diagnostics(core),
    'app:info': async () => ({ ...options.info, logsDir: options.log?.dir ?? null }),
    'app:openLogsFolder': async () => {
      if (!options.log) throw CoreError.say('UNAVAILABLE', message('core.errors.noLogs'));
      await options.shell.openLogsFolder();
      return OK;
    },

    'app:openLink': async ({ link }) => core.openLink(link),
    'app:openFiles': async ({ paths, workingDirectory }) => core.openFiles(paths, { workingDirectory }),
    'app:takeIntents': async () => core.intents.take(),
    'app:pickFolder': async () => ({ path: await options.shell.pickFolder() }),

    'app:updateStatus': async () => options.updates?.status() ?? NO_UPDATES,
    'app:checkForUpdates': async () => (await options.updates?.check()) ?? NO_UPDATES,
    'app:installUpdate': async () => {
      const updates = options.updates;
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
  const { engine, options } = core;
  const counts = engine.uploads.counts();
  const failed = engine.uploads.ofKind('failed', { newest: 50 }).reverse();
  const report = {
    createdAt: new Date(core.clock.wall()).toISOString(),
    app: options.info,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    settings: core.settings(),
    accounts: core.accountViews(),
    folders: engine.folders.list().map((f) => ({ id: f.id, path: f.path, options: f.options })),
    queue: { status: core.queueStatus(), counts },
    failures: failed.flatMap((item) =>
      item.state.kind === 'failed' ? [{ file: item.fileName, ...item.state.reason }] : [],
    ),
    rateLimits: core.rateLimits(),
    notifications: core.notifications.list().slice(0, 50),
    logs: {
      folder: options.log?.dir ?? null,
      recent: (await options.log?.recent(DIAGNOSTICS_LOG_LINES)) ?? [],
    },
  };
  const stamp = report.createdAt.replace(/[:.]/g, '-');
  return { fileName: `media-sync-diagnostics-${stamp}.json`, json: JSON.stringify(report, null, 2) };
}
