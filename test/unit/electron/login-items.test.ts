import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  autostartEntry,
  autostartPath,
  createLoginItems,
  type LoginItemsOptions,
} from '../../../src-main/electron/login-items.js';

function fakeApp(wasOpenedAtLogin = false) {
  const calls: unknown[] = [];
  return {
    calls,
    app: {
      setLoginItemSettings: (settings: unknown) => void calls.push(settings),
      getLoginItemSettings: () =>
        ({ wasOpenedAtLogin }) as ReturnType<LoginItemsOptions['app']['getLoginItemSettings']>,
    },
  };
}

describe('launch at login on Linux: an XDG autostart entry', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'media-sync-autostart-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const linux = (env: Record<string, string | undefined>, devAppPath: string | null = null) =>
    createLoginItems({
      app: fakeApp().app,
      platform: 'linux',
      env,
      execPath: '/opt/Media Sync/media-sync',
      devAppPath,
      homeDir: home,
    });

  it('writes $XDG_CONFIG_HOME/autostart/media-sync.desktop starting the app hidden, and removes it', async () => {
    const config = join(home, 'xdg');
    const items = linux({ XDG_CONFIG_HOME: config });
    await items.set(true);
    const path = join(config, 'autostart', 'media-sync.desktop');
    const entry = await readFile(path, 'utf8');
    expect(entry).toContain('[Desktop Entry]\nType=Application\nName=Media Sync\n');
    expect(entry).toContain('Exec="/opt/Media Sync/media-sync" --hidden\n');
    expect((await stat(path)).mode & 0o777).toBe(0o644);
    await items.set(true);
    expect(await readFile(path, 'utf8')).toBe(entry);
    await items.set(false);
    expect(existsSync(path)).toBe(false);
    // turning it off twice is not an error
    await items.set(false);
  });

  it('uses ~/.config when XDG_CONFIG_HOME is unset or relative (the spec says to ignore a relative one)', () => {
    expect(autostartPath({}, '/home/ana')).toBe('/home/ana/.config/autostart/media-sync.desktop');
    expect(autostartPath({ XDG_CONFIG_HOME: 'conf' }, '/home/ana')).toBe(
      '/home/ana/.config/autostart/media-sync.desktop',
    );
  });

  it('starts the AppImage the person launched, not its temporary mount', async () => {
    await linux({ XDG_CONFIG_HOME: home, APPIMAGE: '/home/ana/Apps/Media Sync-1.0.0.AppImage' }).set(true);
    expect(await readFile(join(home, 'autostart', 'media-sync.desktop'), 'utf8')).toContain(
      'Exec="/home/ana/Apps/Media Sync-1.0.0.AppImage" --hidden\n',
    );
  });

  it('passes the app folder in a dev checkout, where the executable is Electron itself', async () => {
    await linux({ XDG_CONFIG_HOME: home }, '/src/media-sync').set(true);
    expect(await readFile(join(home, 'autostart', 'media-sync.desktop'), 'utf8')).toContain(
      'Exec="/opt/Media Sync/media-sync" /src/media-sync --hidden\n',
    );
  });

  it('quotes Exec by the Desktop Entry rules: reserved characters, %, and backslashes escaped twice', () => {
    const exec = (path: string) => autostartEntry([path]).match(/^Exec=(.*)$/m)![1];
    expect(exec('/opt/plain/app')).toBe('/opt/plain/app');
    expect(exec('/opt/100% sure/app')).toBe('"/opt/100%% sure/app"');
    expect(exec('/opt/$HOME`x`"q"/app')).toBe('"/opt/\\\\$HOME\\\\`x\\\\`\\\\"q\\\\"/app"');
    expect(exec('/opt/back\\slash')).toBe('"/opt/back\\\\\\\\slash"');
    expect(() => autostartEntry(['/opt/line\nbreak'])).toThrow(/line break/);
  });
});

describe('launch at login on macOS and Windows', () => {
  it('Windows: a Run entry with --hidden', async () => {
    const { app, calls } = fakeApp();
    const items = createLoginItems({
      app,
      platform: 'win32',
      env: {},
      execPath: 'C:\\MS\\Media Sync.exe',
      devAppPath: null,
      homeDir: 'C:\\Users\\ana',
    });
    await items.set(true);
    await items.set(false);
    expect(calls).toEqual([
      { openAtLogin: true, path: 'C:\\MS\\Media Sync.exe', args: ['--hidden'] },
      { openAtLogin: false, path: 'C:\\MS\\Media Sync.exe', args: ['--hidden'] },
    ]);
    expect(items.startedAtLogin({ hidden: true, links: [], files: [] })).toBe(true);
    expect(items.startedAtLogin({ hidden: false, links: [], files: [] })).toBe(false);
  });

  it('macOS: a login item, and wasOpenedAtLogin says the app started at login', async () => {
    const { app, calls } = fakeApp(true);
    const items = createLoginItems({
      app,
      platform: 'darwin',
      env: {},
      execPath: '/Applications/Media Sync.app',
      devAppPath: null,
      homeDir: '/Users/ana',
    });
    await items.set(true);
    expect(calls).toEqual([{ openAtLogin: true }]);
    expect(items.startedAtLogin({ hidden: false, links: [], files: [] })).toBe(true);
  });
});
