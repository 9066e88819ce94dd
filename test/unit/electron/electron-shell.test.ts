import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IpcMainInvokeEvent, Session, WebContents } from 'electron';
import { AppCore } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { MemorySettingsStore, NO_DESKTOP } from '../../../src-main/core/ports.js';
import { commandChannel, registerContractHandlers } from '../../../src-main/electron/ipc-bridge.js';
import { BRIDGE_GLOBAL, exposeBridge } from '../../../src-main/electron/preload-bridge.js';
import { SafeStorageVault } from '../../../src-main/electron/safe-storage-vault.js';
import {
  APP_CSP,
  hardenContents,
  isAllowedExternal,
  secureWindowOptions,
} from '../../../src-main/electron/security.js';
import {
  TRAY_KINDS,
  trayIconPath,
  trayMenuTemplate,
  trayState,
  type QueueOverview,
} from '../../../src-main/electron/tray-menu.js';
import { updateMenuItem } from '../../../src-main/electron/update-service.js';
import { CoreLanguage } from '../../../src-main/common/i18n.js';
import { IPC_COMMANDS } from '../../../src-shared/ipc/ipc-contract.js';
import type { UploadItem } from '../../../src-shared/model/upload-state.js';
import { queueStatus } from '../../helpers/queue-fixtures.js';

const FILE_HOST = 'https://files.example.com';

