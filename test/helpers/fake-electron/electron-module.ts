// The `electron` module of a desktop main process started by `register.mjs`: one fake Electron
// for this process, driven by the test over Node's IPC channel (see desktop-process.ts).
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { snapshotOf, type ControlMessage, type ControlReply, type ControlRequest } from './control-protocol.js';
import { createFakeElectron, menuItem, type FakeElectron } from './fake-electron.js';
import { FileSingleInstance } from './file-single-instance.js';

const home = process.env['FAKE_ELECTRON_HOME'];
if (!home) throw new Error('FAKE_ELECTRON_HOME must name the folder of the fake Electron (userData, logs, home)');
const userData = join(home, 'userData');

// `electron <folder>` in a dev checkout: argv[1] is the app, as here the script
(process as { defaultApp?: boolean }).defaultApp = true;

const fake = createFakeElectron({
  paths: { userData, appData: home, logs: join(home, 'logs'), home: join(home, 'home'), temp: tmpdir() },
  appPath: dirname(dirname(dirname(process.argv[1]!))),
  version: process.env['FAKE_ELECTRON_APP_VERSION'] ?? '0.1.0',
  platform: process.platform,
  singleInstance: new FileSingleInstance(join(userData, 'fake-singleton')),
  keepAlive: true,
  exit: (code) => process.exit(code),
});
controlOverIpc(fake);
(globalThis as Record<symbol, unknown>)[Symbol.for('media-sync.fake-electron')] = fake.module;

export const {
  app,
  BrowserWindow,
  Tray,
  Notification,
  Menu,
  nativeImage,
  dialog,
  safeStorage,
  shell,
  clipboard,
  ipcMain,
  powerSaveBlocker,
  net,
  session,
  autoUpdater,
  powerMonitor,
} = fake.module;
// Electron is CommonJS: a default import (`import electron from 'electron'`, as some packages do) is the whole module
// eslint-disable-next-line no-restricted-syntax
export default fake.module;

function controlOverIpc(electron: FakeElectron): void {
  if (!process.send) return;
  process.on('message', (message: ControlMessage) => {
    void answer(electron, message.request).then(
      (value) => process.send?.({ id: message.id, ok: true, value } satisfies ControlReply),
      (error: unknown) => process.send?.({ id: message.id, ok: false, error: String(error) } satisfies ControlReply),
    );
  });
  // Electron's process lives as long as its app, not as long as a parent's channel
  process.channel?.unref();
}

async function answer(electron: FakeElectron, request: ControlRequest): Promise<unknown> {
  switch (request.type) {
    case 'snapshot':
      return snapshotOf(electron);
    case 'invoke':
      return electron.invoke(request.channel, request.request);
    case 'quit':
      electron.app.quit();
      return null;
    case 'close-window':
      electron.window?.close();
      return null;
    case 'answer-open-dialog':
      electron.answerOpenDialog(request.filePaths);
      return null;
    case 'click-tray-item': {
      const item = menuItem(electron.tray?.menu, request.path);
      if (!item?.click) throw new Error(`No tray menu item ${request.path.join(' > ')}`);
      item.click();
      return null;
    }
    case 'power':
      electron.powerMonitor.emit(request.event);
      return null;
    case 'set-online':
      electron.setOnline(request.online);
      return null;
  }
}
