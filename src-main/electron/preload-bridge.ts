import type { ContextBridge, IpcRenderer, IpcRendererEvent } from 'electron';
import { IPC_COMMANDS } from '../../src-shared/ipc/ipc-contract.js';
import { commandChannel, EVENT_CHANNEL } from './ipc-bridge.js';

/** The name of the object the page sees: `window.mediaSync`. */
export const BRIDGE_GLOBAL = 'mediaSync';

/**
 * What the preload exposes with contextBridge: one function per contract
 * command and one event subscription, never `ipcRenderer` itself, so a page
 * that went wrong can still reach nothing but the contract.
 */
export function exposeBridge(
  contextBridge: Pick<ContextBridge, 'exposeInMainWorld'>,
  ipcRenderer: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>,
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
  });
}
