import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { netRequest, type NetRequestOptions } from './net.js';

/**
 * A stand-in for the `electron` module of the main process, for machines
 * where Electron's binary cannot run. It follows the documented behaviour
 * the app depends on, not just the method names:
 *
 * - `app.quit()`: `before-quit` (cancellable), then each window's `close`
 *   (cancellable: a prevented close cancels the whole quit), `closed`, then
 *   `will-quit` (cancellable) and `quit`, then the process ends. `app.exit()`
 *   ends it at once, without those events.
 * - Like Electron's loop, the app keeps running until one of those two ends
 *   it (`keepAlive` holds a handle in a real process); all windows closed
 *   outside a quit emit `window-all-closed`, and with no listener the app quits.
 * - `ready` comes after the main script ran; windows and trays exist only then. Single-instance locks go through a `SingleInstance`
 *   (in memory here, files across processes in `electron-module.ts`), and a
 *   second instance's argv reaches the first as `second-instance`.
 * - Windows load real files: `loadFile` rejects a missing page, and records
 *   the scripts and styles the page names that are not on disk.
 *
 * Everything the app asked of the OS is recorded for tests to read.
 */
export interface FakeElectronOptions {
  /** `app.getPath(name)`: at least userData; logs, home, temp… as the test needs */
  paths: Record<string, string>;
  appPath: string;
  name?: string;
  version?: string;
  isPackaged?: boolean;
  platform?: NodeJS.Platform;
  locale?: string;
  /** what `safeStorage.getSelectedStorageBackend()` says (Linux) */
  storageBackend?: string;
  /** macOS: `getLoginItemSettings().wasOpenedAtLogin` */
  openedAtLogin?: boolean;
  singleInstance?: SingleInstance;
  /** this instance's command line and folder, handed to the first instance (default: this process's) */
  argv?: string[];
  cwd?: string;
  /** how the process ends; a test records the code instead of exiting */
  exit?: (code: number) => void;
  /** hold the event loop open until exit, as Electron's does (a real process) */
  keepAlive?: boolean;
  /** emit `ready` by itself on the next turn (default true) */
  autoReady?: boolean;
}

/** Cross-instance lock and argv handover behind `requestSingleInstanceLock`. */
export interface SingleInstance {
  /** true when this instance holds the lock; otherwise its argv has been handed to the holder */
  acquire(handover: SecondInstanceArgs, onSecondInstance: (args: SecondInstanceArgs) => void): boolean;
  release(): void;
}

export interface SecondInstanceArgs {
  argv: string[];
  workingDirectory: string;
  additionalData: unknown;
}

export class FakeEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

/** Single-instance locks between fakes of one test process. */
export class MemorySingleInstance implements SingleInstance {
  private static holders = new Map<string, (args: SecondInstanceArgs) => void>();
  constructor(private readonly key: string) {}

  acquire(handover: SecondInstanceArgs, onSecondInstance: (args: SecondInstanceArgs) => void): boolean {
    const holder = MemorySingleInstance.holders.get(this.key);
    if (holder) {
      setImmediate(() => holder(handover));
      return false;
    }
    MemorySingleInstance.holders.set(this.key, onSecondInstance);
    return true;
  }

  release(): void {
    MemorySingleInstance.holders.delete(this.key);
  }
}

export interface MenuItemLike {
  label?: string;
  role?: string;
  type?: string;
  enabled?: boolean;
  click?: (...args: unknown[]) => void;
  submenu?: MenuItemLike[];
}

