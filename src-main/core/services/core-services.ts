import type { AppIntent, IpcEventName, IpcEventPayload } from '../../../src-shared/ipc/ipc-contract.js';
import type { Clock } from '../../common/clock.js';
import type { FileLog } from '../../common/file-log.js';
import type { ConversionFollower } from '../../conversions/conversion-follower.js';
import type { RemoteImports } from '../../imports/remote-imports.js';
import type { AppCoreOptions } from '../app-core-options.js';
import type { IntentInbox } from '../intent-inbox.js';
import type { NotificationCenter } from '../notification-center.js';
import type { ShellPorts, UpdatesPort } from '../ports.js';
import type { AccountsService } from './accounts-service.js';
import type { FoldersService } from './folders-service.js';
import type { SettingsService } from './settings-service.js';
import type { UploadsService } from './uploads-service.js';

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
