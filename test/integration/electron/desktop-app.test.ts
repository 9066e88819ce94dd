import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '../../../src-shared/ipc/ipc-contract.js';
import { APP_ID } from '../../../src-main/electron/app-identity.js';
import { DesktopApp, type DesktopStore } from '../../../src-main/electron/desktop-app.js';
import { tryLockDataFolder } from '../../../src-main/storage/data-folder-lock.js';
import type { ElectronModule } from '../../../src-main/electron/electron-module.js';
import { tempDir, writeRandomFile } from '../../helpers/engine-fixture.js';
import {
  createFakeElectron,
  MemorySingleInstance,
  menuItem,
  type FakeElectron,
  type FakeElectronOptions,
} from '../../helpers/fake-electron/fake-electron.js';
import { DEFAULT_UPDATE_URL } from '../../../src-shared/model/update-status.js';
import { FakeUpdater } from '../../helpers/fake-updater.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { NO_SYSTEM_BUS } from '../../helpers/private-dbus.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/** electron-store's part the app uses, kept in memory (shared by the launches of one test, like the file). */
class MemoryStore implements DesktopStore {
  private readonly values = new Map<string, unknown>();
  get(key: string, defaultValue?: unknown): unknown {
    return this.values.has(key) ? structuredClone(this.values.get(key)) : defaultValue;
  }
  set(key: string, value: unknown): void {
    this.values.set(key, structuredClone(value));
  }
  delete(key: string): void {
    this.values.delete(key);
  }
}

interface Launched {
  fake: FakeElectron;
  app: DesktopApp;
  signals: EventEmitter;
  invoke<T = unknown>(name: string, request?: unknown): Promise<T>;
  logText(): Promise<string>;
}

/**
 * The desktop app on a fake Electron in this process, with real SQLite and
 * folders under `home`, and a stand-in build of the UI beside main.js.
 */
