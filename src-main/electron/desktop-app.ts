import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DisposableStore } from '../common/disposable.js';
import { createFileLog, type FileLog } from '../common/file-log.js';
import { Shutdown } from '../common/shutdown.js';
import { contractClient } from '../../src-shared/ipc/contract-client.js';
import type { AccountView, MediaSyncBridge } from '../../src-shared/ipc/ipc-contract.js';
import type { AppCore } from '../core/app-core.js';
import { coreTransport } from '../core/core-transport.js';
import { createCore, type CreatedCore, type ShellCoreOptions } from '../core/create-core.js';
import { localDemoServer } from '../demo/local-demo-server.js';
import { serveOwnerSocket } from '../core/owner-socket.js';
import { describeOwner, tryLockDataFolder } from '../storage/data-folder-lock.js';
import { NetworkManagerCost } from '../system/network-manager-cost.js';
import { platformPowerActions } from '../system/power-actions.js';
import { APP_ID } from './app-identity.js';
import type { DesktopAppOptions, DesktopStore } from './desktop-app-options.js';
import { pickFolder } from './folder-picker.js';
import { LINK_SCHEME, parseLaunchArgs, type LaunchArgs } from './launch-args.js';
import { createLoginItems, type LoginItems } from './login-items.js';
import { ElectronPowerSource } from './power-source.js';
import { windowMayClose } from './quit-lifecycle.js';
import { QueueFollower } from './queue-follower.js';
import { QuitRunner } from './quit-runner.js';
import { askToRepair } from './repair-dialog.js';
import { chooseNativeBinding, logsFolder, nativeModuleProblem, runtimePaths } from './runtime-paths.js';
import { SafeStorageVault } from './safe-storage-vault.js';
import { isAllowedExternal } from './security.js';
import { softly } from './softly.js';
import { TrayController } from './tray-controller.js';
import { UpdateService } from './update-service.js';
import { WindowController } from './window-controller.js';

/** The store behind settings and the token vault: electron-store in the app, a Map-like object in tests. */
export type { DesktopAppOptions, DesktopStore } from './desktop-app-options.js';

/**
 * The desktop app: Electron's lifecycle and OS integration around AppCore
 * (docs/desktop.md). Everything Electron gives it comes through
 * `options.electron`, so it runs on a stand-in that follows Electron's event
 * order; `main.ts` only passes the real module in. It starts the parts and
 * wires them: the window (WindowController), the tray and notifications
 * (TrayController), power, links, login items and updates.
 *
 * Invariants:
 * - one instance per user: a second one hands its argv (links, files) over and quits;
 * - the window's close button hides it to the tray, except on the way out;
 * - a quit (Cmd+Q, tray, OS logout, SIGTERM, an installer) runs the Shutdown
 *   every part joined where it started (common/shutdown.ts: the ipc and the
 *   owner socket, then the core, the engine with the queue committed and the
 *   database closed, the demo server, the lock) before Electron closes the
 *   windows, within `quitTimeoutMs`;
 * - nothing touches the core or the database after the stop began.
 */
export class DesktopApp {
  /** the quit sequence (quit-lifecycle.ts): what state the app is in, and what a quit does next */
  private readonly quit: QuitRunner;
  private started: Promise<void> = Promise.resolve();
  private launch!: LaunchArgs;
  private log: FileLog | null = null;
  private core: AppCore | null = null;
  /** the core's contract, as the window's pages and the tray use it */
  private contract: MediaSyncBridge | null = null;
  private window: WindowController | null = null;
  private tray: TrayController | null = null;
  /** the accounts' service origins: their links open in the browser (security.ts) */
  private fileHosts: string[] = [];
  private updates: UpdateService | null = null;
  private loginItems!: LoginItems;
  private devAppPath: string | null = null;
  /** what the quit sequence waits for: each part joins it where it starts */
  private readonly shutdown: Shutdown;
  /** the app's own subscriptions and OS watchers, let go as the stop begins */
  private readonly disposables = new DisposableStore();
  /** links and files that arrived before the core ran */
  private pending: Pick<LaunchArgs, 'links' | 'files'> = { links: [], files: [] };

  constructor(private readonly options: DesktopAppOptions) {
    this.shutdown = new Shutdown({
      // the log opens once Electron is ready, and a quit may begin before
      log: {
        info: (text) => this.log?.info(text),
        warn: (text) => this.log?.warn(text),
        error: (text, cause) => this.log?.error(text, cause),
      },
      timeoutMs: options.quitTimeoutMs,
    });
    this.shutdown.onWillShutdown('intake', () => this.disposables.dispose());
    this.quit = new QuitRunner(options.electron.app, () => this.stop());
  }

