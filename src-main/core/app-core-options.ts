import type { Message } from '../../src-shared/i18n/message.js';
import type { Clock } from '../common/clock.js';
import type { FileLog } from '../common/file-log.js';
import type { ShutdownPort } from '../common/shutdown.js';
import type { Engine } from './engine.js';
import type {
  DemoServerPort,
  NetworkCostPort,
  PowerSourcePort,
  SettingsStore,
  ShellPorts,
  UpdatesPort,
} from './ports.js';
import type { WhenDoneOptions } from './when-done-runner.js';

export interface AppCoreOptions {
  engine: Engine;
  settings: SettingsStore;
  shell: ShellPorts;
  info: { version: string; shell: 'electron' | 'headless'; dataDir: string };
  /** how tokens are kept, in English (TokenVault.description) */
  tokenStorage: string;
  /** the same as a catalog message (TokenVault.descriptionText) */
  tokenStorageText?: Message;
  /**
   * The app's log: its folder reaches the UI (app:info, app:openLogsFolder),
   * its last lines the diagnostics export, and a command that fails for a
   * reason that is not the service's answer is written to it.
   */
  log?: FileLog;
  /** the bundled reference server of "Try it locally" (src-main/demo); absent: no demo */
  demo?: DemoServerPort;
  /** where the daemon writes files a page sends before they are queued (`POST /drop`); absent: pages send none */
  droppedFilesDir?: string;
  /** the desktop app's own updates; absent in the headless daemon */
  updates?: UpdatesPort;
  clock?: Clock;
  /** successes within this window are one notification (5 s) */
  notificationMergeMs?: number;
  /** a watched folder's uploads within this window are one notification (a minute) */
  notificationBatchMs?: number;
  /** between two polls of a pending import (10 s) */
  importPollMs?: number;
  /** whether the computer runs on battery, for "Pause while on battery"; absent: never */
  power?: PowerSourcePort;
  /** whether the connection is metered, for "On a metered connection"; absent: never */
  network?: NetworkCostPort;
  /** what "When done" can do in this shell; absent: uploads:setWhenDone is refused */
  whenDone?: WhenDoneOptions;
  /** the zone the upload schedule's windows are read in (the system's, asked at each edge) */
  timeZone?: () => string;
  /** the upload schedule's longest wait between two looks at the wall clock (60 s) */
  scheduleMaxSleepMs?: number;
  /**
   * The system's locales, best first, for the core's language when the
   * `language` setting is `system` (Electron: `app.getLocale()`; headless:
   * `processLocales()`); absent: English.
   */
  systemLocales?: () => readonly string[];
  /** check every answer and event against the contract before it leaves (outgoing-check.ts; default: in tests) */
  checkOutgoing?: boolean;
  /** the app's stop: the core lets go of the engine in its `core` phase, after the transports */
  shutdown?: ShutdownPort;
}
