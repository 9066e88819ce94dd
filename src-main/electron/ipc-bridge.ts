import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { IPC_COMMANDS, type IpcResult } from '../../src-shared/ipc/ipc-contract.js';
import type { Disposable } from '../common/disposable.js';
import type { AppCore } from '../core/app-core.js';

/** The channel of a command: `ipc:` + its contract name. */
export const commandChannel = (name: string) => `ipc:${name}`;
export const EVENT_CHANNEL = 'ipc:event';

/**
 * One `ipcMain.handle` per contract command. A call is answered only when it
 * comes from the app's own top frame (`isTrustedUrl`); AppCore zod-parses the
 * argument, so a malformed one gets an error and changes nothing. Events go
 * to the window's contents on one channel.
 */
export function registerContractHandlers(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  core: AppCore,
  isTrustedUrl: (url: string) => boolean,
  target: () => WebContents | null,
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
  const subscription = core.onDidEmit((event) => {
    const contents = target();
    if (contents && !contents.isDestroyed()) contents.send(EVENT_CHANNEL, event);
  });
  return {
    dispose() {
      subscription.dispose();
      for (const name of names) ipcMain.removeHandler(commandChannel(name));
    },
  };
}
