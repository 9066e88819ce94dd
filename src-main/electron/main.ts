// The desktop app's entry point: a thin adapter from Electron to AppCore.
// Everything it wires is tested elsewhere with fakes; this file only connects.
import {
  BrowserWindow,
  Menu,
  Notification,
  Tray,
  app,
  clipboard,
  dialog,
  ipcMain,
  nativeImage,
  safeStorage,
  shell,
  type NativeImage,
} from 'electron';
import Store from 'electron-store';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppCore } from '../core/app-core.js';
import { localDemoServer } from '../core/demo-server.js';
import { Engine } from '../core/engine.js';
import { registerContractHandlers } from './ipc-bridge.js';
import { SafeStorageVault } from './safe-storage-vault.js';
import { hardenContents, isAllowedExternal, secureWindowOptions } from './security.js';
import { chooseNativeBinding, nativeModuleProblem, runtimePaths, windowIconPath } from './runtime-paths.js';
import { trayIconPath, trayMenuTemplate, trayState, type TrayKind } from './tray-menu.js';

const HERE = import.meta.dirname;
// the renderer and the preload load fine from inside app.asar; real files (assets, .node) come from `paths`
const RENDERER_INDEX = join(HERE, '../renderer/index.html');

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let window: BrowserWindow | null = null;
  const showWindow = () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  app.on('second-instance', showWindow);
  // closing the window keeps uploads going in the tray
  app.on('window-all-closed', () => undefined);

  void app.whenReady().then(async () => {
    const location = { isPackaged: app.isPackaged, mainDir: HERE, resourcesPath: process.resourcesPath };
    const paths = runtimePaths(location);
    const dataDir = app.getPath('userData');
    const store = new Store<Record<string, unknown>>({ name: 'media-sync' });
    const vault = new SafeStorageVault(safeStorage, store);
    let engine: Engine;
    try {
      engine = await Engine.open({
        dataDir,
        vault,
        envToken: process.env['MEDIA_SYNC_TOKEN'] || undefined,
        nativeBinding: chooseNativeBinding(paths.nativeBinding, existsSync),
      });
    } catch (error) {
      // without this the app would sit in the background with no window and no tray
      const problem = nativeModuleProblem(error, location) ?? (error instanceof Error ? error.message : String(error));
      dialog.showErrorBox('Media Sync cannot start', problem);
      app.exit(1);
      return;
    }
    const demo = localDemoServer(dataDir);
    const fileHosts = () => engine.accounts.list().map((account) => new URL(account.baseUrl).origin);
    const openExternal = async (url: string) => {
      if (isAllowedExternal(url, fileHosts())) await shell.openExternal(url);
    };
    const core = new AppCore({
      engine,
      settings: { read: () => store.get('settings', {}), write: (settings) => store.set('settings', settings) },
      shell: {
        openExternal,
        revealPath: async (path) => shell.showItemInFolder(path),
        writeClipboard: async (text) => clipboard.writeText(text),
        setLaunchAtLogin: async (enabled) => app.setLoginItemSettings({ openAtLogin: enabled }),
      },
      info: { version: app.getVersion(), shell: 'electron', dataDir },
      tokenStorage: vault.description,
      startDemo: demo.start,
    });
    await core.start();

    window = new BrowserWindow(
      secureWindowOptions(join(HERE, 'preload.cjs'), windowIconPath(process.platform, paths.assetsDir)),
    );
    hardenContents(window.webContents, window.webContents.session, { appOrigin: 'file://', fileHosts, openExternal });
    registerContractHandlers(
      ipcMain,
      core,
      (url) => url.startsWith('file://'),
      () => window?.webContents ?? null,
    );
    window.once('ready-to-show', showWindow);
    window.on('close', (event) => {
      event.preventDefault();
      window?.hide();
    });
    await window.loadFile(RENDERER_INDEX);

    const trayImages = new Map<TrayKind, NativeImage>();
    const trayImage = (kind: TrayKind) => {
      let image = trayImages.get(kind);
      if (!image) trayImages.set(kind, (image = nativeImage.createFromPath(trayIconPath(kind, paths.assetsDir))));
      return image;
    };
    let trayKind: TrayKind = 'idle';
    const tray = new Tray(trayImage(trayKind));
    const recent: Array<{ name: string; link: string | null }> = [];
    let trayRefreshPending = false;
    const refreshTray = () => {
      const blocked = core.accountViews().find((account) => account.blocked)?.blocked;
      const state = trayState(core.queueStatus(), engine.queue.list(), blocked?.message ?? null);
      // only on a change of state: some Linux trays flicker when the image is set again
      if (state.kind !== trayKind) tray.setImage(trayImage((trayKind = state.kind)));
      tray.setToolTip(state.tooltip);
      tray.setContextMenu(
        Menu.buildFromTemplate(
          trayMenuTemplate(state, recent, {
            open: showWindow,
            pause: (hours) => void core.handle('uploads:pauseAll', { hours }),
            resume: () => void core.handle('uploads:resumeAll', {}),
            openLink: (url) => void openExternal(url),
            quit: () => app.exit(0),
          }),
        ),
      );
    };
    engine.queue.onDidUpload(({ item, file }) => {
      recent.unshift({ name: item.fileName, link: file?.urls.page ?? null });
      recent.length = Math.min(recent.length, 5);
    });
    core.onDidEmit(({ name }) => {
      // the tray reads the whole queue: once a second at most, not at every item event
      if (name !== 'uploads:progress' && !trayRefreshPending) {
        trayRefreshPending = true;
        setTimeout(() => {
          trayRefreshPending = false;
          refreshTray();
        }, 1_000);
      }
    });
    refreshTray();

    core.notifications.onDidAdd((notification) => {
      const toast = new Notification({ title: notification.title, body: notification.body });
      toast.on('click', () => (notification.link ? void openExternal(notification.link) : showWindow()));
      toast.show();
    });

    app.on('before-quit', () => {
      void core
        .dispose()
        .then(() => engine.close())
        .then(() => demo.stop());
    });
  });
}
