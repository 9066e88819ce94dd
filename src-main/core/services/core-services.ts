import type { AppIntent, IpcEventName, IpcEventPayload } from '../../../src-shared/ipc/ipc-contract.js';
import type { FolderStatus } from '../../../src-shared/model/folder-status.js';
import type { Clock } from '../../common/clock.js';
import type { FileLog } from '../../common/file-log.js';
import type { ConversionFollower } from '../../conversions/conversion-follower.js';
import type { RemoteImports } from '../../imports/remote-imports.js';
import type { FolderStore } from '../../storage/folder-store.js';
import type { SyncService } from '../../sync/sync-service.js';
import type { AppCoreOptions } from '../app-core-options.js';
import type { Engine } from '../engine.js';
import type { IntentInbox } from '../intent-inbox.js';
import type { NotificationCenter } from '../notification-center.js';
import type { ShellPorts, UpdatesPort } from '../ports.js';
import type { AccountsService } from './accounts-service.js';
import type { SettingsService } from './settings-service.js';
import type { UploadsService } from './uploads-service.js';

/** The watched folders: what is watched, how each is doing, and what a person does to them. */
export interface FoldersService {
  readonly store: Pick<FolderStore, 'list'>;
  readonly sync: Pick<
    SyncService,
    'addFolder' | 'updateFolder' | 'countToRemove' | 'removeFolder' | 'setPaused' | 'rescanFolder' | 'whenSettled'
  >;
  /** each folder's state, counts and recent files */
  statuses(): FolderStatus[];
  /** the folder's; NOT_FOUND when there is none */
  status(id: number): FolderStatus;
  /** moves a signed-out account's folder, and its waiting files, to a signed-in account */
  move: Engine['moveFolder'];
}

/** The app itself: what it is, where it logs, the shell's ports, links and files the OS opened, its updates. */
export interface SystemService {
  readonly info: AppCoreOptions['info'];
  readonly clock: Clock;
  readonly shell: ShellPorts;
  /** the app's log, absent for a CLI command's core */
  readonly log?: FileLog;
  /** the desktop app's own updates; absent in the daemon */
  readonly updates?: UpdatesPort;
  readonly intents: Pick<IntentInbox, 'take'>;
  /** a `media-sync://` link, kept until a page acts on it */
  openLink(link: string): AppIntent;
  /** the computer woke or came back online: the queue and the accounts' waits try again at once */
  wake(): void;
  /** files the OS opened with the app, queued for the default account */
  openFiles(paths: string[], options: { workingDirectory?: string }): Promise<AppIntent>;
}

/**
 * The core's services by name, as the command handlers reach them (each
 * group takes the ones it uses, commands/handlers.ts); built in one place,
 * AppCore's constructor, for every shell (core/create-core.ts).
 */
export interface CoreServices {
  readonly accounts: AccountsService;
  readonly uploads: UploadsService;
  readonly folders: FoldersService;
  readonly conversions: Pick<ConversionFollower, 'list' | 'forget'>;
  readonly imports: Pick<RemoteImports, 'observe'>;
  readonly notifications: Pick<NotificationCenter, 'list' | 'clear'>;
  readonly settings: SettingsService;
  readonly system: SystemService;
  /** says a contract event to every page and the CLI's followers */
  emit<N extends IpcEventName>(name: N, payload: IpcEventPayload<N>): void;
}
