import type { ContextBridge, IpcRenderer, IpcRendererEvent, WebUtils } from 'electron';
import { IPC_COMMANDS } from '../../src-shared/ipc/ipc-contract.js';
import { commandChannel, CONNECTION_CHANNEL, EVENT_CHANNEL, type WindowConnection } from './ipc-bridge.js';

/** The name of the object the page sees: `window.mediaSync`. */
export const BRIDGE_GLOBAL = 'mediaSync';

/**
 * What the preload exposes with contextBridge: one function per contract
 * command, one event subscription and one to whether events come (not
 * while the window is hidden: ipc-bridge.ts), never `ipcRenderer` itself,
 * so a page that went wrong can still reach nothing but the contract. Plus
 * `pathForFile`: a sandboxed page sees a dropped file's bytes but not where
 * it is, and uploads stream from disk by path, so the preload asks Electron
 * (`webUtils`, usable in a sandboxed preload) for the path of a File the page
 * already holds. It reveals nothing the user did not drop or pick.
 */
export function exposeBridge(
  contextBridge: Pick<ContextBridge, 'exposeInMainWorld'>,
  ipcRenderer: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>,
  webUtils: Pick<WebUtils, 'getPathForFile'>,
): void {
  const commands = Object.fromEntries(
    Object.keys(IPC_COMMANDS).map((name) => [
      name,
      (request: unknown) => ipcRenderer.invoke(commandChannel(name), request),
    ]),
  );
  contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, {
    commands,
    onEvent(listener: (event: unknown) => void): () => void {
      const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(EVENT_CHANNEL, forward);
      return () => ipcRenderer.removeListener(EVENT_CHANNEL, forward);
    },
    onConnection(listener: (state: WindowConnection) => void): () => void {
      const forward = (_event: IpcRendererEvent, state: WindowConnection) => listener(state);
      ipcRenderer.on(CONNECTION_CHANNEL, forward);
      return () => ipcRenderer.removeListener(CONNECTION_CHANNEL, forward);
    },
    /** the file's path on disk; '' for a File that is not on disk (made by the page) */
    pathForFile(file: File): string {
      return webUtils.getPathForFile(file);
    },
  });
}
