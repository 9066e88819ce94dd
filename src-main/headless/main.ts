import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createFileLog, type FileLog } from '../common/file-log.js';
import { Shutdown } from '../common/shutdown.js';
import { contractClient } from '../../src-shared/ipc/contract-client.js';
import { coreTransport } from '../core/core-transport.js';
import { localDemoServer } from '../demo/local-demo-server.js';
import { NO_DESKTOP } from '../core/ports.js';
import { createCore } from '../core/create-core.js';
import { DATABASE_FILE } from '../storage/database.js';
import { databaseProblem, type DatabaseProblem } from '../storage/database-problem.js';
import { describeRepair, repairDatabase } from '../storage/database-repair.js';
import { openTokenVault } from '../storage/keyring-token-vault.js';
import { serveOwnerSocket } from '../core/owner-socket.js';
import { describeOwner, tryLockDataFolder, type DataFolderLock } from '../storage/data-folder-lock.js';
import { JsonSettingsStore } from '../storage/json-settings-store.js';
import { startDaemon, type Daemon } from './daemon.js';
import { escapeHtml, serveRepairPage } from './repair-page.js';
import { systemTrash } from '../system/freedesktop-trash.js';
import { NetworkManagerCost } from '../system/network-manager-cost.js';
import { platformPowerActions } from '../system/power-actions.js';
import { LinuxPowerSource } from './linux-power-source.js';
import { loadSessionKey, SESSION_KEY_FILE } from './session-key.js';
import { processLocales } from '../common/i18n.js';

export interface ServeIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  /** the default data folder when neither --data-dir nor MEDIA_SYNC_HOME is given */
  defaultDataDir: string;
  version: string;
}

const UI_DIR = resolve(import.meta.dirname, '../../dist/renderer');

/** The port when --port is not given (MEDIA_SYNC_PORT changes it); taken, the next free one is used. */
const DEFAULT_PORT = 8790;
/** How many ports after a taken default one are tried. */
const PORT_TRIES = 20;

const USAGE = `Usage: media-sync serve [--port N] [--open] [--data-dir DIR] [--no-demo] [--new-key] [--ui-dir DIR]

  --port N        the port on 127.0.0.1 (default 8790, or MEDIA_SYNC_PORT; when another program has the
                  default one, the next free one is used); 0 picks a free one
  --open          opens the app in the browser, through a page in DIR that forwards it to the address
                  (the key is in no command line, which every user of the computer can read)
  --data-dir DIR  the data folder (default: MEDIA_SYNC_HOME, else the platform's app data folder)
  --no-demo       with no account yet, shows the sign-in page instead of signing in to the local demo server
  --new-key       makes a new session key: the address changes, and pages opened with the old one
                  must open the new one
  --ui-dir DIR    serves this build of the UI instead of dist/renderer

The printed address carries a session key kept in DIR/session-key (only your user can read it): it is
the same at every start, so a page left open reconnects by itself after a restart. The demo account's
server comes back with the app, its files kept in DIR/demo-server.`;

/**
 * `media-sync serve [--port N] [--open] [--data-dir DIR] [--no-demo] [--new-key] [--ui-dir DIR]`:
 * the app without a desktop. With no account yet it starts the local demo
 * server and signs in to it, so a newcomer sees a working app at once
 * (`--no-demo` shows the sign-in page instead; `--ui-dir` serves another
 * build of the UI than dist/renderer). The session key is kept in the data
 * folder (`--new-key` makes a new one). Runs until SIGINT/SIGTERM. Logs to
 * `<data dir>/logs/main.log`.
 */
