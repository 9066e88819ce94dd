import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chooseNativeBinding,
  nativeModuleProblem,
  runtimePaths,
  windowIconPath,
} from '../../../src-main/electron/runtime-paths.js';
import { TRAY_KINDS, trayIconPath } from '../../../src-main/electron/tray-menu.js';

const REPO = resolve(import.meta.dirname, '../../..');

describe('where the desktop app finds its real files', () => {
  it('in a dev checkout: two folders above dist/electron/main.js, whatever the resources path', () => {
    expect(
      runtimePaths({ isPackaged: false, mainDir: '/src/media-sync/dist/electron', resourcesPath: '/opt/electron' }),
    ).toEqual({
      assetsDir: '/src/media-sync/assets',
      nativeBinding: '/src/media-sync/dist/electron-native/better_sqlite3.node',
    });
  });

  it('in a packaged app: app.asar.unpacked beside the archive, not inside it', () => {
    expect(
      runtimePaths({
        isPackaged: true,
        mainDir: '/opt/Media Sync/resources/app.asar/dist/electron',
        resourcesPath: '/opt/Media Sync/resources',
      }),
    ).toEqual({
      assetsDir: '/opt/Media Sync/resources/app.asar.unpacked/assets',
      nativeBinding: '/opt/Media Sync/resources/app.asar.unpacked/dist/electron-native/better_sqlite3.node',
    });
  });

  it("from this checkout's build, finds the committed tray images and window icon", () => {
    const { assetsDir } = runtimePaths({ isPackaged: false, mainDir: join(REPO, 'dist/electron'), resourcesPath: '' });
    for (const kind of TRAY_KINDS) expect(existsSync(trayIconPath(kind, assetsDir)), kind).toBe(true);
    expect(existsSync(windowIconPath('linux', assetsDir)!)).toBe(true);
  });

  it('sets a window icon on Linux only (Windows and macOS take the executable’s)', () => {
    expect(windowIconPath('linux', '/a/assets')).toBe('/a/assets/icon.png');
    expect(windowIconPath('win32', '/a/assets')).toBeUndefined();
    expect(windowIconPath('darwin', '/a/assets')).toBeUndefined();
  });
});

describe("better-sqlite3's Electron build", () => {
  it('is passed to the database when it was prepared, and left to better-sqlite3 otherwise', () => {
    const prepared = '/src/media-sync/dist/electron-native/better_sqlite3.node';
    expect(chooseNativeBinding(prepared, (path) => path === prepared)).toBe(prepared);
    expect(chooseNativeBinding(prepared, () => false)).toBeUndefined();
  });

  it('a module built for the wrong ABI, or none, gets a message that says what to do', () => {
    const abi = new Error(
      "The module '/x/better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. " +
        'This version of Node.js requires NODE_MODULE_VERSION 150.',
    );
    expect(nativeModuleProblem(abi, { isPackaged: false })).toMatch(/npm run prepare:electron-native/);
    expect(nativeModuleProblem(abi, { isPackaged: true })).toMatch(/Reinstall Media Sync/);
    expect(
      nativeModuleProblem(new Error('Could not locate the bindings file. Tried: ...'), { isPackaged: false }),
    ).toMatch(/no build for Electron/);
  });

  it('any other failure to open the database is not blamed on the native module', () => {
    expect(
      nativeModuleProblem(new Error('SQLITE_CORRUPT: database disk image is malformed'), { isPackaged: false }),
    ).toBe(null);
    expect(nativeModuleProblem('not an error', { isPackaged: true })).toBe(null);
  });
});
