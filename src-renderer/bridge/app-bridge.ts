import type { MediaSyncBridge } from '../../src-shared/ipc/ipc-contract.js';

/** `refused`: the daemon no longer takes the page's session key (`media-sync serve --new-key`) */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'refused';

/**
 * What the views talk to: the contract (`contractClient` over the shell's
 * transport) plus what differs between the shells. In Electron the preload
 * is always there; in a browser the WebSocket to the daemon can drop and
 * come back.
 */
export interface AppBridge extends MediaSyncBridge {
  readonly shell: 'electron' | 'headless';
  connection(): ConnectionState;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  /** The local path of a file dropped on the window, when the shell can see it (Electron only). */
  pathForFile(file: File): string | null;
}