export async function serve(args: string[], io: ServeIo): Promise<number> {
  let values: ReturnType<typeof parseServeArgs>;
  try {
    values = parseServeArgs(args);
  } catch (error) {
    io.stderr.write(`Error: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const port = Number(values.port ?? io.env['MEDIA_SYNC_PORT'] ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    const what = values.port === undefined ? 'MEDIA_SYNC_PORT' : '--port';
    io.stderr.write(`Error: ${what} must be a number from 0 to 65535.\n`);
    return 2;
  }
  const dataDir = resolve(values['data-dir'] ?? io.env['MEDIA_SYNC_HOME'] ?? io.defaultDataDir);
  // one data folder, one queue: the app, another daemon or a CLI command may already run it
  const attempt = tryLockDataFolder(dataDir, { kind: 'daemon', url: null });
  if (!attempt.ok) {
    io.stderr.write(`Error: ${describeOwner(attempt.owner, dataDir)} Stop it first, or choose another --data-dir.\n`);
    return 1;
  }
  const log = createFileLog({ dir: join(dataDir, 'logs') });
  // each part joins the stop where it starts; the lock goes last, once the database is closed
  const shutdown = new Shutdown({ log });
  shutdown.onWillShutdown('release', () => attempt.lock.release());
  // written synchronously before Node prints the error and exits, so the log says why it stopped
  const logCrash = (error: Error) => log.error('Media Sync stopped on an error it did not expect.', error);
  process.on('uncaughtExceptionMonitor', logCrash);
  try {
    log.info(`Media Sync ${io.version} is starting without a desktop (media-sync serve), data folder ${dataDir}.`);
    for (const line of attempt.tightened) log.warn(line);
    // a key file others could read before the folder was made private may have been read: it is made anew
    const keyWasReadable = attempt.madePrivate.changed.some(
      (change) => change.path === SESSION_KEY_FILE && (change.from & 0o044) !== 0,
    );
    return await run(values, {
      port,
      portChosen: values.port !== undefined,
      dataDir,
      log,
      io,
      lock: attempt.lock,
      shutdown,
      keyWasReadable,
    });
  } catch (error) {
    log.error('Media Sync stopped on an error.', error);
    // a database it cannot use is said in words: which file, and what to do
    const problem = databaseProblem(error, join(dataDir, DATABASE_FILE));
    if (!problem) throw error;
    io.stderr.write(`Error: ${problem.message}\n`);
    return 1;
  } finally {
    // after a start that failed too: what had started stops, in order (common/shutdown.ts)
    const { timedOut } = await shutdown.run();
    if (!timedOut) log.info('Stopped.');
    process.off('uncaughtExceptionMonitor', logCrash);
    await log.close();
  }
}

/**
 * A damaged database stops the start: the printed address shows the problem
 * and a button to keep the damaged file aside and start afresh
 * (repair-page.ts), and the start goes on once the person pressed it, on the
 * page's port (the address it sends them to); false when they stop `serve`
 * instead.
 */
async function askToRepair(
  problem: DatabaseProblem,
  { dataDir, sessionKey, log, io }: { dataDir: string; sessionKey: string; log: FileLog; io: ServeIo },
  opened: { port: number },
): Promise<boolean> {
  const page = await serveRepairPage({
    port: opened.port,
    sessionKey,
    problem,
    repair: () => {
      const report = describeRepair(repairDatabase(dataDir));
      log.warn(report);
      io.stderr.write(`${report}\n`);
      return report;
    },
    log,
  });
  const stop = () => void page.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  io.stderr.write(`Error: ${problem.message}\n`);
  io.stdout.write(
    `Media Sync cannot start: open ${page.url} to repair its database, or stop it and run media-sync repair.\n`,
  );
  const repaired = await page.done;
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  await page.close();
  opened.port = page.port;
  return repaired;
}

function parseServeArgs(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      open: { type: 'boolean' },
      'data-dir': { type: 'string' },
      'no-demo': { type: 'boolean' },
      'new-key': { type: 'boolean' },
      'ui-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  return values;
}

interface RunContext {
  port: number;
  /** given with --port: taken, it is an error; the default one taken, the next free one is used */
  portChosen: boolean;
  dataDir: string;
  log: FileLog;
  io: ServeIo;
  lock: DataFolderLock;
  /** each part of the app joins it where it starts; `serve` runs it once stopped */
  shutdown: Shutdown;
  keyWasReadable: boolean;
}

async function run(
  values: { open?: boolean; 'no-demo'?: boolean; 'new-key'?: boolean; 'ui-dir'?: string },
  { port, portChosen, dataDir, log, io, lock, shutdown, keyWasReadable }: RunContext,
): Promise<number> {
  // first: a key file that cannot be read or written stops the start before anything runs
  const sessionKey = await loadSessionKey(dataDir, { rotate: values['new-key'], log, wasReadable: keyWasReadable });
  // the desktop keyring where a Secret Service answers, else 0600 files in the data folder
  const vault = await openTokenVault({ dataDir, env: io.env, log });
  const envToken = io.env['MEDIA_SYNC_TOKEN'] || undefined;
  const trash = systemTrash(process.platform, io.env);
  // the port the daemon starts on: the repair page's, once one was shown
  const opened = { port };
  // files a page sends are written here before they are queued
  const dropDir = join(dataDir, 'dropped');
  // "When done: quit Media Sync" stops the daemon the way SIGTERM does
  let quit: (reason: string) => void = () => undefined;
  const stopped = new Promise<string>((resolveStop) => (quit = resolveStop));
  const created = await createCore({
    engine: { dataDir, vault, envToken, trash },
    log,
    shutdown,
    repair: (problem) => askToRepair(problem, { dataDir, sessionKey, log, io }, opened),
    shell: async () => {
      // "Pause while on battery": sysfs on Linux; elsewhere the daemon cannot tell, and never pauses for it
      const power = process.platform === 'linux' ? new LinuxPowerSource({ shutdown }) : undefined;
      await power?.start();
      // "On a metered connection": NetworkManager on Linux; elsewhere never metered (docs/desktop.md, Per platform)
      const network = process.platform === 'linux' ? new NetworkManagerCost({ env: io.env, log, shutdown }) : undefined;
      await network?.start();
      return {
        power,
        network,
        whenDone: {
          power: platformPowerActions(process.platform, io.env),
          quit: () => quit('the queue is done (When done: quit Media Sync)'),
        },
        settings: new JsonSettingsStore(dataDir),
        shell: NO_DESKTOP,
        info: { version: io.version, shell: 'headless', dataDir },
        tokenStorage: vault.description,
        tokenStorageText: vault.descriptionText,
        // the daemon's own sentences (notification titles) follow its locale; a page shows them in its own
        systemLocales: () => processLocales(io.env),
        demo: localDemoServer(dataDir, log, shutdown),
        droppedFilesDir: dropDir,
      };
    },
  });
  if (!created) return 1;
  const { core } = created;
  await created.start('all');
  // `media-sync upload` and `queue` from a terminal go through this process's queue
  await serveOwnerSocket(core, dataDir, log, shutdown);
  // the port before any sign-in: taken, the start stops here with the reason (the stop undoes what started); and
  // only once the core runs (a signed-in demo account's server is up) can a page left open reconnect
  const uiDir = values['ui-dir'] ? resolve(values['ui-dir']) : UI_DIR;
  const staticDir = existsSync(uiDir) ? uiDir : undefined;
  const start = (on: number) =>
    startDaemon({
      core,
      port: on,
      sessionKey,
      staticDir,
      dropDir,
      log,
      secrets: log,
      shutdown,
    });
  const daemon = await startOnFreePort(start, { port: opened.port, chosen: portChosen }, io, log);
  if (!daemon) return 1;
  // never an account yet (one signed out is the person's choice: the sign-in page then)
  if (created.neverSignedIn() && !values['no-demo']) {
    try {
      await contractClient(coreTransport(core)).invoke('account:startDemo', {});
      io.stderr.write('No account yet: signed in to the local demo server.\n');
      log.info('No account yet: signed in to the local demo server.');
    } catch (error) {
      log.warn(`No account yet, and the local demo server could not be used: ${(error as Error).message}`);
    }
  }
  // before the address is out: whoever read it may stop the daemon at once, and it stops in order
  process.once('SIGINT', quit);
  process.once('SIGTERM', quit);
  io.stdout.write(`Media Sync is running at ${daemon.url}\n`);
  if (values['new-key']) io.stderr.write('A new session key: pages opened with the old address must open this one.\n');
  lock.describe({ url: `http://127.0.0.1:${daemon.port}/` });
  // the address without its session key: the key opens the app to whoever reads it
  log.info(`Serving the app on http://127.0.0.1:${daemon.port}/ (the session key is only in the printed address).`);
  if (values.open) await openBrowser(daemon.url, dataDir, shutdown);
  log.info(`Stopping on ${await stopped}.`);
  process.off('SIGINT', quit);
  process.off('SIGTERM', quit);
  return 0;
}

/**
 * The daemon on `port`; should another program have it, in words: a port
 * given with --port is an error that says how to choose another, the
 * default one gives way to the next free one, said on stderr and in the log.
 * Null when none could be had (the reason printed).
 */
async function startOnFreePort(
  start: (port: number) => Promise<Daemon>,
  { port, chosen }: { port: number; chosen: boolean },
  io: ServeIo,
  log: FileLog,
): Promise<Daemon | null> {
  const last = chosen || port === 0 ? port : Math.min(port + PORT_TRIES, 65_535);
  for (let candidate = port; candidate <= last; candidate++) {
    try {
      const daemon = await start(candidate);
      if (candidate !== port) {
        const note = `Port ${port} on 127.0.0.1 is taken by another program: Media Sync runs on port ${candidate} instead (--port N chooses one).`;
        io.stderr.write(`${note}\n`);
        log.warn(note);
      }
      return daemon;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES')
        return refuse(
          `Media Sync may not listen on port ${candidate} here (ports below 1024 need privileges). Choose another with --port N, e.g. --port ${DEFAULT_PORT}.`,
        );
      if (code !== 'EADDRINUSE') throw error;
    }
  }
  return refuse(
    chosen
      ? `Port ${port} on 127.0.0.1 is taken by another program. Stop that program, or choose another port: media-sync serve --port ${port < 65_535 ? port + 1 : DEFAULT_PORT} (--port 0 picks any free one).`
      : `Ports ${port} to ${last} on 127.0.0.1 are all taken by other programs. Choose a free one with --port N (--port 0 picks any free one).`,
  );

  function refuse(message: string): null {
    io.stderr.write(`Error: ${message}\n`);
    log.warn(message);
    return null;
  }
}

/** The page `--open` opens, in the data folder: it forwards the browser to the address with the key. */
const OPEN_PAGE_FILE = 'open.html';

/**
 * `--open`: the browser is given a page of the data folder that forwards it
 * to the keyed address, never the address itself: a command line is there
 * for every local user to read (`ps`, /proc/PID/cmdline) while the opener
 * and the browser it starts run, and the key opens the app to whoever reads
 * it (Jupyter opens its server the same way). The page is as private as the
 * key's own file (0600, in the 0700 data folder) and is removed when the
 * daemon stops.
 */
async function openBrowser(url: string, dataDir: string, shutdown: Shutdown): Promise<void> {
  const page = join(dataDir, OPEN_PAGE_FILE);
  const link = escapeHtml(url);
  await writeFile(
    page,
    `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
      `<meta http-equiv="refresh" content="0;url=${link}"><title>Media Sync</title></head>` +
      `<body><p><a href="${link}">Open Media Sync</a></p></body></html>\n`,
    { mode: 0o600 },
  );
  shutdown.onWillShutdown('release', () => rmSync(page, { force: true }));
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  spawn(command, [pathToFileURL(page).href], { detached: true, stdio: 'ignore' })
    .on('error', () => undefined)
    .unref();
}
