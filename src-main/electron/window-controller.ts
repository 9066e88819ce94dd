import type { BrowserWindow, RenderProcessGoneDetails } from 'electron';
import { join } from 'node:path';
import { DisposableStore } from '../common/disposable.js';
import type { Log } from '../common/file-log.js';
import type { ShutdownPort } from '../common/shutdown.js';
import type { AppCore } from '../core/app-core.js';
import { appMenuTemplate } from './app-menu.js';
import type { ElectronModule } from './electron-module.js';
import { forwardEvents, registerContractHandlers } from './ipc-bridge.js';
import { windowIconPath } from './runtime-paths.js';
import { hardenContents, secureWindowOptions } from './security.js';
import { softly } from './softly.js';

/** Within this time a second renderer crash is not reloaded by itself (it would loop). */
const CRASH_RELOAD_WINDOW_MS = 60_000;

export interface WindowControllerOptions {
  electron: ElectronModule;
  core: AppCore;
  log: Log;
  platform: NodeJS.Platform;
  /** the folder of the bundled main.js: the preload beside it, the UI in `../renderer` */
  mainDir: string;
  assetsDir: string;
  /** started at login with nothing to open: the window stays hidden, the app in the tray */
  startHidden: boolean;
  /** the quit sequence's say (`windowMayClose`): the close button closes only on the way out */
  mayClose(): boolean;
  /** neither starting nor stopping: a crashed page is reloaded, the menu follows the language */
  isRunning(): boolean;
  /** the signed-in file hosts, whose links open in the browser */
  fileHosts(): string[];
  openExternal(url: string): Promise<void>;
  openLogsFolder(): Promise<void>;
  /** the page's ipc handlers go in the stop's `intake` phase, before the core */
  shutdown: ShutdownPort;
}

/**
 * The app's one window and its application menu. The window is made secure
 * (security.ts), its page reaches the core over the contract's ipc channels,
 * its close button hides it to the tray except on the way out, and a page
 * that crashes is reloaded once; a second crash within a minute asks instead
 * of looping. The menu speaks the core's language, and follows it.
 */
export class WindowController {
  private window: BrowserWindow | null;
  private readonly disposables = new DisposableStore();
  private lastCrashReload = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: WindowControllerOptions) {
    const { electron, core, log, mainDir, startHidden } = options;
    options.shutdown.onWillShutdown('intake', () => this.disposables.dispose());
    this.setAppMenu();
    this.disposables.add(core.language.onDidChange(() => options.isRunning() && this.setAppMenu()));
    const window = new electron.BrowserWindow({
      ...secureWindowOptions(join(mainDir, 'preload.cjs'), windowIconPath(options.platform, options.assetsDir)),
      autoHideMenuBar: true,
    });
    this.window = window;
    hardenContents(window.webContents, window.webContents.session, {
      appOrigin: 'file://',
      fileHosts: () => options.fileHosts(),
      openExternal: (url) => options.openExternal(url),
    });
    this.disposables.add(registerContractHandlers(electron.ipcMain, core, (url) => url.startsWith('file://')));
    this.disposables.add(forwardEvents(core, window, startHidden));
    window.on('close', (event) => {
      if (options.mayClose()) return;
      event.preventDefault();
      this.hide();
    });
    window.on('closed', () => (this.window = null));
    window.webContents.on('render-process-gone', (_event, details) => void this.onRendererGone(details));
    // shown once painted (no white flash), or at the latest once loaded, should ready-to-show not come
    let revealed = startHidden;
    const reveal = () => {
      if (revealed) return;
      revealed = true;
      this.show();
    };
    if (startHidden) {
      log.info('Started at login: staying in the tray.');
      electron.app.dock?.hide();
    } else {
      window.once('ready-to-show', reveal);
    }
    window.loadFile(join(mainDir, '..', 'renderer', 'index.html')).then(reveal, (error: unknown) => {
      log.error('The window could not load the UI.', error);
      // a window that stays hidden would leave only the tray: show what there is
      reveal();
    });
  }

  /** The window, for a dialog to be modal to; null once it is closed. */
  get browserWindow(): BrowserWindow | null {
    return this.window;
  }

  show(): void {
    const window = this.window;
    if (!window || window.isDestroyed()) return;
    void this.options.electron.app.dock?.show();
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }

  hide(): void {
    this.window?.hide();
    // macOS: with only the tray left, the app leaves the Dock and the app switcher
    this.options.electron.app.dock?.hide();
  }

  private setAppMenu(): void {
    const { electron, platform, core } = this.options;
    const { Menu, app } = electron;
    const actions = { openLogsFolder: () => void this.options.openLogsFolder() };
    softly(this.options.log, 'setting the application menu', () =>
      Menu.setApplicationMenu(
        Menu.buildFromTemplate(appMenuTemplate(platform, app.isPackaged, actions, core.language)),
      ),
    );
  }

  /** A crashed page is reloaded once; a second crash within a minute asks the person instead of looping. */
  private async onRendererGone(details: RenderProcessGoneDetails): Promise<void> {
    const window = this.window;
    const { log, electron } = this.options;
    if (!window || !this.options.isRunning() || details.reason === 'clean-exit') return;
    log.warn(`The window's page stopped (${details.reason}, exit code ${details.exitCode}).`);
    const now = performance.now();
    if (now - this.lastCrashReload > CRASH_RELOAD_WINDOW_MS) {
      this.lastCrashReload = now;
      window.webContents.reload();
      return;
    }
    log.error('The page stopped again within a minute: not reloading it by itself.');
    const { response } = await electron.dialog.showMessageBox({
      type: 'error',
      message: 'The Media Sync window stopped working.',
      detail: `It stopped twice within a minute (${details.reason}). Uploads go on in the background.`,
      buttons: ['Reload the Window', 'Quit Media Sync'],
      defaultId: 0,
      cancelId: 0,
    });
    if (response === 1) electron.app.quit();
    else if (!window.isDestroyed()) {
      this.lastCrashReload = performance.now();
      window.webContents.reload();
    }
  }
}
