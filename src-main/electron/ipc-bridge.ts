import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron';
import { IPC_COMMANDS, type IpcResult } from '../../src-shared/ipc/ipc-contract.js';
import type { Disposable } from '../common/disposable.js';
import type { AppCore } from '../core/app-core.js';

/** The channel of a command: `ipc:` + its contract name. */
export const commandChannel = (name: string) => `ipc:${name}`;
export const EVENT_CHANNEL = 'ipc:event';
/** What the page is told of its events: `paused` while its window is hidden, `open` once shown again. */
export const CONNECTION_CHANNEL = 'ipc:connection';
export type WindowConnection = 'open' | 'paused';

/**
 * One `ipcMain.handle` per contract command. A call is answered only when it
 * comes from the app's own top frame (`isTrustedUrl`); AppCore zod-parses the
 * argument, so a malformed one gets an error and changes nothing.
 */
export function registerContractHandlers(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  core: AppCore,
  isTrustedUrl: (url: string) => boolean,
): Disposable {
  const names = Object.keys(IPC_COMMANDS);
  for (const name of names) {
    ipcMain.handle(commandChannel(name), (event: IpcMainInvokeEvent, raw: unknown): Promise<IpcResult<unknown>> => {
      const frame = event.senderFrame;
      if (!frame || frame.parent !== null || !isTrustedUrl(frame.url)) {
        return Promise.resolve({
          ok: false,
          error: { code: 'FORBIDDEN', message: 'Only the Media Sync window may call the app.', requestId: null },
        });
      }
      return core.handle(name, raw);
    });
  }
  return {
    dispose() {
      for (const name of names) ipcMain.removeHandler(commandChannel(name));
    },
  };
}

/** The window events follow: Electron's BrowserWindow, or a test's stand-in. */
export type EventWindow = Pick<BrowserWindow, 'on' | 'removeListener' | 'isVisible' | 'isMinimized' | 'isDestroyed'> & {
  webContents: Pick<BrowserWindow['webContents'], 'send' | 'isDestroyed' | 'on' | 'removeListener'>;
};

/**
 * The core's events go to the window's page, on one channel, while the
 * window is shown. A window hidden in the tray, or minimized, gets none: its
 * page would render every progress batch (10 Hz) and every file's change
 * for nobody to see. Its page is told `paused` then, and `open` when the
 * window shows again, and reads everything anew, as a browser's page does
 * after a reconnection. The core's events are listened to only meanwhile,
 * as `media-sync serve` listens only while a page is open.
 * A window about to show its first page (`startHidden` false) gets events
 * from the start: its page's first reads are all it needs. One started in
 * the tray gets none until it shows.
 */
export function forwardEvents(core: AppCore, window: EventWindow, startHidden: boolean): Disposable {
  const contents = window.webContents;
  const send = (channel: string, payload: unknown) => {
    if (!contents.isDestroyed()) contents.send(channel, payload);
  };
  const listen = () => core.onDidEmit((event) => send(EVENT_CHANNEL, event));
  let subscription: Disposable | null = startHidden ? null : listen();
  const follow = () => {
    const shown = !window.isDestroyed() && window.isVisible() && !window.isMinimized();
    if (shown === (subscription !== null)) return;
    if (shown) {
      // listening first: what happens while the page reads again reaches it too
      subscription = listen();
      send(CONNECTION_CHANNEL, 'open' satisfies WindowConnection);
    } else {
      subscription!.dispose();
      subscription = null;
      send(CONNECTION_CHANNEL, 'paused' satisfies WindowConnection);
    }
  };
  // a page loaded (or reloaded after a crash) in a hidden window starts out thinking its events come
  const loaded = () => subscription === null && send(CONNECTION_CHANNEL, 'paused' satisfies WindowConnection);
  const changes = ['show', 'hide', 'minimize', 'restore'] as const;
  for (const change of changes) window.on(change as 'show', follow);
  contents.on('did-finish-load', loaded);
  return {
    dispose() {
      for (const change of changes) window.removeListener(change as 'show', follow);
      contents.removeListener('did-finish-load', loaded);
      subscription?.dispose();
      subscription = null;
    },
  };
}
