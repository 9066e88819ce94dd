import type { BrowserWindow, NativeImage, RenderProcessGoneDetails, Tray } from 'electron';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Disposable } from '../common/disposable.js';
import { createFileLog, type FileLog } from '../common/file-log.js';
import { AppCore } from '../core/app-core.js';
import { localDemoServer, type LocalDemoServer } from '../core/demo-server.js';
import { Engine } from '../core/engine.js';
import { serveOwnerSocket, type OwnerSocket } from '../core/owner-socket.js';
import { describeOwner, tryLockDataFolder, type DataFolderLock } from '../storage/data-folder-lock.js';
import { APP_ID } from './app-identity.js';
import { appMenuTemplate } from './app-menu.js';
import type { ElectronModule } from './electron-module.js';
import { pickFolder } from './folder-picker.js';
import { registerContractHandlers } from './ipc-bridge.js';
import { LINK_SCHEME, parseLaunchArgs, type LaunchArgs } from './launch-args.js';
import { createLoginItems, type LoginItems } from './login-items.js';
import { PowerGuard } from './power-guard.js';
import { ElectronPowerSource } from './power-source.js';
import {
  INITIAL_QUIT_STATE,
  quitTransition,
  windowMayClose,
  type QuitEvent,
  type QuitState,
} from './quit-lifecycle.js';
import { chooseNativeBinding, nativeModuleProblem, runtimePaths, windowIconPath } from './runtime-paths.js';
import { SafeStorageVault, type KeyValueStore } from './safe-storage-vault.js';
import { hardenContents, isAllowedExternal, secureWindowOptions } from './security.js';
import { trayIconPath, trayMenuTemplate, trayState, type TrayKind } from './tray-menu.js';
import { UpdateService, updateMenuItem, type UpdaterPort } from './update-service.js';

/** The store behind settings and the token vault: electron-store in the app, a Map-like object in tests. */
export interface DesktopStore extends KeyValueStore {
  get(key: string, defaultValue?: unknown): unknown;
}

export interface DesktopAppOptions {
  /** the `electron` module, or a stand-in that behaves like it */
  electron: ElectronModule;
  createStore(): DesktopStore;
  /** electron-updater's updater for this platform; created only in a packaged app */
  createUpdater(): UpdaterPort;
  argv: readonly string[];
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  /** `process.execPath` */
  execPath: string;
  homeDir: string;
  cwd: string;
  /** the folder of the bundled main.js; the renderer and the preload are found from it */
  mainDir: string;
  /** `process.resourcesPath` */
  resourcesPath: string;
  /**
   * `process`: SIGTERM and SIGINT quit like Cmd+Q; an uncaught error is
   * logged (Electron would show a raw stack trace in a dialog, mid-upload)
   */
  process: Pick<NodeJS.Process, 'on' | 'removeListener'>;
  /** how long a quit may take before the app exits anyway (5 s) */
  quitTimeoutMs?: number;
}

/** Within this time a second renderer crash is not reloaded by itself (it would loop). */
const CRASH_RELOAD_WINDOW_MS = 60_000;
/** The tray and the power blocker follow the queue at most this often. */
const SHELL_REFRESH_MS = 1_000;

/**
 * The desktop app: Electron's lifecycle and OS integration around AppCore
 * (DESIGN.md §10). Everything Electron gives it comes through `options.electron`,
 * so it runs on a stand-in that follows Electron's event order; `main.ts` only
 * passes the real module in.
 *
 * Invariants:
 * - one instance per user: a second one hands its argv (links, files) over and quits;
 * - the window's close button hides it to the tray, except on the way out;
 * - a quit (Cmd+Q, tray, OS logout, SIGTERM, an installer) stops the core, the
 *   engine (queue state committed, database closed) and the demo server
 *   before Electron closes the windows, within `quitTimeoutMs`;
 * - nothing touches the core or the database after the stop began.
 */
