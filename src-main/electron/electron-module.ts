import type * as Electron from 'electron';

/**
 * The parts of the `electron` module the desktop app uses, as one port:
 * main.ts passes the real module, tests a stand-in that follows Electron's
 * documented event order (test/helpers/fake-electron).
 */
export type ElectronModule = Pick<
  typeof Electron,
  | 'app'
  | 'BrowserWindow'
  | 'Menu'
  | 'Notification'
  | 'Tray'
  | 'clipboard'
  | 'dialog'
  | 'ipcMain'
  | 'nativeImage'
  | 'net'
  | 'powerMonitor'
  | 'powerSaveBlocker'
  | 'safeStorage'
  | 'shell'
>;
