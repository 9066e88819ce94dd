import { contractClient } from '../../src-shared/ipc/contract-client.js';
import type { IpcCommandName, IpcEventName, IpcResult } from '../../src-shared/ipc/ipc-contract.js';
import type { AppBridge } from './app-bridge.js';

/** What Electron's preload puts on `window.mediaSync` (src-main/electron/preload-bridge.ts). */
export interface PreloadApi {
  commands: Record<string, (request: unknown) => Promise<unknown>>;
  onEvent(listener: (event: unknown) => void): () => void;
  pathForFile?(file: File): string;
}

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
    shell: 'electron',
    connection: () => 'open',
    onConnectionChange: () => () => undefined,
    pathForFile: (file) => api.pathForFile?.(file) || null,
  };
}