export class DesktopApp {
  private quitState: QuitState = INITIAL_QUIT_STATE;
  private stopping: Promise<void> | null = null;
  private started: Promise<void> = Promise.resolve();
  private launch!: LaunchArgs;
  private log: FileLog | null = null;
  private engine: Engine | null = null;
  private core: AppCore | null = null;
  private lock: DataFolderLock | null = null;
  private ownerSocket: OwnerSocket | null = null;
  private demo: LocalDemoServer | null = null;
  private window: BrowserWindow | null = null;
  private tray: Tray | null = null;
  private power: PowerGuard | null = null;
  private updates: UpdateService | null = null;
  private loginItems!: LoginItems;
  private devAppPath: string | null = null;
  private readonly disposables: Disposable[] = [];
  /** links and files that arrived before the core ran */
  private pending: Pick<LaunchArgs, 'links' | 'files'> = { links: [], files: [] };
  private refreshTimer: NodeJS.Timeout | null = null;
  private trayKind: TrayKind = 'idle';
  private trayImage: ((kind: TrayKind) => NativeImage) | null = null;
  private readonly recent: Array<{ name: string; link: string | null }> = [];
  private lastCrashReload = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: DesktopAppOptions) {}

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
    app.on('before-quit', (event) => this.onQuitEvent({ type: 'quit-requested' }, event));
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
  }

  /**
   * The updater's half of a quit: everything stopped as for a quit, then the
   * updater quits the app itself (and installs on its way out).
   */
  async prepareToQuit(): Promise<void> {
    this.onQuitEvent({ type: 'stop-requested' });
    await this.stopping;
  }

  private async onReady(): Promise<void> {
    const { app, dialog } = this.options.electron;
    const dataDir = app.getPath('userData');
    const log = createFileLog({ dir: logsFolder(app, dataDir) });
    this.log = log;
    log.info(`Media Sync ${app.getVersion()} is starting (${this.options.platform}).`);
    this.softly('registering media-sync:// links', () => this.registerLinkScheme());
    const location = {
      isPackaged: app.isPackaged,
      mainDir: this.options.mainDir,
      resourcesPath: this.options.resourcesPath,
    };
    const paths = runtimePaths(location);
    const store = this.options.createStore();
    const vault = new SafeStorageVault(this.options.electron.safeStorage, store, this.options.platform);
    const nativeBinding = chooseNativeBinding(paths.nativeBinding, existsSync);
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
      this.lock = attempt.lock;
      this.engine = await Engine.open({
        dataDir,
        vault,
        envToken: this.options.env['MEDIA_SYNC_TOKEN'] || undefined,
        nativeBinding,
        log,
        secrets: log,
      });
    } catch (error) {
      // without this the app would sit in the background with no window and no tray
      const problem = nativeModuleProblem(error, location) ?? (error instanceof Error ? error.message : String(error));
      log.error('The database could not be opened.', error);
      dialog.showErrorBox('Media Sync cannot start', problem);
      app.exit(1);
      return;
    }
    if (this.quitState.kind !== 'starting') return;
    const engine = this.engine;
    this.demo = localDemoServer(dataDir, log);
    this.updates = new UpdateService({
      updater: app.isPackaged ? this.options.createUpdater() : null,
      log,
      prepareToQuit: async () => {
        await this.prepareToQuit();
        // the installer quits the app; should it not (a file it cannot replace), the app still ends
        setTimeout(() => this.quitNow(), 5_000).unref();
      },
    });
    let powerSource: ElectronPowerSource | undefined;
    this.softly('knowing whether the computer runs on battery', () => {
      powerSource = new ElectronPowerSource(this.options.electron.powerMonitor);
      this.disposables.push(powerSource);
    });
    const core = new AppCore({
      engine,
      power: powerSource,
      settings: { read: () => store.get('settings', {}), write: (settings) => store.set('settings', settings) },
      shell: {
        openExternal: (url) => this.openExternal(url),
        revealPath: async (path) => this.options.electron.shell.showItemInFolder(path),
        writeClipboard: async (text) => this.options.electron.clipboard.writeText(text),
        setLaunchAtLogin: (enabled) => this.loginItems.set(enabled),
        pickFolder: () => pickFolder(this.options.electron.dialog, this.window, 'Choose a folder to watch'),
        openLogsFolder: () => this.openLogsFolder(),
      },
      info: { version: app.getVersion(), shell: 'electron', dataDir },
      tokenStorage: vault.description,
      tokenStorageText: vault.descriptionText,
      // the OS's language, as Chromium reads it for the window (navigator.languages)
      systemLocales: () => [app.getLocale()],
      demo: this.demo,
      updates: this.updates,
      log,
    });
    this.core = core;
    await core.start();
    if (this.quitState.kind !== 'starting') return;
    // `media-sync upload` and `queue` from a terminal go through the app's queue
    this.ownerSocket = await serveOwnerSocket(core, dataDir, log).catch((error: unknown) => {
      log.warn(`The command line cannot reach the app: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    });

    this.createWindow(paths.assetsDir);
    this.createTray(paths.assetsDir);
    this.watchNotifications();
    const { powerSaveBlocker, powerMonitor, net } = this.options.electron;
    this.softly('watching power and network', () => {
      this.power = new PowerGuard({
        powerSaveBlocker,
        powerMonitor,
        net,
        wake: (reason) => {
          log.info(`Woke the upload queue (${reason}).`);
          engine.wake();
        },
      });
    });
    this.disposables.push(core.onDidEmit(({ name }) => name !== 'uploads:progress' && this.scheduleShellRefresh()));
    // the language setting changed: the tray and the menu speak the new one at once
    this.disposables.push(
      core.language.onDidChange(() => {
        if (this.quitState.kind !== 'running') return;
        this.setAppMenu();
        this.refreshShell();
      }),
    );
    this.refreshShell();
    this.updates.start();
    this.onQuitEvent({ type: 'ready' });
    const arrived = this.pending;
    this.pending = { links: [], files: [] };
    this.deliver({ links: [...this.launch.links, ...arrived.links], files: [...this.launch.files, ...arrived.files] });
    await this.syncLoginItem();
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

  private onQuitEvent(event: QuitEvent, electronEvent?: { preventDefault(): void }): void {
    const step = quitTransition(this.quitState, event);
    this.quitState = step.state;
    for (const effect of step.effects) {
      switch (effect) {
        case 'prevent-quit':
          electronEvent?.preventDefault();
          break;
        case 'begin-stop':
          this.stopping = this.stop().then(() => this.onQuitEvent({ type: 'stopped' }));
          break;
        case 'quit':
          this.quitNow();
          break;
      }
    }
  }

  /** Everything stopped: Electron closes the window (now allowed), emits will-quit and quit, and ends. */
  private quitNow(): void {
    const { app } = this.options.electron;
    app.quit();
    // something may still cancel the quit (a page's beforeunload): the process ends all the same
    setTimeout(() => app.exit(0), 3_000).unref();
  }

  /** The orderly stop, capped: what is not done by then is left to the OS and SQLite's journal. */
  private async stop(): Promise<void> {
    const limit = this.options.quitTimeoutMs ?? 5_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolveTimeout) => {
      timer = setTimeout(() => resolveTimeout('timeout'), limit);
    });
    const outcome = await Promise.race([this.teardown().then(() => 'done' as const), timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.log?.warn(`Stopping took longer than ${limit} ms: quitting anyway.`);
    else this.log?.info('Stopped: the queue is saved and the database closed.');
    await this.log?.close();
  }

  private async teardown(): Promise<void> {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = null;
    this.updates?.dispose();
    this.power?.dispose();
    // a start still under way gives up at its next step; what it made is in the fields by then
    await this.started;
    for (const disposable of this.disposables.splice(0).reverse()) disposable.dispose();
    await this.ownerSocket?.close();
    await this.core?.dispose();
    // stops the watchers and the queue (items back in line with their chunks kept), then closes SQLite
    await this.engine?.close();
    await this.demo?.stop();
    // last: the demo server's data is in the data folder too
    this.lock?.release();
    this.tray?.destroy();
    this.tray = null;
  }

  // ---- the window -----------------------------------------------------------------

  private setAppMenu(): void {
    const { Menu, app } = this.options.electron;
    const actions = { openLogsFolder: () => void this.openLogsFolder() };
    this.softly('setting the application menu', () =>
      Menu.setApplicationMenu(
        Menu.buildFromTemplate(appMenuTemplate(this.options.platform, app.isPackaged, actions, this.core!.language)),
      ),
    );
  }

  private createWindow(assetsDir: string): void {
    const { BrowserWindow } = this.options.electron;
    const core = this.core!;
    this.setAppMenu();
    const window = new BrowserWindow({
      ...secureWindowOptions(
        join(this.options.mainDir, 'preload.cjs'),
        windowIconPath(this.options.platform, assetsDir),
      ),
      autoHideMenuBar: true,
    });
    this.window = window;
    const fileHosts = () => this.fileHosts();
    hardenContents(window.webContents, window.webContents.session, {
      appOrigin: 'file://',
      fileHosts,
      openExternal: (url) => this.openExternal(url),
    });
    this.disposables.push(
      registerContractHandlers(
        this.options.electron.ipcMain,
        core,
        (url) => url.startsWith('file://'),
        () => (this.window && !this.window.isDestroyed() ? this.window.webContents : null),
      ),
    );
    window.on('close', (event) => {
      if (windowMayClose(this.quitState)) return;
      event.preventDefault();
      this.hideWindow();
    });
    window.on('closed', () => (this.window = null));
    window.webContents.on('render-process-gone', (_event, details) => void this.onRendererGone(details));
    const startHidden =
      (this.loginItems.startedAtLogin(this.launch) || this.options.env['MEDIA_SYNC_START_HIDDEN'] === '1') &&
      this.launch.links.length === 0 &&
      this.launch.files.length === 0;
    // shown once painted (no white flash), or at the latest once loaded, should ready-to-show not come
    let revealed = startHidden;
    const reveal = () => {
      if (revealed) return;
      revealed = true;
      this.showWindow();
    };
    if (startHidden) {
      this.log?.info('Started at login: staying in the tray.');
      this.options.electron.app.dock?.hide();
    } else {
      window.once('ready-to-show', reveal);
    }
    window.loadFile(join(this.options.mainDir, '..', 'renderer', 'index.html')).then(reveal, (error: unknown) => {
      this.log?.error('The window could not load the UI.', error);
      // a window that stays hidden would leave only the tray: show what there is
      reveal();
    });
  }

  private showWindow(): void {
    const window = this.window;
    if (!window || window.isDestroyed()) return;
    void this.options.electron.app.dock?.show();
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }

  private hideWindow(): void {
    this.window?.hide();
    // macOS: with only the tray left, the app leaves the Dock and the app switcher
    this.options.electron.app.dock?.hide();
  }

  /** A crashed page is reloaded once; a second crash within a minute asks the person instead of looping. */
  private async onRendererGone(details: RenderProcessGoneDetails): Promise<void> {
    const window = this.window;
    if (!window || this.quitState.kind !== 'running' || details.reason === 'clean-exit') return;
    this.log?.warn(`The window's page stopped (${details.reason}, exit code ${details.exitCode}).`);
    const now = performance.now();
    if (now - this.lastCrashReload > CRASH_RELOAD_WINDOW_MS) {
      this.lastCrashReload = now;
      window.webContents.reload();
      return;
    }
    this.log?.error('The page stopped again within a minute: not reloading it by itself.');
    const { response } = await this.options.electron.dialog.showMessageBox({
      type: 'error',
      message: 'The Media Sync window stopped working.',
      detail: `It stopped twice within a minute (${details.reason}). Uploads go on in the background.`,
      buttons: ['Reload the Window', 'Quit Media Sync'],
      defaultId: 0,
      cancelId: 0,
    });
    if (response === 1) this.options.electron.app.quit();
    else if (!window.isDestroyed()) {
      this.lastCrashReload = performance.now();
      window.webContents.reload();
    }
  }

  // ---- tray, notifications, power --------------------------------------------------

  private createTray(assetsDir: string): void {
    const { Tray, nativeImage } = this.options.electron;
    const images = new Map<TrayKind, NativeImage>();
    const image = (kind: TrayKind) => {
      let found = images.get(kind);
      if (!found) images.set(kind, (found = nativeImage.createFromPath(trayIconPath(kind, assetsDir))));
      return found;
    };
    this.trayKind = 'idle';
    this.trayImage = image;
    this.tray = new Tray(image('idle'));
    // Windows and macOS: a click on the icon opens the window (Linux trays only show the menu)
    this.tray.on('click', () => this.showWindow());
    this.disposables.push(
      this.engine!.queue.onDidUpload(({ item, file }) => {
        this.recent.unshift({ name: item.fileName, link: file?.urls.page ?? null });
        this.recent.length = Math.min(this.recent.length, 5);
      }),
    );
  }

  /** The tray reads the whole queue: once a second at most, not at every item event. */
  private scheduleShellRefresh(): void {
    if (this.refreshTimer || this.quitState.kind !== 'running') return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      if (this.quitState.kind === 'running') this.refreshShell();
    }, SHELL_REFRESH_MS);
  }

  private refreshShell(): void {
    const core = this.core!;
    const status = core.queueStatus();
    this.power?.update(status);
    const tray = this.tray;
    if (!tray || !this.trayImage) return;
    const blocked = core.accountViews().find((account) => account.blocked)?.blocked;
    const reason = blocked ? (blocked.text ? core.language.translate(blocked.text) : blocked.message) : null;
    const state = trayState(status, this.engine!.queue.list(), reason, core.language);
    // only on a change of state: some Linux trays flicker when the image is set again
    if (state.kind !== this.trayKind) tray.setImage(this.trayImage((this.trayKind = state.kind)));
    tray.setToolTip(state.tooltip);
    const update = this.updates && updateMenuItem(this.updates.status(), core.language);
    tray.setContextMenu(
      this.options.electron.Menu.buildFromTemplate(
        trayMenuTemplate(
          state,
          this.recent,
          {
            open: () => this.showWindow(),
            pause: (hours) => void core.handle('uploads:pauseAll', { hours }),
            resume: () => void core.handle('uploads:resumeAll', {}),
            openLink: (url) => void this.openExternal(url),
            quit: () => this.options.electron.app.quit(),
            ...(update ? { update: { ...update, click: () => void this.installUpdate() } } : {}),
          },
          core.language,
        ),
      ),
    );
  }

  private watchNotifications(): void {
    const { Notification } = this.options.electron;
    this.disposables.push(
      this.core!.notifications.onDidAdd((notification) => {
        const toast = new Notification({ title: notification.title, body: notification.body });
        toast.on('click', () => (notification.link ? void this.openExternal(notification.link) : this.showWindow()));
        toast.show();
      }),
    );
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
    const core = this.core;
    if (!core || this.quitState.kind !== 'running') {
      this.pending.links.push(...args.links);
      this.pending.files.push(...args.files);
      return;
    }
    for (const link of args.links) core.openLink(link);
    if (args.files.length > 0) {
      core.openFiles(args.files).catch((error: unknown) => this.log?.error('Opened files were not queued.', error));
    }
  }

  /**
   * The login item is written again at every start from the saved setting:
   * an AppImage that was moved, or an app that was updated, must still start.
   */
  private async syncLoginItem(): Promise<void> {
    const settings = await this.core!.handle('settings:get', {});
    if (!settings.ok) return;
    const { launchAtLogin } = settings.value as { launchAtLogin: boolean };
    await this.loginItems.set(launchAtLogin).catch((error: unknown) => {
      this.log?.warn(`Could not update the login item: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  // ---- small helpers ------------------------------------------------------------------

  /**
   * An OS integration that may be missing on some desktops (no power monitor,
   * no protocol handler registry): the app goes on without it and says so in the log.
   */
  private softly(what: string, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.log?.warn(`Going on without ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private fileHosts(): string[] {
    return this.engine?.accounts.list().map((account) => new URL(account.baseUrl).origin) ?? [];
  }

  private async openExternal(url: string): Promise<void> {
    if (isAllowedExternal(url, this.fileHosts())) await this.options.electron.shell.openExternal(url);
  }

  private async installUpdate(): Promise<void> {
    await this.updates
      ?.install()
      .catch((error: unknown) => this.log?.error('The update could not be installed.', error));
  }

  private async openLogsFolder(): Promise<void> {
    const dir = this.log?.dir;
    if (!dir) return;
    const problem = await this.options.electron.shell.openPath(dir);
    if (problem) throw new Error(`The logs folder ${dir} could not be opened: ${problem}`);
  }
}

/** Electron's folder for the app's logs; inside the data folder where the platform has none. */
function logsFolder(app: ElectronModule['app'], dataDir: string): string {
  try {
    return app.getPath('logs');
  } catch {
    return join(dataDir, 'logs');
  }
}
