// The desktop app's entry point: hands the real Electron module and this process to DesktopApp.
import * as electron from 'electron';
import Store from 'electron-store';
import { homedir } from 'node:os';
import { DesktopApp } from './desktop-app.js';
import { createElectronUpdater } from './update-service.js';

new DesktopApp({
  electron,
  createStore: () => new Store<Record<string, unknown>>({ name: 'media-sync' }),
  createUpdater: createElectronUpdater,
  argv: process.argv,
  env: process.env,
  platform: process.platform,
  execPath: process.execPath,
  homeDir: homedir(),
  cwd: process.cwd(),
  mainDir: import.meta.dirname,
  resourcesPath: process.resourcesPath,
  process,
}).start();
