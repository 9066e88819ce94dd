import type { IpcCommandName, IpcRequest, IpcResponse, MediaSyncBridge } from '../../src-shared/ipc/ipc-contract.js';

/** `refused`: the daemon no longer takes the page's session key (`media-sync serve --new-key`) */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'refused';

/**
 * What the views talk to: the contract (MediaSyncBridge) plus what differs
 * between the shells. In Electron the preload is always there; in a browser
 * the WebSocket to the daemon can drop and come back.
 */
export interface AppBridge extends MediaSyncBridge {
  readonly shell: 'electron' | 'headless';
  connection(): ConnectionState;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  /** The local path of a file dropped on the window, when the shell can see it (Electron only). */
  pathForFile(file: File): string | null;
  /**
   * The answer `invoke(name, request)` would give, when it has already
   * arrived (the window's first reads, EarlyAnswersBridge), taken once: a
   * view's first render can show it instead of waiting for an effect.
   */
  takeArrived?<N extends IpcCommandName>(name: N, request: IpcRequest<N>): { value: IpcResponse<N> } | undefined;
}
