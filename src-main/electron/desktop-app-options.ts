import type { UpdaterPort } from './update-service.js';
import type { ElectronModule } from './electron-module.js';
import type { KeyValueStore } from './safe-storage-vault.js';

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