  /** Runs the app: call once, from the main script, before `ready`. */
  start(): void {
    const { app } = this.options.electron;
    const { platform } = this.options;
    // not packaged: run as `electron <app>`, so argv[1] is the app, and the OS must be told to pass it
    const devAppPath = app.isPackaged ? null : resolve(this.options.cwd, this.options.argv[1] ?? '.');
    const appPathInArgv = devAppPath !== null;
    this.launch = parseLaunchArgs(this.options.argv, { cwd: this.options.cwd, appPathInArgv });
    // Windows shows notifications only for an app with an AppUserModelId, and groups them under it
    if (platform === 'win32') app.setAppUserModelId(APP_ID);
    if (!app.requestSingleInstanceLock()) {
      // the first instance got our argv through `second-instance`
      app.quit();
      return;
    }
    this.loginItems = createLoginItems({
      app,
      platform,
      env: this.options.env,
      execPath: this.options.execPath,
      devAppPath,
      homeDir: this.options.homeDir,
    });
    this.devAppPath = devAppPath;
    app.on('second-instance', (_event, argv, workingDirectory) => {
      this.deliver(parseLaunchArgs(argv, { cwd: workingDirectory, appPathInArgv }));
      this.showWindow();
    });
    // macOS hands links and "Open With" files to the running app as events, possibly before `ready`
    app.on('open-url', (event, url) => {
      event.preventDefault();
      this.deliver({ links: [url], files: [] });
      this.showWindow();
    });
    app.on('open-file', (event, path) => {
      event.preventDefault();
      this.deliver({ links: [], files: [path] });
      this.showWindow();
    });
    // uploads go on in the tray with no window open
    app.on('window-all-closed', () => undefined);
    // macOS: clicking the Dock icon brings the window back
    app.on('activate', () => this.showWindow());
    app.on('before-quit', (event) => this.quit.beforeQuit(event));
    const processEvents = this.options.process;
    processEvents.on('SIGTERM', () => app.quit());
    processEvents.on('SIGINT', () => app.quit());
    processEvents.on('uncaughtException', (error) => this.log?.error('Uncaught exception in the main process.', error));
    processEvents.on('unhandledRejection', (error) =>
      this.log?.error('Unhandled rejection in the main process.', error),
    );
    this.started = app
      .whenReady()
      .then(() => this.onReady())
      .catch((error: unknown) => this.failStart(error));
    // a start still under way gives up at its next step; what it made by then has joined the stop
    this.shutdown.onWillShutdown('intake', (e) => e.join(this.started, 'the start'));
  }

  /** The updater's half of a quit (QuitRunner.stopWithoutQuitting). */
  prepareToQuit(): Promise<void> {
    return this.quit.stopWithoutQuitting();
  }