export interface FakeMenu {
  items: MenuItemLike[];
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;

/** Creates one fake Electron: `.module` is what `import … from 'electron'` gives the app. */
export function createFakeElectron(options: FakeElectronOptions) {
  const platform = options.platform ?? process.platform;
  /** the lifecycle as it happened: app and window events, in order */
  const timeline: string[] = [];
  const windows: FakeBrowserWindow[] = [];
  const trays: FakeTray[] = [];
  const notifications: FakeNotification[] = [];
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const ipcListeners = new EventEmitter();
  const blockers = new Map<number, string>();
  const record = {
    errorBoxes: [] as Array<{ title: string; content: string }>,
    messageBoxes: [] as unknown[],
    openDialogs: [] as unknown[],
    openedExternal: [] as string[],
    openedPaths: [] as string[],
    shownInFolder: [] as string[],
    /** files given to shell.trashItem, in order (each one is gone from its folder afterwards) */
    trashed: [] as string[],
    clipboard: '',
    appUserModelId: null as string | null,
    protocolClients: [] as Array<{ protocol: string; path?: string; args?: string[] }>,
    loginItemSettings: null as unknown,
    applicationMenu: null as FakeMenu | null,
    dockVisible: true,
    /** every Dock badge text and badge count set, in order */
    badges: [] as Array<string | number>,
    exitCode: null as number | null,
  };
  const dialogAnswers: string[][] = [];
  const messageBoxAnswers: number[] = [];
  let ready = false;
  let quitting = false;
  let finished = false;
  let online = true;
  let nextId = 1;
  let resolveExited!: (code: number) => void;
  const exited = new Promise<number>((resolveExit) => (resolveExited = resolveExit));
  const keepAlive = options.keepAlive ? setInterval(() => undefined, 1 << 30) : null;
  let resolveReady!: () => void;
  const readyPromise = new Promise<void>((resolveWhenReady) => (resolveReady = resolveWhenReady));

  const finish = (code: number) => {
    if (finished) return;
    finished = true;
    record.exitCode = code;
    timeline.push(`exit ${code}`);
    options.singleInstance?.release();
    if (keepAlive) clearInterval(keepAlive);
    resolveExited(code);
    options.exit?.(code);
  };
  const live = () => windows.filter((window) => !window.destroyed);

  class App extends EventEmitter {
    readonly isPackaged = options.isPackaged ?? false;
    readonly dock =
      platform === 'darwin'
        ? {
            hide: () => void (record.dockVisible = false),
            show: async () => void (record.dockVisible = true),
            isVisible: () => record.dockVisible,
            setBadge: (text: string) => void record.badges.push(text),
          }
        : undefined;

    whenReady(): Promise<void> {
      return readyPromise;
    }
    isReady(): boolean {
      return ready;
    }
    getPath(name: string): string {
      const path = options.paths[name];
      if (!path) throw new Error(`Failed to get '${name}' path`);
      return path;
    }
    getAppPath(): string {
      return options.appPath;
    }
    getName(): string {
      return options.name ?? 'media-sync';
    }
    getVersion(): string {
      return options.version ?? '0.0.0';
    }
    getLocale(): string {
      return options.locale ?? 'en-US';
    }
    setAppUserModelId(id: string): void {
      record.appUserModelId = id;
    }
    setAsDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean {
      record.protocolClients.push({ protocol, path, args });
      return true;
    }
    setLoginItemSettings(settings: unknown): void {
      record.loginItemSettings = settings;
    }
    getLoginItemSettings() {
      const set = record.loginItemSettings as { openAtLogin?: boolean } | null;
      return {
        openAtLogin: set?.openAtLogin ?? false,
        wasOpenedAtLogin: options.openedAtLogin ?? false,
        status: 'not-registered',
        executableWillLaunchAtLogin: false,
        launchItems: [],
      };
    }
    requestSingleInstanceLock(additionalData?: unknown): boolean {
      if (!options.singleInstance) return true;
      return options.singleInstance.acquire(
        {
          argv: [...(options.argv ?? process.argv)],
          workingDirectory: options.cwd ?? process.cwd(),
          additionalData: additionalData ?? null,
        },
        ({ argv, workingDirectory, additionalData: data }) => {
          timeline.push('second-instance');
          this.emit('second-instance', new FakeEvent(), argv, workingDirectory, data);
        },
      );
    }
    releaseSingleInstanceLock(): void {
      options.singleInstance?.release();
    }
    focus(): void {}

    setBadgeCount(count?: number): boolean {
      record.badges.push(count ?? 0);
      return true;
    }
    quit(): void {
      if (quitting || finished) return;
      quitting = true;
      const beforeQuit = new FakeEvent();
      timeline.push('before-quit');
      this.emit('before-quit', beforeQuit);
      if (beforeQuit.defaultPrevented) {
        quitting = false;
        timeline.push('quit prevented');
        return;
      }
      // closing windows takes a turn of the loop in Electron (the pages unload)
      setImmediate(() => this.closeWindowsAndQuit());
    }

    exit(code = 0): void {
      for (const window of live()) window.destroy();
      finish(code);
    }

    private closeWindowsAndQuit(): void {
      for (const window of live()) {
        const close = new FakeEvent();
        timeline.push(`window ${window.id} close`);
        window.emit('close', close);
        if (close.defaultPrevented) {
          quitting = false;
          timeline.push('quit cancelled by a window');
          return;
        }
        window.destroy();
      }
      const willQuit = new FakeEvent();
      timeline.push('will-quit');
      this.emit('will-quit', willQuit);
      if (willQuit.defaultPrevented) {
        quitting = false;
        return;
      }
      timeline.push('quit');
      this.emit('quit', new FakeEvent(), 0);
      finish(0);
    }
  }
  const app = new App();

  class FakeSession {
    readonly webRequest = { onHeadersReceived: (handler: unknown) => (this.headersHandler = handler) };
    permissionRequestHandler: unknown = null;
    permissionCheckHandler: unknown = null;
    headersHandler: unknown = null;
    setPermissionRequestHandler(handler: unknown): void {
      this.permissionRequestHandler = handler;
    }
    setPermissionCheckHandler(handler: unknown): void {
      this.permissionCheckHandler = handler;
    }
  }
  const defaultSession = new FakeSession();

  class FakeWebContents extends EventEmitter {
    readonly session = defaultSession;
    readonly sent: Array<{ channel: string; args: unknown[] }> = [];
    url = '';
    reloads = 0;
    destroyed = false;
    windowOpenHandler: unknown = null;
    constructor(readonly id: number) {
      super();
    }
    send(channel: string, ...args: unknown[]): void {
      if (this.destroyed) throw new Error('Object has been destroyed');
      this.sent.push({ channel, args });
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    getURL(): string {
      return this.url;
    }
    setWindowOpenHandler(handler: unknown): void {
      this.windowOpenHandler = handler;
    }
    reload(): void {
      this.reloads++;
      setImmediate(() => this.emit('did-finish-load'));
    }
    /** the renderer died: what Electron reports as `render-process-gone` */
    crash(reason = 'crashed', exitCode = 139): void {
      this.emit('render-process-gone', new FakeEvent(), { reason, exitCode });
    }
  }

  class FakeBrowserWindow extends EventEmitter {
    static getAllWindows(): FakeBrowserWindow[] {
      return live();
    }
    readonly id = nextId++;
    readonly webContents = new FakeWebContents(this.id);
    visible = false;
    minimized = false;
    focused = false;
    destroyed = false;
    loadedFile: string | null = null;
    /** scripts and styles the loaded page names that do not exist */
    missingResources: string[] = [];
    /** every setProgressBar call, in order: -1 removes the bar */
    progressBar: Array<{ progress: number; mode?: string }> = [];

    constructor(readonly options: Record<string, unknown> = {}) {
      super();
      if (!ready) throw new Error('Cannot create BrowserWindow before app is ready');
      windows.push(this);
      timeline.push(`window ${this.id} created`);
    }

    async loadFile(path: string): Promise<void> {
      const absolute = resolve(path);
      if (!existsSync(absolute)) throw new Error(`ERR_FILE_NOT_FOUND (-6) loading '${pathToFileURL(absolute).href}'`);
      const html = readFileSync(absolute, 'utf8');
      this.loadedFile = absolute;
      this.webContents.url = pathToFileURL(absolute).href;
      this.missingResources = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)]
        .map(([, reference]) => reference!)
        .filter((reference) => !/^[a-z]+:/i.test(reference))
        .filter((reference) => !existsSync(resolve(dirname(absolute), reference.split(/[?#]/)[0]!)));
      await new Promise((resolveLoad) => setImmediate(resolveLoad));
      timeline.push(`window ${this.id} loaded`);
      this.webContents.emit('did-finish-load');
      this.emit('ready-to-show');
    }
    show(): void {
      this.visible = true;
      this.focused = true;
      timeline.push(`window ${this.id} shown`);
      this.emit('show');
    }
    hide(): void {
      this.visible = false;
      this.focused = false;
      timeline.push(`window ${this.id} hidden`);
      this.emit('hide');
    }
    focus(): void {
      this.focused = true;
    }
    isVisible(): boolean {
      return this.visible;
    }
    isFocused(): boolean {
      return this.focused;
    }
    isMinimized(): boolean {
      return this.minimized;
    }
    minimize(): void {
      this.minimized = true;
      this.emit('minimize');
    }
    restore(): void {
      this.minimized = false;
      this.emit('restore');
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    setProgressBar(progress: number, options: { mode?: string } = {}): void {
      this.progressBar.push({ progress, ...options });
    }
    /** the person clicked the window's close button */
    close(): void {
      if (this.destroyed) return;
      const event = new FakeEvent();
      timeline.push(`window ${this.id} close`);
      this.emit('close', event);
      if (!event.defaultPrevented) this.destroy();
    }
    destroy(): void {
      if (this.destroyed) return;
      this.destroyed = true;
      this.visible = false;
      this.webContents.destroyed = true;
      timeline.push(`window ${this.id} closed`);
      this.emit('closed');
      if (!quitting && live().length === 0 && !finished) {
        if (app.listenerCount('window-all-closed') > 0) app.emit('window-all-closed');
        else app.quit();
      }
    }
  }

  class FakeTray extends EventEmitter {
    image: unknown;
    tooltip = '';
    menu: FakeMenu | null = null;
    destroyed = false;
    constructor(image: unknown) {
      super();
      if (!ready) throw new Error('Cannot create Tray before app is ready');
      this.image = image;
      trays.push(this);
    }
    setImage(image: unknown): void {
      this.image = image;
    }
    setToolTip(tooltip: string): void {
      this.tooltip = tooltip;
    }
    setContextMenu(menu: FakeMenu | null): void {
      this.menu = menu;
    }
    destroy(): void {
      this.destroyed = true;
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
  }

  class FakeNotification extends EventEmitter {
    static isSupported(): boolean {
      return true;
    }
    shown = false;
    closed = false;
    constructor(
      readonly options: { title?: string; body?: string; actions?: Array<{ type: string; text: string }> } = {},
    ) {
      super();
    }
    show(): void {
      this.shown = true;
      notifications.push(this);
    }
    close(): void {
      this.closed = true;
      this.emit('close', new FakeEvent());
    }
    click(): void {
      this.emit('click', new FakeEvent());
    }
  }

  let onBattery = false;
  /** Electron's powerMonitor: events, and whether the machine runs on battery now (`setOnBattery`) */
  const powerMonitor = Object.assign(new EventEmitter(), {
    isOnBatteryPower: () => onBattery,
    get onBatteryPower() {
      return onBattery;
    },
  });

  const module = {
    app,
    BrowserWindow: FakeBrowserWindow,
    Tray: FakeTray,
    Notification: FakeNotification,
    Menu: {
      buildFromTemplate: (template: MenuItemLike[]): FakeMenu => ({ items: template }),
      setApplicationMenu: (menu: FakeMenu | null) => void (record.applicationMenu = menu),
      getApplicationMenu: () => record.applicationMenu,
    },
    nativeImage: {
      createFromPath: (path: string) => ({ path, isEmpty: () => !existsSync(path) }),
    },
    dialog: {
      showErrorBox: (title: string, content: string) => void record.errorBoxes.push({ title, content }),
      showOpenDialog: async (...args: unknown[]) => {
        record.openDialogs.push(args.at(-1));
        const filePaths = dialogAnswers.shift() ?? [];
        return { canceled: filePaths.length === 0, filePaths };
      },
      showMessageBox: async (...args: unknown[]) => {
        record.messageBoxes.push(args.at(-1));
        return { response: messageBoxAnswers.shift() ?? 0, checkboxChecked: false };
      },
    },
    safeStorage: {
      isEncryptionAvailable: () => true,
      isAsyncEncryptionAvailable: async () => true,
      getSelectedStorageBackend: () => options.storageBackend ?? 'gnome_libsecret',
      encryptStringAsync: async (text: string) => Buffer.from(`fake-encrypted:${Buffer.from(text).toString('hex')}`),
      decryptStringAsync: async (data: Buffer) => ({
        result: Buffer.from(data.toString().replace(/^fake-encrypted:/, ''), 'hex').toString(),
        shouldReEncrypt: false,
      }),
    },
    shell: {
      openExternal: async (url: string) => void record.openedExternal.push(url),
      openPath: async (path: string) => {
        record.openedPaths.push(path);
        return '';
      },
      showItemInFolder: (path: string) => void record.shownInFolder.push(path),
      // Electron moves the item to the OS's Trash and rejects when it cannot: here it is recorded and removed
      trashItem: async (path: string) => {
        await unlink(path);
        record.trashed.push(path);
      },
    },
    clipboard: {
      writeText: (text: string) => void (record.clipboard = text),
      readText: () => record.clipboard,
    },
    ipcMain: {
      handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => {
        if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        handlers.set(channel, handler);
      },
      removeHandler: (channel: string) => void handlers.delete(channel),
      on: (channel: string, listener: (...args: unknown[]) => void) => ipcListeners.on(channel, listener),
      removeListener: (channel: string, listener: (...args: unknown[]) => void) =>
        ipcListeners.removeListener(channel, listener),
    },
    powerSaveBlocker: {
      start: (type: string) => {
        const id = nextId++;
        blockers.set(id, type);
        return id;
      },
      stop: (id: number) => void blockers.delete(id),
      isStarted: (id: number) => blockers.has(id),
    },
    // Electron creates the native monitor once the app is ready and the first listener is added
    powerMonitor,
    net: {
      isOnline: () => online,
      get online() {
        return online;
      },
      /** over node:http, with Electron's ClientRequest semantics (net.ts); fails while offline */
      request: (requestOptions: NetRequestOptions) => netRequest(requestOptions, { isOnline: () => online }),
    },
    session: { defaultSession, fromPartition: () => new FakeSession() },
    /** Electron's own updater (macOS/Windows); electron-updater emits `before-quit-for-update` on it */
    autoUpdater: new EventEmitter(),
  };

  if (options.autoReady !== false) setImmediate(() => becomeReady());
  function becomeReady(): void {
    if (ready || finished) return;
    ready = true;
    timeline.push('ready');
    app.emit('will-finish-launching');
    app.emit('ready', new FakeEvent(), {});
    resolveReady();
  }

  return {
    module: Object.assign(module, { default: module }),
    app,
    timeline,
    windows,
    trays,
    notifications,
    blockers,
    record,
    powerMonitor,
    /** resolves with the exit code once the app exited */
    exited,
    becomeReady,
    get finished() {
      return finished;
    },
    get window(): FakeBrowserWindow | undefined {
      return live()[0];
    },
    get tray(): FakeTray | undefined {
      return trays.find((tray) => !tray.destroyed);
    },
    setOnline(value: boolean): void {
      online = value;
    },
    /** unplugged (true) or plugged in: the state changes, then `on-battery` or `on-ac`, as Electron does */
    setOnBattery(value: boolean): void {
      if (value === onBattery) return;
      onBattery = value;
      powerMonitor.emit(value ? 'on-battery' : 'on-ac');
    },
    /** the next folder (or none: cancelled) the open dialog answers */
    answerOpenDialog(filePaths: string[]): void {
      dialogAnswers.push(filePaths);
    },
    answerMessageBox(response: number): void {
      messageBoxAnswers.push(response);
    },
    /**
     * What the window's page gets from `ipcRenderer.invoke(channel, ...args)`:
     * the handler runs with the window's top frame as the sender.
     */
    async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      const window = live()[0];
      const url = window?.webContents.getURL() ?? '';
      return handler({ sender: window?.webContents, senderFrame: { url, parent: null } }, ...args);
    },
    handlesChannel(channel: string): boolean {
      return handlers.has(channel);
    },
  };
}

/** The item of a menu at a path of labels (`['Pause uploads', 'For 2 hours']`). */
export function menuItem(menu: FakeMenu | null | undefined, path: readonly string[]): MenuItemLike | undefined {
  let items = menu?.items ?? [];
  let found: MenuItemLike | undefined;
  for (const label of path) {
    found = items.find((item) => item.label === label);
    items = found?.submenu ?? [];
  }
  return found;
}
