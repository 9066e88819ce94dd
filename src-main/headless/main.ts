import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createFileLog, type FileLog } from '../common/file-log.js';
import { AppCore } from '../core/app-core.js';
import { localDemoServer } from '../core/demo-server.js';
import { NO_DESKTOP } from '../core/ports.js';
import { Engine } from '../core/engine.js';
import { FileTokenVault } from '../storage/token-vault.js';
import { serveOwnerSocket } from '../core/owner-socket.js';
import { describeOwner, tryLockDataFolder, type DataFolderLock } from '../storage/data-folder-lock.js';
import { ConfSettingsStore } from './conf-settings-store.js';
import { startDaemon } from './daemon.js';
import { LinuxPowerSource } from './linux-power-source.js';
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

/**
 * `media-sync serve [--port N] [--open] [--data-dir DIR] [--no-demo] [--ui-dir DIR]`: the app
 * without a desktop. With no account yet it starts the local demo server and
 * signs in to it, so a newcomer sees a working app at once (`--no-demo`
 * shows the sign-in page instead; `--ui-dir` serves another build of the UI
 * than dist/renderer). Runs until SIGINT/SIGTERM. Logs to `<data dir>/logs/main.log`.
 */
export async function serve(args: string[], io: ServeIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '8790' },
      open: { type: 'boolean' },
      'data-dir': { type: 'string' },
      'no-demo': { type: 'boolean' },
      'ui-dir': { type: 'string' },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    io.stderr.write('Error: --port must be a number from 0 to 65535.\n');
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
  // written synchronously before Node prints the error and exits, so the log says why it stopped
  const logCrash = (error: Error) => log.error('Media Sync stopped on an error it did not expect.', error);
  process.on('uncaughtExceptionMonitor', logCrash);
  try {
    log.info(`Media Sync ${io.version} is starting without a desktop (media-sync serve), data folder ${dataDir}.`);
    return await run(values, { port, dataDir, log, io, lock: attempt.lock });
  } catch (error) {
    log.error('Media Sync stopped on an error.', error);
    throw error;
  } finally {
    process.off('uncaughtExceptionMonitor', logCrash);
    await log.close();
    attempt.lock.release();
  }
}

async function run(
  values: { open?: boolean; 'no-demo'?: boolean; 'ui-dir'?: string },
  { port, dataDir, log, io, lock }: { port: number; dataDir: string; log: FileLog; io: ServeIo; lock: DataFolderLock },
): Promise<number> {
  const vault = new FileTokenVault(join(dataDir, 'credentials'));
  const envToken = io.env['MEDIA_SYNC_TOKEN'] || undefined;
  const engine = await Engine.open({ dataDir, vault, envToken, log, secrets: log });
  const demo = localDemoServer(dataDir);
  // "Pause while on battery": sysfs on Linux; elsewhere the daemon cannot tell, and never pauses for it
  const power = process.platform === 'linux' ? new LinuxPowerSource() : undefined;
  await power?.start();
  const core = new AppCore({
    power,
    engine,
    settings: new ConfSettingsStore(dataDir),
    shell: NO_DESKTOP,
    info: { version: io.version, shell: 'headless', dataDir },
    tokenStorage: vault.description,
    tokenStorageText: vault.descriptionText,
    // the daemon's own sentences (notification titles) follow its locale; a page shows them in its own
    systemLocales: () => processLocales(io.env),
    startDemo: demo.start,
    log,
  });
  await core.start();
  // `media-sync upload` and `queue` from a terminal go through this process's queue
  const ownerSocket = await serveOwnerSocket(core, dataDir, log);
  if (engine.accounts.list().length === 0 && !values['no-demo']) {
    const signedIn = await core.handle('account:startDemo', {});
    if (signedIn.ok) {
      io.stderr.write('No account yet: signed in to the local demo server.\n');
      log.info('No account yet: signed in to the local demo server.');
    } else {
      log.warn(`No account yet, and the local demo server could not be used: ${signedIn.error.message}`);
    }
  }
  const uiDir = values['ui-dir'] ? resolve(values['ui-dir']) : UI_DIR;
  const staticDir = existsSync(uiDir) ? uiDir : undefined;
  const daemon = await startDaemon({
    core,
    port,
    staticDir,
    dropDir: join(dataDir, 'dropped'),
    log,
    secrets: log,
  });
  io.stdout.write(`Media Sync is running at ${daemon.url}\n`);
  lock.describe({ url: `http://127.0.0.1:${daemon.port}/` });
  // the address without its session key: the key opens the app to whoever reads it
  log.info(`Serving the app on http://127.0.0.1:${daemon.port}/ (the session key is only in the printed address).`);
  if (values.open) openBrowser(daemon.url);
  const signal = await new Promise<NodeJS.Signals>((resolveStop) => {
    process.once('SIGINT', resolveStop);
    process.once('SIGTERM', resolveStop);
  });
  log.info(`Stopping on ${signal}.`);
  await ownerSocket.close();
  await daemon.close();
  await core.dispose();
  power?.dispose();
  await engine.close();
  await demo.stop();
  log.info('Stopped.');
  return 0;
}

function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  spawn(command, [url], { detached: true, stdio: 'ignore' })
    .on('error', () => undefined)
    .unref();
}
