import { join } from 'node:path';
import { buildSupportFile, type SupportSources } from '../support-file.js';
import type { CoreServices, HandlersOf } from './handlers.js';

/** What the support file's commands read of the core. */
type SupportContext = Pick<CoreServices, 'accounts' | 'uploads' | 'folders' | 'settings' | 'system'>;

/** The support file (docs/ui.md, Support and logs): its preview, and the zip. */
export function supportCommands(core: SupportContext): HandlersOf<'support'> {
  return {
    'support:preview': async (request) => {
      const { fileName, entries, zip } = await buildSupportFile(await supportSources(core), request);
      return { fileName, entries, size: zip.length };
    },
    'support:build': async (request) => {
      const { fileName, entries, zip } = await buildSupportFile(await supportSources(core), request);
      return { fileName, entries, size: zip.length, data: zip.toString('base64') };
    },
  };
}

/** The newest failures a support file lists. */
const FAILURES_SHOWN = 50;
/** Items changed this long ago or more are not looked for in the log (their names would not be there). */
const NAMES_WINDOW_MS = 31 * 24 * 60 * 60 * 1000;
/**
 * The newest items whose names are looked for: hiding 20,000 names in 6 MB
 * of log takes about 2 s on one core (the core answers nothing meanwhile).
 */
const NAMES_MAX_ITEMS = 10_000;

async function supportSources(core: SupportContext): Promise<SupportSources> {
  const { accounts, uploads, folders, system } = core;
  const now = system.clock.wall();
  const views = accounts.views();
  const recentItems = uploads.store.updatedSince(now - NAMES_WINDOW_MS, NAMES_MAX_ITEMS);
  const passwords = recentItems.flatMap((item) => (item.metadata.password ? [item.metadata.password] : []));
  return {
    now,
    app: system.info,
    settings: core.settings.value(),
    accounts: views,
    folders: folders.store.list(),
    folderStatuses: folders.statuses(),
    queue: {
      status: uploads.status(),
      counts: uploads.store.counts(),
      unfinished: uploads.store.unfinished(),
      failed: uploads.store.ofKind('failed', { newest: FAILURES_SHOWN }),
    },
    recentItems,
    requests: views.flatMap((account) => {
      try {
        return [{ accountId: account.id, records: accounts.client(account.id).requests.list() }];
      } catch {
        return []; // signed out meanwhile, or no token: no requests
      }
    }),
    // a CLI's own core writes no log: the one in the data folder is the daemon's (headless/main.ts)
    logsDir: system.log?.dir ?? join(system.info.dataDir, 'logs'),
    secrets: [...(await accounts.tokens()), ...passwords],
    scrub: system.log?.scrub,
  };
}
