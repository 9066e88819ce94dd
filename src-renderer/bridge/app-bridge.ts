import type { MediaSyncBridge } from '../../src-shared/ipc/ipc-contract.js';

/**
 * `refused`: the daemon no longer takes the page's session key (`media-sync serve --new-key`);
 * `paused`: the desktop window is hidden and its events held (nothing to say: nobody sees it),
 * read anew when it is `open` again
 */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'refused' | 'paused';

/**
 * What the shell lets the page do beyond the contract, each named for what
 * it allows: all of it in the desktop app, none of it in a browser served
 * by `media-sync serve`, whose core runs on a machine the page cannot reach
 * into (another user's desktop, a server with no display).
 */
export interface BridgeCapabilities {
  /** the system's file manager shows a file or folder (`uploads:reveal`, `folders:reveal`, `app:openLogsFolder`); else its path is copied */
  readonly canReveal: boolean;
  /** the system's folder dialog (`app:pickFolder`); else the page's folder browser over `folders:browse` */
  readonly canPickFolder: boolean;
  /** the core opens a page of a file in the system's browser (`files:open`); else the page opens a tab */
  readonly canOpenInBrowser: boolean;
  /** `files:copyLink` puts the link on the person's clipboard; else the page writes it itself */
  readonly canCopyLinks: boolean;
  /** the shell shows the core's notifications as the system's own; else the page shows Web Notifications */
  readonly canNotify: boolean;
  /** the `launchAtLogin` setting starts this app, in the tray; `media-sync serve` is started by the system */
  readonly canLaunchAtLogin: boolean;
  /** the app updates itself, from the `updateUrl` setting; the daemon is updated with its package */
  readonly canUpdateItself: boolean;
}

/**
 * What the stores talk to: the contract (`contractClient` over the shell's
 * transport) plus what differs between the shells. In Electron the preload
 * is always there, and pauses events while the window is hidden; in a
 * browser the WebSocket to the daemon can drop and come back.
 */
export interface AppBridge extends MediaSyncBridge {
  readonly capabilities: BridgeCapabilities;
  connection(): ConnectionState;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  /** The local path of a file dropped on the window, when the shell can see it (Electron only). */
  pathForFile(file: File): string | null;
}
