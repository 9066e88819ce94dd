import type { Settings } from '../../src-shared/model/settings.js';
import type { UpdateStatus } from '../../src-shared/model/update-status.js';
import type { Event } from '../common/disposable.js';
import { englishText, message, type Message } from '../../src-shared/i18n/message.js';
import { CoreError } from '../common/core-error.js';

/**
 * What AppCore needs from the shell it runs in (docs/ARCHITECTURE.md, Layers): the desktop
 * app implements these with Electron, the headless daemon with files and the
 * browser page. AppCore knows nothing else of either.
 */
export interface SettingsStore {
  /** what was saved, unparsed: AppCore parses it and falls back to defaults */
  read(): unknown;
  write(settings: Settings): void;
}

export interface ShellPorts {
  /** opens an http(s) link in the person's browser */
  openExternal(url: string): Promise<void>;
  /** shows a local file in the system's file manager */
  revealPath(path: string): Promise<void>;
  /** opens a local folder itself in the system's file manager (a watched folder: its files, not its parent) */
  openFolder(path: string): Promise<void>;
  /**
   * The system's folder picker (Electron: `dialog.showOpenDialog`, see
   * electron/folder-picker.ts): the chosen folder, or null when the person
   * cancelled. Where there is no screen of the shell's own to show it on
   * (NO_DESKTOP) it rejects with UNAVAILABLE, and the headless daemon's page
   * browses with folders:browse instead.
   */
  pickFolder(): Promise<string | null>;
  writeClipboard(text: string): Promise<void>;
  setLaunchAtLogin(enabled: boolean): Promise<void>;
  /**
   * Opens the app's log folder in the system's file manager (Electron:
   * `shell.openPath`). Where no folder can be opened for the person
   * (NO_DESKTOP) it rejects with UNAVAILABLE: the headless daemon's page
   * shows the path to copy instead.
   */
  openLogsFolder(): Promise<void>;
}

/** For a shell with no desktop to reach (the headless daemon: its page does these itself), and for tests. */
export const NO_DESKTOP: ShellPorts = {
  openExternal: async () => undefined,
  revealPath: async () => undefined,
  openFolder: async () => undefined,
  writeClipboard: async () => undefined,
  setLaunchAtLogin: async () => undefined,
  pickFolder: async () => {
    throw CoreError.say('UNAVAILABLE', message('core.errors.noFolderPicker'));
  },
  openLogsFolder: async () => {
    throw CoreError.say('UNAVAILABLE', message('core.errors.noLogsFolder'));
  },
};

/**
 * The desktop app's own updates (Electron: update-service.ts over
 * electron-updater). The headless daemon has none: AppCore then answers
 * `unavailable`.
 */
export interface UpdatesPort {
  status(): UpdateStatus;
  /** where updates are published; from the `updateUrl` setting */
  setFeedUrl(url: string): void;
  /** checks now (and downloads what it finds); answers once the check is over */
  check(): Promise<UpdateStatus>;
  /** quits as a quit does, installs the downloaded update and starts the new version */
  install(): Promise<void>;
  onDidChange: Event<UpdateStatus>;
}

/**
 * Whether the computer runs on battery, for "Pause while on battery".
 * Electron: `powerMonitor` (`on-battery` / `on-ac`, `isOnBatteryPower()`,
 * electron/power-source.ts); headless on Linux: /sys/class/power_supply read
 * now and then (headless/linux-power-source.ts). A computer without a battery
 * is never on battery.
 */
export interface PowerSourcePort {
  onBattery(): boolean;
  /** fired with the new value when it changes */
  onDidChange: Event<boolean>;
}

/**
 * Whether the connection is metered (a phone's hotspot, a mobile plan), for
 * "On a metered connection". On Linux, NetworkManager's `Metered` over the
 * system bus in both shells (system/network-manager-cost.ts); elsewhere
 * nothing yet: never metered (docs/desktop.md, Per platform).
 */
export interface NetworkCostPort {
  metered(): boolean;
  /** fired with the new value when it changes */
  onDidChange: Event<boolean>;
}

/**
 * What "When done" asks of the computer (system/power-actions.ts): logind on
 * Linux, the OS's own commands on macOS and Windows. Each resolves once the
 * OS took the request, and rejects with why it did not.
 */
export interface PowerActionsPort {
  sleep(): Promise<void>;
  shutDown(): Promise<void>;
}

/**
 * The system's Trash, where "Delete after upload" puts a watched folder's
 * files (docs/uploads.md, Delete after upload): Electron's `shell.trashItem`
 * in the desktop app; the freedesktop.org Trash for `media-sync serve` and
 * the CLI on Linux and other Unix desktops (system/freedesktop-trash.ts);
 * none for them on macOS and Windows (`NO_TRASH`).
 */
export interface TrashPort {
  /** Moves the file at `path` to the Trash; rejects with NoTrashError (and why) when it has none for that file. */
  trash(path: string): Promise<void>;
}

/** There is no Trash the file can go to: it stays where it is. */
export class NoTrashError extends Error {
  constructor(readonly text: Message) {
    super(englishText(text));
    this.name = 'NoTrashError';
  }
}

/** A shell without a Trash of its own: nothing is deleted, each file stays where it is. */
export const NO_TRASH: TrashPort = {
  trash: async () => {
    throw new NoTrashError(message('core.trash.none'));
  },
};

/** An in-memory SettingsStore, for tests and for a first run before anything is saved. */
export class MemorySettingsStore implements SettingsStore {
  private saved: unknown = {};

  read(): unknown {
    return this.saved;
  }

  write(settings: Settings): void {
    this.saved = structuredClone(settings);
  }
}

/** What the demo server asks of the engine: its accounts, to move them when its port changed. */
export interface DemoAccounts {
  accounts: {
    /** every account, signed out ones too */
    all(): ReadonlyArray<{ id: string; baseUrl: string }>;
    /** the accounts signed in */
    list(): ReadonlyArray<{ id: string; baseUrl: string }>;
  };
  moveAccount(id: string, baseUrl: string): Promise<void>;
}

/**
 * The bundled reference server of "Try it locally", as the shells and AppCore
 * use it (src-main/demo/local-demo-server.ts: the one module that loads
 * src-server, and only when the demo is used).
 */
export interface DemoServerPort {
  /**
   * Starts it (once) and answers its address and demo token:
   * `account:startDemo` signs in with them. Should the remembered port be
   * taken, it starts on a free one and the demo's accounts move there, a
   * signed-out one too: signing in again then finds the same account.
   */
  start(engine: DemoAccounts): Promise<{ baseUrl: string; token: string }>;
  /**
   * Starts it when a signed-in account is its demo account, so that account
   * answers after a restart; call it before anything talks to the accounts
   * (AppCore.start does, before the queue). Should the remembered port be
   * taken, it starts on a free one and moves the demo account there. Never
   * throws: a demo server that cannot start is written to the log, and the
   * account's requests then fail as for any server that is down.
   */
  startIfSignedIn(engine: DemoAccounts): Promise<void>;
  /** stops it, if it runs; after the engine, so nothing is cut off mid-request */
  stop(): Promise<void>;
}
