import { contractClient } from '../../src-shared/ipc/contract-client.js';
import type { IpcCommandName, IpcEventName, IpcResult } from '../../src-shared/ipc/ipc-contract.js';
import type { AppBridge, BridgeCapabilities, ConnectionState } from './app-bridge.js';

/** What Electron's preload puts on `window.mediaSync` (src-main/electron/preload-bridge.ts). */
export interface PreloadApi {
  commands: Record<string, (request: unknown) => Promise<unknown>>;
  onEvent(listener: (event: unknown) => void): () => void;
  /** `paused` while the window is hidden (no events come), `open` when shown again */
  onConnection(listener: (state: 'open' | 'paused') => void): () => void;
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
 * The connection is `paused` while the window is hidden: the stores and
 * views read again when it is `open`, as after a browser's reconnection.
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
  let connection: ConnectionState = 'open';
  const changes = new Set<(state: ConnectionState) => void>();
  api.onConnection((state) => {
    if (state === connection) return;
    connection = state;
    for (const listener of changes) listener(state);
  });
  return {
    ...client,
    capabilities: DESKTOP_CAPABILITIES,
    connection: () => connection,
    onConnectionChange: (listener) => {
      changes.add(listener);
      return () => changes.delete(listener);
    },
    pathForFile: (file) => api.pathForFile?.(file) || null,
  };
}
