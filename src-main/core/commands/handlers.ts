import type { z } from 'zod';
import type {
  AccountView,
  AppIntent,
  IPC_COMMANDS,
  IpcCommandName,
  IpcEventName,
  IpcEventPayload,
  IpcResponse,
  QueueStatus,
  RateLimitView,
  UploadItemView,
} from '../../../src-shared/ipc/ipc-contract.js';
import type { Settings, SettingsChange } from '../../../src-shared/model/settings.js';
import type { UploadItem } from '../../../src-shared/model/upload-state.js';
import type { MediaApiClient } from '../../api-client/media-api-client.js';
import type { Clock } from '../../common/clock.js';
import type { RemoteImports } from '../../imports/remote-imports.js';
import type { AppCoreOptions } from '../app-core-options.js';
import type { Engine } from '../engine.js';
import type { IntentInbox } from '../intent-inbox.js';
import type { NotificationCenter } from '../notification-center.js';
import type { WhenDoneRunner } from '../when-done-runner.js';

/** One command of the contract, on a request that has been parsed with its schema. */
export type CommandHandler<N extends IpcCommandName> = (
  request: z.output<(typeof IPC_COMMANDS)[N]['request']>,
) => Promise<IpcResponse<N>>;

/** Every command of the contract. */
export type Handlers = { [N in IpcCommandName]: CommandHandler<N> };

/** The commands of some namespaces of the contract (`uploads`, `files` …). */
export type HandlersOf<Namespace extends string> = {
  [N in Extract<IpcCommandName, `${Namespace}:${string}`>]: CommandHandler<N>;
};

/** What the commands use of AppCore: its services, its views of them, its events. */
export interface CommandContext {
  readonly engine: Engine;
  readonly options: AppCoreOptions;
  readonly clock: Clock;
  readonly notifications: NotificationCenter;
  readonly imports: RemoteImports;
  readonly intents: IntentInbox;
  /** "When done", where the shell offers it */
  readonly whenDone: WhenDoneRunner | undefined;
  emit<N extends IpcEventName>(name: N, payload: IpcEventPayload<N>): void;
  /** the account's API client; NOT_SIGNED_IN when it has none */
  client(accountId: string): MediaApiClient;
  /** the upload; NOT_FOUND when there is none */
  item(id: number): UploadItem;
  view(item: UploadItem): UploadItemView;
  accountViews(): AccountView[];
  queueStatus(): QueueStatus;
  rateLimits(): RateLimitView[];
  settings(): Settings;
  updateSettings(change: SettingsChange): Promise<Settings>;
  openLink(link: string): AppIntent;
  openFiles(paths: string[], options: { workingDirectory?: string }): Promise<AppIntent>;
}

export const OK = { ok: true as const };
