import { contractClient } from '../../src-shared/ipc/contract-client.js';
import type { IpcCommandName, IpcEventName, IpcResult } from '../../src-shared/ipc/ipc-contract.js';
import type { AppBridge, BridgeCapabilities } from './app-bridge.js';

/** What Electron's preload puts on `window.mediaSync` (src-main/electron/preload-bridge.ts). */
export interface PreloadApi {
  commands: Record<string, (request: unknown) => Promise<unknown>>;
  onEvent(listener: (event: unknown) => void): () => void;
  pathForFile?(file: File): string;
}

/** The desktop app's window may do all the shell offers: its core runs on the person's own desktop. */
export const DESKTOP_CAPABILITIES: BridgeCapabilities = {
  canReveal: true,
  canPickFolder: true,
  canOpenInBrowser: true,
  canCopyLinks: true,
  canNotify: true,
  canLaunchAtLogin: true,
  canUpdateItself: true,
};

/**
 * The contract through Electron's preload: each command is one function of
 * the preload, whose result is the core's `IpcResult`; events come as
 * `{name, payload}`. The core checked both, so they are taken as typed.
 */
export function electronBridge(api: PreloadApi): AppBridge {
  const client = contractClient({
    send: (name: IpcCommandName, request) => api.commands[name]!(request) as Promise<IpcResult<unknown>>,
    onEvent: (listener) =>
      api.onEvent((event) => {
        const { name, payload } = event as { name: IpcEventName; payload: unknown };
        listener(name, payload);
      }),
  });
  return {
    ...client,
    capabilities: DESKTOP_CAPABILITIES,
    connection: () => 'open',
    onConnectionChange: () => () => undefined,
    pathForFile: (file) => api.pathForFile?.(file) || null,
  };
}