describe('the desktop app on a fake Electron', () => {
  let home: Awaited<ReturnType<typeof tempDir>>;
  let server: TestServer;
  let store: MemoryStore;
  let updater: FakeUpdater;
  const running: Launched[] = [];

  beforeEach(async () => {
    home = await tempDir('media-sync-desktop-');
    server = await startTestServer();
    store = new MemoryStore();
    updater = new FakeUpdater();
    await mkdir(join(home.path, 'app', 'dist', 'electron'), { recursive: true });
    await mkdir(join(home.path, 'app', 'dist', 'renderer'), { recursive: true });
    await writeFile(
      join(home.path, 'app', 'dist', 'renderer', 'index.html'),
      '<!doctype html><title>Media Sync</title>',
    );
  });

  afterEach(async () => {
    for (const launched of running.splice(0)) {
      if (!launched.fake.finished) launched.fake.app.quit();
      await launched.fake.exited;
    }
    await server.close();
    await home.remove();
  });

  function launch(
    options: Partial<FakeElectronOptions> & { argv?: string[]; env?: Record<string, string> } = {},
  ): Launched {
    const { argv: args = [], env = {}, ...fakeOptions } = options;
    const argv = ['/opt/media-sync/media-sync', ...args];
    const fake = createFakeElectron({
      argv,
      cwd: home.path,
      paths: { userData: join(home.path, 'userData'), logs: join(home.path, 'logs') },
      appPath: join(home.path, 'app'),
      version: '1.0.0',
      platform: 'linux',
      // as installed: argv[1] is the first argument, not an app folder
      isPackaged: true,
      ...fakeOptions,
    });
    const signals = new EventEmitter();
    const app = new DesktopApp({
      electron: fake.module as unknown as ElectronModule,
      createStore: () => store,
      createUpdater: () => updater.asPort(),
      argv,
      env: { XDG_CONFIG_HOME: join(home.path, 'config'), DBUS_SYSTEM_BUS_ADDRESS: NO_SYSTEM_BUS, ...env },
      platform: fakeOptions.platform ?? 'linux',
      execPath: '/opt/media-sync/media-sync',
      homeDir: home.path,
      cwd: home.path,
      mainDir: join(home.path, 'app', 'dist', 'electron'),
      resourcesPath: join(home.path, 'resources'),
      process: signals as unknown as NodeJS.Process,
    });
    app.start();
    const launched: Launched = {
      fake,
      app,
      signals,
      async invoke<T>(name: string, request: unknown = {}) {
        const result = (await fake.invoke(`ipc:${name}`, request)) as IpcResult<T>;
        if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
        return result.value;
      },
      logText: () => readFile(join(home.path, 'logs', 'main.log'), 'utf8').catch(() => ''),
    };
    running.push(launched);
    return launched;
  }

  async function shown(launched: Launched) {
    await waitFor(() => (launched.fake.window?.visible && launched.fake.tray ? true : undefined));
  }

  const quitTimeline = [
    'before-quit',
    'quit prevented',
    'before-quit',
    'window 1 close',
    'window 1 closed',
    'will-quit',
    'quit',
    'exit 0',
  ];

  it('hides the window to the tray when it is closed, and keeps running', async () => {
    const desktop = launch();
    await shown(desktop);
    desktop.fake.window!.close();
    expect(desktop.fake.window!.visible).toBe(false);
    expect(desktop.fake.window!.destroyed).toBe(false);
    expect(desktop.fake.finished).toBe(false);
    expect(desktop.fake.tray!.tooltip).toBe('Media Sync: up to date');
  });

  it("a window hidden to the tray or minimized gets no events, its page told 'paused'; shown again, 'open' and the next events", async () => {
    const desktop = launch();
    await shown(desktop);
    const window = desktop.fake.window!;
    const told = () =>
      window.webContents.sent.filter(({ channel }) => channel === 'ipc:connection').map(({ args }) => args[0]);
    const events = () => window.webContents.sent.filter(({ channel }) => channel === 'ipc:event').length;
    const statusChanged = async () => {
      const before = events();
      await desktop.invoke('uploads:pauseAll', { until: null });
      await desktop.invoke('uploads:resumeAll');
      return events() - before;
    };
    expect(await statusChanged()).toBeGreaterThan(0);

    window.close();
    expect(told()).toEqual(['paused']);
    expect(await statusChanged()).toBe(0);
    menuItem(desktop.fake.tray!.menu, ['Open Media Sync'])!.click!();
    expect(window.visible).toBe(true);
    expect(told()).toEqual(['paused', 'open']);
    expect(await statusChanged()).toBeGreaterThan(0);

    window.minimize();
    expect(await statusChanged()).toBe(0);
    window.restore();
    expect(told()).toEqual(['paused', 'open', 'paused', 'open']);
    expect(await statusChanged()).toBeGreaterThan(0);
  });

  it('speaks the OS language in the tray, and follows the language setting at once', async () => {
    const desktop = launch({ locale: 'de-DE' });
    await shown(desktop);
    expect(desktop.fake.tray!.tooltip).toBe('Media Sync: auf dem neuesten Stand');
    expect(menuItem(desktop.fake.tray!.menu, ['Beenden'])).toBeDefined();
    expect(menuItem(desktop.fake.record.applicationMenu, ['Ansicht'])).toBeDefined();
    await desktop.invoke('settings:update', { language: 'en' });
    expect(desktop.fake.tray!.tooltip).toBe('Media Sync: up to date');
    expect(menuItem(desktop.fake.tray!.menu, ['Quit'])).toBeDefined();
    expect(menuItem(desktop.fake.record.applicationMenu, ['View'])).toBeDefined();
    await desktop.invoke('settings:update', { language: 'system' });
    // the tray reads the queue through the contract again, in the new language: a few reads after the answer
    const german = () => (desktop.fake.tray!.tooltip === 'Media Sync: auf dem neuesten Stand' ? true : undefined);
    expect(await waitFor(german, 5_000, 'the tray in German again')).toBe(true);
  });

  it('quits in order: the core stops before Electron closes the window, then the process ends', async () => {
    const desktop = launch();
    await shown(desktop);
    desktop.fake.app.quit();
    expect(await desktop.fake.exited).toBe(0);
    const timeline = desktop.fake.timeline;
    expect(timeline.slice(timeline.indexOf('before-quit'))).toEqual(quitTimeline);
    expect(await desktop.logText()).toContain('Stopped: the queue is saved and the database closed.');
    expect(desktop.fake.tray).toBeUndefined();
  });

  it("quits the same way from the tray's Quit and on SIGTERM", async () => {
    const fromTray = launch();
    await shown(fromTray);
    menuItem(fromTray.fake.tray!.menu, ['Quit'])!.click!();
    expect(await fromTray.fake.exited).toBe(0);
    expect(fromTray.fake.timeline.slice(-quitTimeline.length)).toEqual(quitTimeline);

    const terminated = launch();
    await shown(terminated);
    terminated.signals.emit('SIGTERM');
    expect(await terminated.fake.exited).toBe(0);
    expect(terminated.fake.timeline.slice(-quitTimeline.length)).toEqual(quitTimeline);
  });

  it('quits mid-upload keeping the acknowledged chunks, and the next start finishes without sending them again', async () => {
    const first = launch();
    await shown(first);
    await first.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    const [account] = await first.invoke<Array<{ id: string }>>('account:list');
    await first.invoke('settings:update', { chunkSizeBytes: 1_000_000, bandwidthBytesPerSecond: 2_000_000 });
    const path = join(home.path, 'clip.mp4');
    await writeRandomFile(path, 12_000_000, 3);
    await first.invoke('uploads:addPaths', { accountId: account!.id, paths: [path] });
    await waitFor(() => (server.server.uploadLog.entries().length >= 3 ? true : undefined), 20_000);
    expect(first.fake.blockers.size).toBe(1);
    first.fake.app.quit();
    expect(await first.fake.exited).toBe(0);

    const second = launch();
    await shown(second);
    await second.invoke('settings:update', { bandwidthBytesPerSecond: null });
    await waitFor(async () => {
      const { items } = await second.invoke<{ items: Array<{ state: { kind: string } }> }>('uploads:list');
      return items[0]?.state.kind === 'done' ? true : undefined;
    }, 20_000);
    // the chunks cut off by the quit are sent again; none the server had answered is
    const accepted = () =>
      server.server.uploadLog
        .entries()
        .filter((entry) => entry.status >= 200 && entry.status < 300)
        .map((entry) => entry.chunkIndex!)
        .toSorted((a, b) => a - b);
    await waitFor(() => (accepted().length >= 12 ? true : undefined));
    expect(accepted()).toEqual([...Array(12).keys()]);
    const files = await server.api('/files');
    expect((files.json as { data: unknown[] }).data).toHaveLength(1);
  });

  it('a second launch with the demo account signed in serves it: the demo server comes back at the same address', async () => {
    const first = launch();
    await shown(first);
    const demo = await first.invoke<{ id: string; baseUrl: string }>('account:startDemo');
    const path = join(home.path, 'beach.jpg');
    await writeRandomFile(path, 300_000, 9);
    await first.invoke('uploads:addPaths', { accountId: demo.id, paths: [path] });
    await waitFor(async () => {
      const { items } = await first.invoke<{ items: Array<{ state: { kind: string } }> }>('uploads:list');
      return items[0]?.state.kind === 'done' ? true : undefined;
    }, 20_000);
    first.fake.app.quit();
    expect(await first.fake.exited).toBe(0);

    const second = launch();
    await shown(second);
    expect(await second.invoke('account:list')).toEqual([
      expect.objectContaining({ id: demo.id, baseUrl: demo.baseUrl }),
    ]);
    expect(await second.invoke('account:summary', { accountId: demo.id })).toMatchObject({ username: 'demo' });
    const files = await second.invoke<{ data: Array<{ name: string }> }>('files:list', { accountId: demo.id });
    expect(files.data.map((file) => file.name)).toEqual(['beach.jpg']);
    expect(await second.logText()).toContain(`The local demo server is back at ${demo.baseUrl} for the demo account.`);
  });

  it('does not start beside another owner of its data folder (a running `media-sync serve`): it says which, and quits', async () => {
    const held = tryLockDataFolder(join(home.path, 'userData'), { kind: 'daemon', url: 'http://127.0.0.1:8790/' });
    if (!held.ok) throw new Error('the test could not take the lock');
    try {
      const desktop = launch();
      await desktop.fake.exited;
      expect(desktop.fake.record.exitCode).toBe(1);
      expect(desktop.fake.record.errorBoxes).toEqual([
        {
          title: 'Media Sync cannot start',
          content: `media-sync serve (pid ${process.pid}, http://127.0.0.1:8790/) is using the data folder ${join(home.path, 'userData')}. Stop it, then start the app again.`,
        },
      ]);
      expect(desktop.fake.window).toBeUndefined();
    } finally {
      held.lock.release();
    }
    // once it is gone the app starts, and holds the folder itself
    const desktop = launch();
    await shown(desktop);
    expect(tryLockDataFolder(join(home.path, 'userData'), { kind: 'cli', url: null })).toMatchObject({
      ok: false,
      owner: { kind: 'desktop', pid: process.pid },
    });
  });

  it('on a damaged database, says which file in a dialog, and starts afresh only when the person asks', async () => {
    const first = launch();
    await shown(first);
    await first.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    first.fake.app.quit();
    expect(await first.fake.exited).toBe(0);
    const database = join(home.path, 'userData', 'media-sync.db');
    const damaged = Buffer.concat([Buffer.alloc(100, 0x5a), (await readFile(database)).subarray(100)]);
    await writeFile(database, damaged);
    const summary = `The database ${database} is damaged (file is not a database).`;

    // Quit: nothing changes, the app ends
    const quitting = launch();
    quitting.fake.answerMessageBox(1);
    await quitting.fake.exited;
    expect(quitting.fake.record.exitCode).toBe(1);
    expect(quitting.fake.record.messageBoxes).toEqual([
      expect.objectContaining({
        type: 'error',
        message: summary,
        buttons: ['Keep a copy aside and start with a fresh database', 'Quit'],
      }),
    ]);
    expect(await readFile(database)).toEqual(damaged);
    expect(quitting.fake.window).toBeUndefined();

    // the button: the damaged file kept aside, what was kept said, and the app starts
    const repairing = launch();
    repairing.fake.answerMessageBox(0);
    await shown(repairing);
    const [, report] = repairing.fake.record.messageBoxes as Array<{ detail: string }>;
    const copy = /Kept the damaged database as (\S+) and started a fresh one\./.exec(report!.detail)?.[1];
    expect(await readFile(copy!)).toEqual(damaged);
    expect(await repairing.invoke('account:list')).toEqual([]);
    expect(await repairing.logText()).toContain(summary);
  });

  it('hands a second instance over to the first: it shows the window and gets the links and files; the second quits', async () => {
    const singleInstance = () => new MemorySingleInstance(home.path);
    const first = launch({ singleInstance: singleInstance(), argv: ['--hidden'] });
    await waitFor(() => (first.fake.tray ? true : undefined));
    expect(first.fake.window!.visible).toBe(false);
    await first.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    const path = join(home.path, 'opened.mp4');
    await writeFile(path, 'z'.repeat(1000));

    const second = launch({ singleInstance: singleInstance(), argv: ['media-sync://files?search=clip', path] });
    expect(await second.fake.exited).toBe(0);
    expect(second.fake.windows).toEqual([]);
    await waitFor(() => (first.fake.window!.visible ? true : undefined));
    // the link is kept at once, the files once they are queued: a page may take them in two goes
    const kinds: string[] = [];
    await waitFor(async () => {
      kinds.push(...(await first.invoke<Array<{ kind: string }>>('app:takeIntents')).map((intent) => intent.kind));
      return kinds.length >= 2 ? true : undefined;
    });
    expect(kinds.sort()).toEqual(['files', 'filesQueued']);
    await waitFor(() => (server.server.uploadLog.entries().length === 1 ? true : undefined));
  });

  it('stays in the tray when started at login (Linux --hidden, macOS wasOpenedAtLogin with the Dock hidden)', async () => {
    const linux = launch({ argv: ['--hidden'] });
    await waitFor(() => (linux.fake.tray ? true : undefined));
    expect(linux.fake.window!.visible).toBe(false);
    expect(await linux.logText()).toContain('Started at login: staying in the tray.');
    // its page, loaded in the hidden window, is told its events wait, and hears none
    await linux.invoke('uploads:pauseAll', { until: null });
    const sent = linux.fake.window!.webContents.sent;
    expect(sent.map(({ channel, args }) => `${channel} ${String(args[0])}`)).toEqual(['ipc:connection paused']);
    linux.fake.app.quit();
    await linux.fake.exited;

    const mac = launch({ platform: 'darwin', openedAtLogin: true });
    await waitFor(() => (mac.fake.tray ? true : undefined));
    expect(mac.fake.window!.visible).toBe(false);
    expect(mac.fake.record.dockVisible).toBe(false);
  });

  it('macOS: the Dock icon brings the window back, and leaves with it', async () => {
    const mac = launch({ platform: 'darwin' });
    await shown(mac);
    mac.fake.window!.close();
    expect(mac.fake.record.dockVisible).toBe(false);
    mac.fake.app.emit('activate');
    expect(mac.fake.window!.visible).toBe(true);
    expect(mac.fake.record.dockVisible).toBe(true);
  });

  it('macOS: a link opened before the app was ready reaches the page once it runs', async () => {
    const mac = launch({ platform: 'darwin', autoReady: false });
    const event = { preventDefault: () => undefined };
    mac.fake.app.emit('open-url', event, 'media-sync://import?url=https%3A%2F%2Fvideos.example.com%2Fa.mp4');
    mac.fake.becomeReady();
    const intents = await waitFor(async () => {
      const taken = await mac.invoke<Array<{ kind: string; url?: string }>>('app:takeIntents').catch(() => []);
      return taken.length > 0 ? taken : undefined;
    });
    expect(intents).toMatchObject([{ kind: 'import', url: 'https://videos.example.com/a.mp4' }]);
  });

  it('Windows: sets the AppUserModelId before anything else, so notifications belong to the app', async () => {
    const windows = launch({ platform: 'win32' });
    await shown(windows);
    expect(windows.fake.record.appUserModelId).toBe(APP_ID);
  });

  it('registers media-sync:// links, and has an Edit menu with the standard roles', async () => {
    const desktop = launch();
    await shown(desktop);
    expect(desktop.fake.record.protocolClients).toEqual([{ protocol: 'media-sync' }]);
    const edit = desktop.fake.record.applicationMenu!.items.find((item) => item.role === 'editMenu');
    expect(edit).toBeDefined();
  });

  it('reloads a crashed page once; a second crash within a minute asks, and Quit quits', async () => {
    const desktop = launch();
    await shown(desktop);
    desktop.fake.window!.webContents.crash('crashed');
    expect(desktop.fake.window!.webContents.reloads).toBe(1);
    expect(await desktop.logText()).toMatch(/The window's page stopped \(crashed, exit code 139\)/);
    desktop.fake.answerMessageBox(1);
    desktop.fake.window!.webContents.crash('oom');
    expect(await desktop.fake.exited).toBe(0);
    expect(desktop.fake.windows[0]!.webContents.reloads).toBe(1);
    expect(desktop.fake.record.messageBoxes).toMatchObject([{ message: 'The Media Sync window stopped working.' }]);
  });

  it('keeps the machine awake only while uploading, and wakes the queue when the machine resumes', async () => {
    const desktop = launch();
    await shown(desktop);
    await desktop.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    const [account] = await desktop.invoke<Array<{ id: string }>>('account:list');
    await desktop.invoke('settings:update', { chunkSizeBytes: 1_000_000, bandwidthBytesPerSecond: 1_000_000 });
    const path = join(home.path, 'slow.mp4');
    await writeRandomFile(path, 8_000_000, 5);
    await desktop.invoke('uploads:addPaths', { accountId: account!.id, paths: [path] });
    await waitFor(() => (desktop.fake.blockers.size === 1 ? true : undefined));
    expect([...desktop.fake.blockers.values()]).toEqual(['prevent-app-suspension']);
    await desktop.invoke('uploads:pauseAll', { until: null });
    await waitFor(() => (desktop.fake.blockers.size === 0 ? true : undefined));
    desktop.fake.powerMonitor.emit('resume');
    expect(await desktop.logText()).toContain('Woke the upload queue (resume).');
  });

  it('"Pause while on battery": powerMonitor\'s on-battery holds the queue with its reason, on-ac lets it go', async () => {
    const desktop = launch();
    await shown(desktop);
    await desktop.invoke('settings:update', { pauseOnBattery: true });
    expect(await desktop.invoke('uploads:status')).toMatchObject({ pause: null, hold: null });
    desktop.fake.setOnBattery(true);
    expect(await desktop.invoke('uploads:status')).toMatchObject({ pause: null, hold: { reason: 'battery' } });
    await waitFor(() => (desktop.fake.tray?.tooltip === 'Media Sync: paused while on battery' ? true : undefined));
    desktop.fake.setOnBattery(false);
    expect(await desktop.invoke('uploads:status')).toMatchObject({ pause: null, hold: null });
  });

  it('launch at login writes the XDG autostart entry, removes it, and writes it again at start from the setting', async () => {
    const desktop = launch();
    await shown(desktop);
    const entry = join(home.path, 'config', 'autostart', 'media-sync.desktop');
    await desktop.invoke('settings:update', { launchAtLogin: true });
    expect(await readFile(entry, 'utf8')).toContain('Exec=/opt/media-sync/media-sync --hidden\n');
    await desktop.invoke('settings:update', { launchAtLogin: false });
    expect(existsSync(entry)).toBe(false);
    await desktop.invoke('settings:update', { launchAtLogin: true });
    desktop.fake.app.quit();
    await desktop.fake.exited;

    // a moved AppImage still starts at login: the entry follows the executable at every start
    const moved = launch({ env: { APPIMAGE: '/home/ana/Media Sync.AppImage' } });
    await shown(moved);
    await waitFor(async () => ((await readFile(entry, 'utf8')).includes('Media Sync.AppImage') ? true : undefined));
  });

  it('answers app:pickFolder with the folder chosen in the native dialog, and null when cancelled', async () => {
    const desktop = launch();
    await shown(desktop);
    desktop.fake.answerOpenDialog([home.path]);
    expect(await desktop.invoke('app:pickFolder')).toEqual({ path: home.path });
    expect(desktop.fake.record.openDialogs).toMatchObject([{ properties: ['openDirectory', 'createDirectory'] }]);
    expect(await desktop.invoke('app:pickFolder')).toEqual({ path: null });
  });

  it('opens the logs folder from the contract and from the Help menu', async () => {
    const desktop = launch();
    await shown(desktop);
    await desktop.invoke('app:openLogsFolder');
    const help = desktop.fake.record.applicationMenu!.items.find((item) => item.role === 'help')!;
    help.submenu![0]!.click!();
    expect(desktop.fake.record.openedPaths).toEqual([join(home.path, 'logs'), join(home.path, 'logs')]);
  });

  it('downloads an update in the background and offers Restart to update; installing saves the queue before the installer quits', async () => {
    updater.next = { kind: 'update', version: '1.1.0' };
    const desktop = launch();
    await shown(desktop);
    expect(updater.feedUrl).toBe(DEFAULT_UPDATE_URL);
    expect(menuItem(desktop.fake.tray!.menu, ['Restart to update to 1.1.0'])).toBeUndefined();
    await desktop.invoke('settings:update', { updateUrl: 'https://updates.example.org/media-sync/' });
    expect(updater.feedUrl).toBe('https://updates.example.org/media-sync/');

    await desktop.invoke('app:checkForUpdates');
    await waitFor(async () =>
      (await desktop.invoke<{ state: string }>('app:updateStatus')).state === 'ready' ? true : undefined,
    );
    const restart = await waitFor(() => menuItem(desktop.fake.tray!.menu, ['Restart to update to 1.1.0']));
    updater.onInstall = () => desktop.fake.app.quit();
    restart.click!();
    expect(await desktop.fake.exited).toBe(0);
    expect(updater.installs).toEqual([[true, true]]);
    const log = await desktop.logText();
    expect(log.indexOf('Installing Media Sync 1.1.0')).toBeLessThan(log.indexOf('Stopped: the queue is saved'));
    expect(desktop.fake.timeline.slice(-5)).toEqual([
      'window 1 close',
      'window 1 closed',
      'will-quit',
      'quit',
      'exit 0',
    ]);
  });

  it('an update server that cannot be reached is a line in the log and a status in Settings, never a dialog', async () => {
    updater.next = {
      kind: 'error',
      error: Object.assign(new Error('getaddrinfo ENOTFOUND updates.media-sync.example'), { code: 'ENOTFOUND' }),
    };
    const desktop = launch();
    await shown(desktop);
    const status = await desktop.invoke<{ state: string; message?: string }>('app:checkForUpdates');
    expect(status).toMatchObject({
      state: 'failed',
      message: 'Media Sync could not reach its update server. It will try again later.',
    });
    expect(desktop.fake.record.errorBoxes).toEqual([]);
    expect(desktop.fake.record.messageBoxes).toEqual([]);
    expect(await desktop.logText()).toContain('could not reach its update server');
  });

  it('lists the watched folders in the tray with their state, and pauses one from there', async () => {
    const desktop = launch();
    await shown(desktop);
    const { id: accountId } = await desktop.invoke<{ id: string }>('account:signIn', {
      baseUrl: server.baseUrl,
      token: server.token,
    });
    const photos = join(home.path, 'Photos');
    await mkdir(photos);
    const { id } = await desktop.invoke<{ id: number }>('folders:add', { accountId, path: photos });
    const pause = await waitFor(() => menuItem(desktop.fake.tray?.menu, ['Photos — up to date', 'Pause this folder']));
    pause.click!();
    await waitFor(() => menuItem(desktop.fake.tray?.menu, ['Photos — paused', 'Resume this folder']));
    expect(await desktop.invoke('folders:status')).toMatchObject([{ id, paused: true }]);
    // "Show in file manager" opens the folder itself, not its parent with it selected
    await desktop.invoke('folders:reveal', { id });
    expect(desktop.fake.record.openedPaths).toEqual([photos]);
    expect(desktop.fake.record.shownInFolder).toEqual([]);
  });

  it('"Delete after upload" hands each uploaded file, and its sidecar, to the system Trash (shell.trashItem)', async () => {
    const desktop = launch();
    await shown(desktop);
    const { id: accountId } = await desktop.invoke<{ id: string }>('account:signIn', {
      baseUrl: server.baseUrl,
      token: server.token,
    });
    const card = join(home.path, 'Card');
    await mkdir(card);
    await desktop.invoke('folders:add', { accountId, path: card, options: { afterUpload: { kind: 'delete' } } });
    await writeFile(join(card, 'IMG_0001.JPG'), 'a photo');
    await writeFile(join(card, 'IMG_0001.XMP'), '<x:xmpmeta/>');
    await waitFor(() => (desktop.fake.record.trashed.length === 2 ? true : undefined), 20_000, 'both in the Trash');
    expect(desktop.fake.record.trashed.sort()).toEqual([join(card, 'IMG_0001.JPG'), join(card, 'IMG_0001.XMP')]);
    expect(existsSync(join(card, 'IMG_0001.JPG'))).toBe(false);
  });
});