describe('window security', () => {
  it('sandboxes and isolates the renderer, with no Node', () => {
    expect(secureWindowOptions('/app/preload.js').webPreferences).toEqual({
      preload: '/app/preload.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
    });
    expect(APP_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('gives the window an icon only when one is passed (Linux)', () => {
    expect(secureWindowOptions('/app/preload.js', '/app/assets/icon.png').icon).toBe('/app/assets/icon.png');
    expect(secureWindowOptions('/app/preload.js')).not.toHaveProperty('icon');
  });

  it('opens externally only http(s) links on a signed-in file host', () => {
    expect(isAllowedExternal(`${FILE_HOST}/abc/watch`, [FILE_HOST])).toBe(true);
    expect(isAllowedExternal('http://127.0.0.1:8787/abc/file', ['http://127.0.0.1:8787'])).toBe(true);
    for (const url of [
      'https://evil.example.com/abc',
      'javascript:alert(1)',
      'file:///etc/passwd',
      `${FILE_HOST.replace('https', 'http')}/abc`,
      'https://user:pw@files.example.com/abc',
      'not a url',
    ]) {
      expect(isAllowedExternal(url, [FILE_HOST]), url).toBe(false);
    }
  });

  it('blocks navigation away, denies every new window and permission, and sets the CSP on its own pages', async () => {
    const handlers = new Map<string, (...args: unknown[]) => void>();
    let openHandler: ((details: { url: string }) => { action: string }) | undefined;
    let permissionRequest: ((...args: unknown[]) => void) | undefined;
    let permissionCheck: (() => boolean) | undefined;
    let headers: ((details: unknown, callback: (response: unknown) => void) => void) | undefined;
    const contents = {
      on: (name: string, handler: (...args: unknown[]) => void) => handlers.set(name, handler),
      setWindowOpenHandler: (handler: typeof openHandler) => (openHandler = handler),
    } as unknown as WebContents;
    const session = {
      setPermissionRequestHandler: (handler: typeof permissionRequest) => (permissionRequest = handler),
      setPermissionCheckHandler: (handler: typeof permissionCheck) => (permissionCheck = handler),
      webRequest: { onHeadersReceived: (handler: typeof headers) => (headers = handler) },
    } as unknown as Session;
    const opened: string[] = [];
    hardenContents(contents, session, {
      appOrigin: 'file://',
      fileHosts: () => [FILE_HOST],
      openExternal: async (url) => void opened.push(url),
    });

    const navigate = (url: string) => {
      let prevented = false;
      handlers.get('will-navigate')!({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(navigate('https://evil.example.com/')).toBe(true);
    expect(navigate('file:///app/index.html')).toBe(false);
    expect(openHandler!({ url: `${FILE_HOST}/abc/watch` })).toEqual({ action: 'deny' });
    expect(openHandler!({ url: 'https://evil.example.com/' })).toEqual({ action: 'deny' });
    expect(opened).toEqual([`${FILE_HOST}/abc/watch`]);
    const granted: boolean[] = [];
    permissionRequest!(null, 'media', (answer: boolean) => granted.push(answer));
    expect(granted).toEqual([false]);
    expect(permissionCheck!()).toBe(false);
    const responses: unknown[] = [];
    headers!({ url: 'file:///app/index.html', responseHeaders: {} }, (response) => responses.push(response));
    expect(responses).toEqual([{ responseHeaders: { 'Content-Security-Policy': [APP_CSP] } }]);
  });
});

describe('SafeStorageVault', () => {
  function fakeSafeStorage(backend: 'basic_text' | 'gnome_libsecret', available = true) {
    let reEncrypt = false;
    return {
      isAsyncEncryptionAvailable: async () => available,
      encryptStringAsync: async (text: string) => Buffer.from(`enc:${Buffer.from(text).toString('hex')}`),
      decryptStringAsync: async (data: Buffer) => {
        const result = Buffer.from(data.toString().slice(4), 'hex').toString();
        const shouldReEncrypt = reEncrypt;
        reEncrypt = false;
        return { result, shouldReEncrypt };
      },
      getSelectedStorageBackend: () => backend,
      rotate: () => (reEncrypt = true),
    };
  }

  it('keeps only ciphertext and its backend in the store, and reads the token back', async () => {
    const store = new Map<string, unknown>();
    const safe = fakeSafeStorage('gnome_libsecret');
    const vault = new SafeStorageVault(safe, store, 'linux');
    await vault.set('acc-1', 'mfs_secret_token');
    expect(JSON.stringify([...store])).not.toContain('mfs_secret_token');
    expect(store.get('tokens.acc-1')).toMatchObject({ backend: 'gnome_libsecret' });
    safe.rotate();
    expect(await vault.get('acc-1')).toBe('mfs_secret_token');
    expect(await vault.get('other')).toBeNull();
    expect(vault.isWeak).toBe(false);
    expect(vault.description).toBe('encrypted with the desktop keyring (gnome_libsecret)');
    await vault.delete('acc-1');
    expect(store.size).toBe(0);
  });

  it('says plainly that basic_text is not encryption, and never calls it a keychain', () => {
    const vault = new SafeStorageVault(fakeSafeStorage('basic_text'), new Map(), 'linux');
    expect(vault.isWeak).toBe(true);
    expect(vault.description).toMatch(/^not encrypted: .*basic_text/);
    expect(vault.description).not.toMatch(/keychain/i);
  });

  it('refuses to store a token when no encryption is available', async () => {
    const vault = new SafeStorageVault(fakeSafeStorage('basic_text', false), new Map(), 'linux');
    await expect(vault.set('acc-1', 'mfs_x')).rejects.toThrow(/MEDIA_SYNC_TOKEN/);
  });
});

describe('the contract over Electron ipc', () => {
  it("registers every command, answers only the app's own top frame, and parses what it is given", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'media-sync-electron-'));
    const engine = await Engine.open({ dataDir });
    const core = new AppCore({
      engine,
      settings: new MemorySettingsStore(),
      shell: NO_DESKTOP,
      info: { version: '0.1.0', shell: 'electron', dataDir },
      tokenStorage: 'encrypted with the desktop keyring (gnome_libsecret)',
    });
    try {
      const handlers = new Map<string, (event: IpcMainInvokeEvent, raw: unknown) => Promise<unknown>>();
      const ipcMain = {
        handle: (channel: string, handler: (event: IpcMainInvokeEvent, raw: unknown) => Promise<unknown>) =>
          handlers.set(channel, handler),
        removeHandler: (channel: string) => handlers.delete(channel),
      };
      const registration = registerContractHandlers(ipcMain as never, core, (url) => url.startsWith('file:///app/'));
      expect([...handlers.keys()].sort()).toEqual(Object.keys(IPC_COMMANDS).map(commandChannel).sort());

      const from = (url: string, parent: unknown = null) =>
        ({ senderFrame: { url, parent } }) as unknown as IpcMainInvokeEvent;
      const info = handlers.get(commandChannel('app:info'))!;
      expect(await info(from('file:///app/index.html'), {})).toEqual({
        ok: true,
        value: { version: '0.1.0', shell: 'electron', dataDir, logsDir: null },
      });
      expect(await info(from('https://evil.example.com/'), {})).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN' },
      });
      expect(await info(from('file:///app/index.html', { url: 'file:///app/' }), {})).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN' },
      });
      const pause = handlers.get(commandChannel('uploads:pauseAll'))!;
      expect(await pause(from('file:///app/index.html'), { until: 'forever' })).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION_ERROR' },
      });
      registration.dispose();
      expect(handlers.size).toBe(0);
    } finally {
      await core.dispose();
      await engine.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  function exposedApi(getPathForFile: (file: File) => string = () => '') {
    let exposed: Record<string, unknown> = {};
    const invoked: unknown[][] = [];
    const subscribed: string[] = [];
    exposeBridge(
      { exposeInMainWorld: (name: string, api: unknown) => (exposed = { name, api }) as never },
      {
        invoke: async (...args: unknown[]) => void invoked.push(args),
        on: (channel: string) => void subscribed.push(channel),
        removeListener: () => undefined as never,
      } as never,
      { getPathForFile },
    );
    return { name: exposed['name'], api: exposed['api'] as PreloadApi, invoked, subscribed };
  }
  type PreloadApi = {
    commands: Record<string, (request: unknown) => Promise<unknown>>;
    onEvent(listener: () => void): () => void;
    onConnection(listener: () => void): () => void;
    pathForFile(file: File): string;
  };

  it('the preload exposes one function per command, subscriptions to events and the connection, and pathForFile, never ipcRenderer', async () => {
    const { name, api, invoked, subscribed } = exposedApi();
    expect(name).toBe(BRIDGE_GLOBAL);
    expect(Object.keys(api).sort()).toEqual(['commands', 'onConnection', 'onEvent', 'pathForFile']);
    api.onEvent(() => undefined);
    api.onConnection(() => undefined);
    expect(subscribed).toEqual(['ipc:event', 'ipc:connection']);
    expect(Object.keys(api.commands).sort()).toEqual(Object.keys(IPC_COMMANDS).sort());
    expect(Object.values(api.commands).every((fn) => typeof fn === 'function')).toBe(true);
    await api.commands['files:list']!({ accountId: 'a' });
    expect(invoked).toEqual([['ipc:files:list', { accountId: 'a' }]]);
  });

  it("gives the page a dropped file's path through Electron's webUtils, and '' for a file not on disk", () => {
    const onDisk = new File(['x'], 'clip.mp4');
    const madeByPage = new File(['y'], 'note.txt');
    const asked: File[] = [];
    const { api } = exposedApi((file) => {
      asked.push(file);
      return file === onDisk ? '/home/me/Videos/clip.mp4' : '';
    });
    expect(api.pathForFile(onDisk)).toBe('/home/me/Videos/clip.mp4');
    expect(api.pathForFile(madeByPage)).toBe('');
    expect(asked).toEqual([onDisk, madeByPage]);
  });
});