  private async onReady(): Promise<void> {
    const { app, dialog } = this.options.electron;
    const dataDir = app.getPath('userData');
    const log = createFileLog({ dir: logsFolder(app, dataDir) });
    this.log = log;
    log.info(`Media Sync ${app.getVersion()} is starting (${this.options.platform}).`);
    softly(log, 'registering media-sync:// links', () => this.registerLinkScheme());
    const location = {
      isPackaged: app.isPackaged,
      mainDir: this.options.mainDir,
      resourcesPath: this.options.resourcesPath,
    };
    const paths = runtimePaths(location);
    const store = this.options.createStore();
    const vault = new SafeStorageVault(this.options.electron.safeStorage, store, this.options.platform);
    const nativeBinding = chooseNativeBinding(paths.nativeBinding, existsSync);
    let created: CreatedCore | null;
    try {
      // one data folder, one queue: `media-sync serve` or a CLI `watch` may already run this one
      const attempt = tryLockDataFolder(dataDir, { kind: 'desktop', url: null }, nativeBinding);
      if (!attempt.ok) {
        const problem = `${describeOwner(attempt.owner, dataDir)} Stop it, then start the app again.`;
        log.warn(problem);
        dialog.showErrorBox('Media Sync cannot start', problem);
        app.exit(1);
        return;
      }
      for (const line of attempt.tightened) log.warn(line);
      // last: the database and the demo server's files are in that folder
      this.shutdown.onWillShutdown('release', () => attempt.lock.release());
      created = await createCore({
        engine: {
          dataDir,
          vault,
          envToken: this.options.env['MEDIA_SYNC_TOKEN'] || undefined,
          nativeBinding,
          // the OS's own Trash (gio's on Linux, the Finder's, the Recycle Bin), with its "put back"
          trash: { trash: (path) => this.options.electron.shell.trashItem(path) },
        },
        log,
        shutdown: this.shutdown,
        repair: (problem) => askToRepair(problem, dialog, log, { dataDir, nativeBinding }),
        // a start still under way gives up at its next step once a quit began
        shell: () => (this.quit.state.kind === 'starting' ? this.coreShell(log, store, vault, dataDir) : null),
      });
      if (!created) {
        // the person chose to quit: the folder is free for `media-sync repair` at once
        if (this.quit.state.kind === 'starting') {
          attempt.lock.release();
          app.exit(1);
        }
        return;
      }
    } catch (error) {
      // without this the app would sit in the background with no window and no tray
      const problem = nativeModuleProblem(error, location) ?? (error instanceof Error ? error.message : String(error));
      log.error('The database could not be opened.', error);
      dialog.showErrorBox('Media Sync cannot start', problem);
      app.exit(1);
      return;
    }
    const { core } = created;
    this.core = core;
    const contract = contractClient(coreTransport(core));
    this.contract = contract;
    await created.start('all');
    // the services' origins, whose links open in the browser: kept as accounts sign in and out
    const keepHosts = (accounts: AccountView[]) =>
      (this.fileHosts = accounts.map((account) => new URL(account.baseUrl).origin));
    this.disposables.add(contract.on('account:changed', keepHosts));
    keepHosts(await contract.invoke('account:list', {}));
    if (this.quit.state.kind !== 'starting') return;
    // `media-sync upload` and `queue` from a terminal go through the app's queue
    await serveOwnerSocket(core, dataDir, log, this.shutdown).catch((error: unknown) => {
      log.warn(`The command line cannot reach the app: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.startShell(paths.assetsDir);
    this.updates?.start();
    this.quit.ready();
    const arrived = this.pending;
    this.pending = { links: [], files: [] };
    this.deliver({ links: [...this.launch.links, ...arrived.links], files: [...this.launch.files, ...arrived.files] });
    await this.syncLoginItem();
  }

  /** The desktop's ports for the core: its shell, updates, power and network, the demo server. */
  private async coreShell(
    log: FileLog,
    store: DesktopStore,
    vault: SafeStorageVault,
    dataDir: string,
  ): Promise<ShellCoreOptions> {
    const { app } = this.options.electron;
    const { shutdown } = this;
    const demo = localDemoServer(dataDir, log, shutdown);
    this.updates = new UpdateService({
      updater: app.isPackaged ? this.options.createUpdater() : null,
      log,
      prepareToQuit: async () => {
        await this.prepareToQuit();
        // the installer quits the app; should it not (a file it cannot replace), the app still ends
        setTimeout(() => this.quit.quitNow(), 5_000).unref();
      },
      shutdown,
    });
    let powerSource: ElectronPowerSource | undefined;
    softly(log, 'knowing whether the computer runs on battery', () => {
      powerSource = this.disposables.add(new ElectronPowerSource(this.options.electron.powerMonitor));
    });
    // Electron has no metered API: on Linux the same NetworkManager source as `media-sync serve`
    const network =
      this.options.platform === 'linux' ? new NetworkManagerCost({ env: this.options.env, log, shutdown }) : undefined;
    await network?.start();
    return {
      power: powerSource,
      network,
      whenDone: {
        power: platformPowerActions(this.options.platform, this.options.env),
        quit: () => app.quit(),
      },
      settings: { read: () => store.get('settings', {}), write: (settings) => store.set('settings', settings) },
      shell: {
        openExternal: (url) => this.openExternal(url),
        revealPath: async (path) => this.options.electron.shell.showItemInFolder(path),
        openFolder: (path) => this.openFolder(path),
        writeClipboard: async (text) => this.options.electron.clipboard.writeText(text),
        setLaunchAtLogin: (enabled) => this.loginItems.set(enabled),
        pickFolder: () =>
          pickFolder(this.options.electron.dialog, this.window?.browserWindow ?? null, 'Choose a folder to watch'),
        openLogsFolder: () => this.openLogsFolder(),
      },
      info: { version: app.getVersion(), shell: 'electron', dataDir },
      tokenStorage: vault.description,
      tokenStorageText: vault.descriptionText,
      // the OS's language, as Chromium reads it for the window (navigator.languages)
      systemLocales: () => [app.getLocale()],
      demo,
      updates: this.updates,
    };
  }

  /** The window, the tray and the power blocker, once the core runs. */
  private startShell(assetsDir: string): void {
    const { electron, platform, mainDir, env } = this.options;
    const core = this.core!;
    const log = this.log!;
    const isRunning = () => this.quit.state.kind === 'running';
    const launch = this.launch;
    this.window = new WindowController({
      electron,
      core,
      log,
      platform,
      mainDir,
      assetsDir,
      startHidden:
        (this.loginItems.startedAtLogin(launch) || env['MEDIA_SYNC_START_HIDDEN'] === '1') &&
        launch.links.length === 0 &&
        launch.files.length === 0,
      mayClose: () => windowMayClose(this.quit.state),
      isRunning,
      fileHosts: () => this.fileHosts,
      openExternal: (url) => this.openExternal(url),
      openLogsFolder: () => this.openLogsFolder(),
      shutdown: this.shutdown,
    });
    this.tray = new TrayController({
      electron,
      core,
      contract: this.contract!,
      log,
      updates: this.updates,
      assetsDir,
      actions: {
        showWindow: () => this.showWindow(),
        openExternal: (url) => void this.openExternal(url),
        installUpdate: () => void this.installUpdate(),
        quit: () => electron.app.quit(),
      },
      shutdown: this.shutdown,
    });
    this.disposables.add(
      new QueueFollower({
        electron,
        platform,
        core,
        contract: this.contract!,
        log,
        tray: this.tray,
        window: () => this.window?.browserWindow ?? null,
        isRunning,
      }),
    );
  }

  private showWindow(): void {
    this.window?.show();
  }

  private failStart(error: unknown): void {
    this.log?.error('Media Sync could not start.', error);
    this.options.electron.dialog.showErrorBox(
      'Media Sync cannot start',
      error instanceof Error ? error.message : String(error),
    );
    this.options.electron.app.exit(1);
  }

  // ---- quitting -------------------------------------------------------------------

  /**
   * The orderly stop: every part joined the Shutdown where it started, each
   * in its phase (common/shutdown.ts), capped at `quitTimeoutMs`; what is not
   * done by then is left to the OS and SQLite's journal.
   */
  private async stop(): Promise<void> {
    const { timedOut } = await this.shutdown.run();
    if (!timedOut) this.log?.info('Stopped: the queue is saved and the database closed.');
    await this.log?.close();
  }

  // ---- links, opened files, login items ---------------------------------------------

  private registerLinkScheme(): void {
    const { app } = this.options.electron;
    // a dev checkout runs Electron itself: the OS must start it with the app's folder
    const registered =
      this.devAppPath === null
        ? app.setAsDefaultProtocolClient(LINK_SCHEME)
        : app.setAsDefaultProtocolClient(LINK_SCHEME, this.options.execPath, [this.devAppPath]);
    if (!registered) this.log?.warn(`Could not register ${LINK_SCHEME}:// links with the system.`);
  }

  /** Links and files from the command line, a second instance or macOS: to the core once it runs. */
  private deliver(args: Pick<LaunchArgs, 'links' | 'files'>): void {
    const contract = this.contract;
    if (!contract || this.quit.state.kind !== 'running') {
      this.pending.links.push(...args.links);
      this.pending.files.push(...args.files);
      return;
    }
    const failed = (what: string) => (error: unknown) => this.log?.error(what, error);
    for (const link of args.links) {
      contract.invoke('app:openLink', { link }).catch(failed('An opened link was not kept.'));
    }
    if (args.files.length > 0) {
      contract.invoke('app:openFiles', { paths: args.files }).catch(failed('Opened files were not queued.'));
    }
  }

  /**
   * The login item is written again at every start from the saved setting:
   * an AppImage that was moved, or an app that was updated, must still start.
   */
  private async syncLoginItem(): Promise<void> {
    const { launchAtLogin } = await this.contract!.invoke('settings:get', {});
    await this.loginItems.set(launchAtLogin).catch((error: unknown) => {
      this.log?.warn(`Could not update the login item: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  // ---- small helpers ------------------------------------------------------------------

  private async openExternal(url: string): Promise<void> {
    if (isAllowedExternal(url, this.fileHosts)) await this.options.electron.shell.openExternal(url);
  }

  private async installUpdate(): Promise<void> {
    await this.updates
      ?.install()
      .catch((error: unknown) => this.log?.error('The update could not be installed.', error));
  }

  private async openLogsFolder(): Promise<void> {
    const dir = this.log?.dir;
    if (dir) await this.openFolder(dir);
  }

  private async openFolder(dir: string): Promise<void> {
    const problem = await this.options.electron.shell.openPath(dir);
    if (problem) throw new Error(`The folder ${dir} could not be opened: ${problem}`);
  }
}
