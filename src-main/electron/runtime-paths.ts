import type { App } from 'electron';
import { join, resolve } from 'node:path';

/**
 * Where better-sqlite3's Electron build lives, relative to the folder of real
 * files (the checkout, or `app.asar.unpacked` in a packaged app). Written by
 * `npm run prepare:electron-native`; node_modules keeps the Node build that
 * tests, the CLI and the daemon load (two ABIs: docs/ARCHITECTURE.md, Build notes).
 */
export const NATIVE_BINDING_PATH = 'dist/electron-native/better_sqlite3.node';

/** Where the app runs from: Electron's answers, passed in so the choice below is testable. */
export interface RuntimeLocation {
  /** `app.isPackaged` */
  isPackaged: boolean;
  /** the folder of the bundled main.js: `<root>/dist/electron`, inside app.asar when packaged */
  mainDir: string;
  /** `process.resourcesPath` */
  resourcesPath: string;
}

export interface RuntimePaths {
  /** a folder of real files on disk: tray images and the window icon */
  assetsDir: string;
  /** better-sqlite3 built for Electron's ABI, when it was prepared */
  nativeBinding: string;
}

/**
 * A dev checkout runs dist/electron/main.js, so its files are two folders up.
 * A packaged app runs from inside app.asar; electron-builder's `asarUnpack`
 * puts the native module and the assets beside it in `app.asar.unpacked`, as
 * real files: a `.node` cannot be loaded from inside an archive, and tray
 * images from one are unreliable on some platforms.
 */
export function runtimePaths(location: RuntimeLocation): RuntimePaths {
  const root = location.isPackaged
    ? join(location.resourcesPath, 'app.asar.unpacked')
    : resolve(location.mainDir, '..', '..');
  return { assetsDir: join(root, 'assets'), nativeBinding: join(root, ...NATIVE_BINDING_PATH.split('/')) };
}

/**
 * The `nativeBinding` to give better-sqlite3: the prepared Electron build when
 * it is there, else nothing (better-sqlite3 then looks in node_modules, which
 * works only if someone rebuilt it there for Electron; otherwise opening the
 * database fails and `nativeModuleProblem` explains what to run).
 */
export function chooseNativeBinding(candidate: string, exists: (path: string) => boolean): string | undefined {
  return exists(candidate) ? candidate : undefined;
}

const ABI_OR_MISSING_BINARY = [
  /NODE_MODULE_VERSION/,
  /Could not locate the bindings file/,
  /ERR_DLOPEN_FAILED/,
  /Module did not self-register/,
  /invalid ELF header/,
  /is not a valid Win32 application/,
  /better_sqlite3\.node/,
];

/**
 * What to tell a person when the database cannot be opened because
 * better-sqlite3 has no usable build for this Electron; null for any other
 * error (that one is shown as it is).
 */
export function nativeModuleProblem(error: unknown, location: Pick<RuntimeLocation, 'isPackaged'>): string | null {
  const message = error instanceof Error ? `${error.message} ${(error as { code?: unknown }).code ?? ''}` : '';
  if (!ABI_OR_MISSING_BINARY.some((pattern) => pattern.test(message))) return null;
  return location.isPackaged
    ? 'Media Sync cannot open its database: the SQLite module built for this app is missing or damaged. Reinstall Media Sync.'
    : 'Media Sync cannot open its database: better-sqlite3 has no build for Electron yet. Run `npm run prepare:electron-native` ' +
        '(it downloads Electron’s headers, so it needs internet access), then `npm start` again.';
}

/**
 * The window icon: on Linux a window has no icon unless it is given one (the
 * .desktop entry covers only the installed app); Windows and macOS take it
 * from the executable or the bundle.
 */
export function windowIconPath(platform: NodeJS.Platform, assetsDir: string): string | undefined {
  return platform === 'linux' ? join(assetsDir, 'icon.png') : undefined;
}

/** Electron's folder for the app's logs; inside the data folder where the platform has none. */
export function logsFolder(app: Pick<App, 'getPath'>, dataDir: string): string {
  try {
    return app.getPath('logs');
  } catch {
    return join(dataDir, 'logs');
  }
}