describe('the tray', () => {
  const item = (state: UploadItem['state'], size = 100): UploadItem =>
    ({ id: 1, fileName: 'a.mp4', size, chunkSize: 1_000_000, ackedChunks: [] as number[], state }) as UploadItem;
  /** the overview a queue of `items` gives the tray (TrayController's overview) */
  const queueOf = (items: UploadItem[]): QueueOverview => ({
    running: items.filter((candidate) => candidate.state.kind === 'uploading'),
    waiting: items.filter((candidate) => ['queued', 'retrying'].includes(candidate.state.kind)).length,
    failed: items.filter((candidate) => candidate.state.kind === 'failed').length,
  });
  const running = queueStatus(1);

  it('shows error over paused over uploading over idle, with progress in the tooltip', () => {
    expect(trayState(running, queueOf([]), 'This token has been disabled.')).toEqual({
      kind: 'error',
      tooltip: 'Media Sync: uploads paused, This token has been disabled.',
      status: 'uploads paused, This token has been disabled.',
    });
    expect(trayState({ ...running, pause: { until: null } }, queueOf([]), null)).toEqual({
      kind: 'paused',
      tooltip: 'Media Sync: paused',
      status: 'paused',
    });
    expect(trayState({ ...running, hold: { reason: 'battery' } }, queueOf([]), null)).toEqual({
      kind: 'paused',
      tooltip: 'Media Sync: paused while on battery',
      status: 'paused while on battery',
      held: true,
    });
    // Media Sync's own disk full: a problem over any pause, that no Resume lifts
    const full = { reason: 'dataDiskFull', since: 1, waiting: 30 } as const;
    expect(trayState({ ...running, pause: { until: null }, hold: full }, queueOf([]), null)).toEqual({
      kind: 'error',
      tooltip: 'Media Sync: Media Sync’s disk is full: 30 files wait',
      status: 'Media Sync’s disk is full: 30 files wait',
      held: true,
    });
    expect(trayState({ ...running, hold: { reason: 'schedule', until: null } }, queueOf([]), null)).toEqual({
      kind: 'paused',
      tooltip: 'Media Sync: paused (schedule)',
      status: 'paused (schedule)',
      held: true,
    });
    expect(
      trayState(
        running,
        queueOf([
          item(
            { kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes: 50_000_000, totalBytes: 100_000_000 },
            100_000_000,
          ),
          item({ kind: 'queued' }),
        ]),
        null,
      ),
    ).toMatchObject({ kind: 'uploading', tooltip: 'Media Sync: 2 files left · 50.0 MB' });
    // the time left, once the desktop app has measured the speed
    const uploading = [item({ kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes: 0, totalBytes: 100 })];
    const left = { filesLeft: 3, bytesLeft: 2_100_000_000, etaSeconds: 720 };
    expect(trayState(running, queueOf(uploading), null, undefined, left).tooltip).toBe(
      'Media Sync: 3 files left · 2.10 GB · about 12 min',
    );
    expect(trayState({ ...running, hold: { reason: 'metered' } }, queueOf(uploading), null)).toEqual({
      kind: 'paused',
      tooltip: 'Media Sync: paused on a metered connection',
      status: 'paused on a metered connection',
      held: true,
    });
    expect(
      trayState(
        running,
        queueOf([item({ kind: 'failed', reason: { message: 'x', code: null, requestId: null } })]),
        null,
      ).kind,
    ).toBe('error');
    expect(trayState(running, queueOf([item({ kind: 'done', fileId: 'f', finishedAt: 1 })]), null)).toEqual({
      kind: 'idle',
      tooltip: 'Media Sync: up to date',
      status: 'up to date',
    });
  });

  it('offers open, pause 2/8/24 h, recent uploads and quit; resume when paused', () => {
    const calls: unknown[] = [];
    const actions = {
      open: () => calls.push('open'),
      pause: (hours: unknown) => calls.push(['pause', hours]),
      resume: () => calls.push('resume'),
      openLink: (url: string) => calls.push(['link', url]),
      quit: () => calls.push('quit'),
    };
    const menu = trayMenuTemplate(
      { kind: 'idle', tooltip: 'Media Sync: up to date', status: 'up to date' },
      [{ name: 'a.mp4', link: `${FILE_HOST}/a/file` }],
      actions,
    );
    expect(menu.map((entry) => entry.label ?? entry.type)).toEqual([
      'up to date',
      'separator',
      'Open Media Sync',
      'Pause uploads',
      'Recent uploads',
      'separator',
      'Quit',
    ]);
    const pause = menu.find((entry) => entry.label === 'Pause uploads')!.submenu as {
      label: string;
      click: () => void;
    }[];
    expect(pause.map((entry) => entry.label)).toEqual(['For 2 hours', 'For 8 hours', 'For 24 hours', 'Until resumed']);
    pause[1]!.click();
    (menu.find((entry) => entry.label === 'Recent uploads')!.submenu as { click: () => void }[])[0]!.click();
    expect(calls).toEqual([
      ['pause', 8],
      ['link', `${FILE_HOST}/a/file`],
    ]);
    const paused = trayMenuTemplate({ kind: 'paused', tooltip: 'Media Sync: paused', status: 'paused' }, [], actions);
    expect(paused.map((entry) => entry.label)).toContain('Resume uploads');
    // held by the schedule: Resume would not lift it, so the person's own Pause is offered
    const held = trayMenuTemplate(
      { kind: 'paused', tooltip: 'Media Sync: paused (schedule)', status: 'paused (schedule)', held: true },
      [],
      actions,
    );
    expect(held.map((entry) => entry.label)).toEqual(expect.arrayContaining(['paused (schedule)', 'Pause uploads']));
    expect(held.map((entry) => entry.label)).not.toContain('Resume uploads');
  });

  it('offers a downloaded update above Quit, which runs the update when clicked', () => {
    let clicked = 0;
    const noop = () => undefined;
    const menu = trayMenuTemplate({ kind: 'idle', tooltip: 'Media Sync: up to date', status: 'up to date' }, [], {
      open: noop,
      pause: noop,
      resume: noop,
      openLink: noop,
      quit: noop,
      update: { label: 'Restart to Update to 1.2.0', enabled: true, click: () => clicked++ },
    });
    expect(menu.slice(-2).map((entry) => entry.label)).toEqual(['Restart to Update to 1.2.0', 'Quit']);
    (menu.at(-2)!.click as () => void)();
    expect(clicked).toBe(1);
  });

  it('speaks the core’s language: German tooltips and menu, sizes written the German way', async () => {
    const german = new CoreLanguage(() => ['de-DE']);
    await german.ready;
    const uploading = trayState(
      running,
      queueOf([
        item({ kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes: 1_500_000, totalBytes: 4_000_000 }, 4_000_000),
        item({ kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes: 0, totalBytes: 1_000_000 }, 1_000_000),
        item({ kind: 'queued' }),
      ]),
      null,
      german,
    );
    expect(uploading).toEqual({
      kind: 'uploading',
      tooltip: 'Media Sync: noch 3 Dateien · 3,50 MB',
      status: 'noch 3 Dateien · 3,50 MB',
    });
    expect(trayState({ ...running, hold: { reason: 'battery' } }, queueOf([]), null, german).tooltip).toBe(
      'Media Sync: pausiert im Akkubetrieb',
    );
    const noop = () => undefined;
    const actions = { open: noop, pause: noop, resume: noop, openLink: noop, quit: noop };
    const menu = trayMenuTemplate(trayState(running, queueOf([]), null, german), [], actions, german);
    expect(menu.map((entry) => entry.label ?? entry.type)).toEqual([
      'auf dem neuesten Stand',
      'separator',
      'Media Sync öffnen',
      'Uploads pausieren',
      'Letzte Uploads',
      'separator',
      'Beenden',
    ]);
    const pause = menu[3]!.submenu as { label: string }[];
    expect(pause.map((entry) => entry.label)).toEqual([
      'Für 2 Stunden',
      'Für 8 Stunden',
      'Für 24 Stunden',
      'Bis ich fortsetze',
    ]);
    expect(updateMenuItem({ state: 'ready', version: '1.2.0' }, german)?.label).toBe(
      'Neu starten und auf 1.2.0 aktualisieren',
    );
  });

  it('follows the language setting live: system follows the OS, a named language wins', async () => {
    const language = new CoreLanguage(() => ['de-AT']);
    await language.ready;
    const changes: string[] = [];
    language.onDidChange((changed) => changes.push(changed));
    expect([language.language, language.locale]).toEqual(['de', 'de-AT']);
    expect(trayState(running, queueOf([]), null, language).tooltip).toBe('Media Sync: auf dem neuesten Stand');
    language.apply('en');
    expect(trayState(running, queueOf([]), null, language).tooltip).toBe('Media Sync: up to date');
    language.apply('system');
    expect(trayState(running, queueOf([]), null, language).tooltip).toBe('Media Sync: auf dem neuesten Stand');
    language.apply('de');
    expect(changes).toEqual(['en', 'de']);
  });

  it('shows a PNG of its own for each state, with a 2x version beside it', () => {
    const assetsDir = join(import.meta.dirname, '../../../assets');
    const paths = TRAY_KINDS.map((kind) => trayIconPath(kind, assetsDir));
    expect(paths.map((path) => path.slice(assetsDir.length))).toEqual([
      '/tray/tray-idle.png',
      '/tray/tray-uploading.png',
      '/tray/tray-paused.png',
      '/tray/tray-error.png',
    ]);
    for (const path of paths) {
      expect(existsSync(path), path).toBe(true);
      expect(existsSync(path.replace(/\.png$/, '@2x.png')), path).toBe(true);
    }
  });
});
