import { join } from 'node:path';
import {
  IPC_EVENTS,
  type AppIntent,
  type IpcEventName,
  type IpcEventPayload,
  type IpcResult,
  type RateLimitView,
} from '../../src-shared/ipc/ipc-contract.js';
import { followChangesRow } from '../../src-shared/model/follow-row.js';
import { parseDeepLink } from '../../src-shared/model/deep-link.js';
import { isSnoozed } from '../../src-shared/model/notification-snooze.js';
import type { Settings } from '../../src-shared/model/settings.js';
import type { UploadState } from '../../src-shared/model/upload-state.js';
import { systemClock } from '../common/clock.js';
import { DisposableBase, Emitter } from '../common/disposable.js';
import { CoreLanguage } from '../common/i18n.js';
import { Throttle } from '../common/throttle.js';
import { RemoteImports } from '../imports/remote-imports.js';
import type { AppCoreOptions } from './app-core-options.js';
import type { Handlers } from './commands/handlers.js';
import { commandHandlers, runCommand } from './contract-boundary.js';
import type { Engine } from './engine.js';
import { notifyWhatTheEngineDoes } from './engine-notifications.js';
import { IntentInbox } from './intent-inbox.js';
import { NotificationCenter } from './notification-center.js';
import { NotificationFeedFile } from './notification-feed-file.js';
import { queueOpenedFiles } from './opened-files.js';
import { CHECK_OUTGOING, outgoing } from './outgoing-check.js';
import { QueuePolicy } from './queue-policy.js';
import { createAccountsService } from './services/accounts-service.js';
import { createFoldersService } from './services/folders-service.js';
import type { CoreServices } from './services/core-services.js';
import { createSettingsService } from './services/settings-service.js';
import { createUploadsService } from './services/uploads-service.js';
import { WhenDoneRunner } from './when-done-runner.js';

export interface CoreEvent<N extends IpcEventName = IpcEventName> {
  name: N;
  payload: IpcEventPayload<N>;
}

/** Queue progress reaches the UI at most this often (10 Hz), merged per item. */
const PROGRESS_EVERY_MS = 100;
/**
 * An account's budget moves with every request (`remaining`): hundreds a
 * second with many small files, each a message to every page and a render
 * of its indicator. It is said at most this often; a gate that closes or
 * opens, or a limit learnt, at once.
 */
const BUDGET_EVERY_MS = 250;
const DAY_MS = 24 * 60 * 60_000;

/**
 * The application behind every UI (docs/ARCHITECTURE.md, Layers): builds the
 * core's services over the engine (services/core-services.ts), implements
 * each command of the ipc contract on them and emits the contract's events.
 * It is the trust boundary: every request is parsed with its schema before
 * anything happens; what it sends is built from the contract's types (views
 * that leave out what must not leave: a token, a file password) and, in
 * tests, checked against the contract (outgoing-check.ts).
 */
export class AppCore extends DisposableBase {
  /** the language of what the core shows by itself (the tray, OS notifications): follows the setting */
  readonly language: CoreLanguage;
  private readonly engine: Engine;
  private readonly services: CoreServices;
  private readonly notifications: NotificationCenter;
  private readonly imports: RemoteImports;
  private readonly emitter = this.register(new Emitter<CoreEvent>());
  private readonly progress = new Map<number, UploadState>();
  private readonly progressThrottle: Throttle;
  /** per account: the last rate-limit view, and the code of the refusal the UI was last told */
  private readonly lastRateLimit = new Map<string, RateLimitView>();
  /** per account: the rate-limit view not yet said (BUDGET_EVERY_MS) */
  private readonly rateLimitsToSay = new Map<string, RateLimitView>();
  private readonly rateLimitThrottle: Throttle;
  private readonly lastBlocked = new Map<string, string | null>();
  private readonly handlers: Handlers;
  private readonly checkOutgoing: boolean;
  private readonly intents = this.register(new IntentInbox());
  private readonly policy: QueuePolicy;
  private readonly whenDone: WhenDoneRunner | undefined;
  /** every contract event, already parsed */
  readonly onDidEmit = this.emitter.event;

  constructor(private readonly options: AppCoreOptions) {
    super();
    const engine = (this.engine = options.engine);
    const clock = options.clock ?? systemClock;
    const emit = <N extends IpcEventName>(name: N, payload: IpcEventPayload<N>) => this.emit(name, () => payload);
    this.checkOutgoing = options.checkOutgoing ?? CHECK_OUTGOING;
    this.progressThrottle = this.register(new Throttle(() => this.emitProgress(), PROGRESS_EVERY_MS, clock));
    this.rateLimitThrottle = this.register(new Throttle(() => this.emitRateLimits(), BUDGET_EVERY_MS, clock));
    const settings = createSettingsService({
      store: options.settings,
      shell: options.shell,
      apply: (value) => this.applySettings(value),
      log: options.log,
    });
    this.language = this.register(new CoreLanguage(options.systemLocales));
    this.language.apply(settings.value().language);
    this.notifications = new NotificationCenter({
      clock,
      translate: this.language.translate,
      isEnabled: (kind) => settings.value().notifications[kind],
      isSnoozed: () => isSnoozed(settings.value().notificationsSnoozed, clock.wall()),
      locale: () => this.language.locale,
      mergeMs: options.notificationMergeMs,
      batchMs: options.notificationBatchMs,
      file: new NotificationFeedFile(join(options.info.dataDir, 'notifications.json')),
    });
    // what waits to be merged is said before the core stops
    this.register(() => (this.notifications.flush(), this.notifications.dispose()));
    this.imports = this.register(
      new RemoteImports({
        clientFor: (id) => engine.client(id),
        clock,
        pollMs: options.importPollMs,
        onCompleted: (job, file, accountId) => {
          this.notifications.importCompleted(job.name, file?.urls.page ?? null);
          // the imported file's conversion is followed like an upload's
          if (job.file_id) {
            engine.conversions.follow({
              accountId,
              fileId: job.file_id,
              name: job.name,
              jobId: job.id,
              watchUrl: file?.urls.watch ?? null,
              mime: file?.mime ?? null,
            });
          }
        },
        onFailed: (job, reason) => this.notifications.importFailed(job.name, reason),
      }),
    );
    this.policy = this.register(
      new QueuePolicy({
        engine,
        settings: () => settings.value(),
        power: options.power,
        network: options.network,
        clock,
        timeZone: options.timeZone,
        scheduleMaxSleepMs: options.scheduleMaxSleepMs,
        log: options.log,
        onLimitChanged: () => this.emit('uploads:statusChanged', () => this.services.uploads.status()),
      }),
    );
    this.whenDone =
      options.whenDone && this.register(new WhenDoneRunner({ ...options.whenDone, engine, clock, log: options.log }));
    const uploads = createUploadsService({
      queue: engine.queue,
      store: engine.uploads,
      limiter: engine.limiter,
      policy: this.policy,
      whenDone: this.whenDone,
      conversions: engine.conversions,
      shell: options.shell,
      droppedFilesDir: options.droppedFilesDir,
    });
    this.services = {
      accounts: createAccountsService({
        engine,
        tokenStorage: options.tokenStorage,
        tokenStorageText: options.tokenStorageText,
        demo: options.demo,
        emit,
      }),
      uploads,
      folders: createFoldersService(engine, uploads),
      conversions: engine.conversions,
      imports: this.imports,
      notifications: this.notifications,
      settings,
      system: {
        info: options.info,
        shell: options.shell,
        log: options.log,
        updates: options.updates,
        clock,
        intents: this.intents,
        wake: () => engine.wake(),
        openLink: (link) => this.openLink(link),
        openFiles: (paths, opened) => this.openFiles(paths, opened),
      },
      emit,
    };
    this.applySettings(settings.value());
    this.handlers = commandHandlers(this.services);
    this.watchEngine();
    this.register(
      notifyWhatTheEngineDoes(engine, this.notifications, {
        translate: this.language.translate,
        dataDir: options.info.dataDir,
      }),
    );
    if (options.updates) {
      this.register(options.updates.onDidChange((status) => this.emit('app:updateChanged', () => status)));
    }
    if (options.shutdown) {
      this.register(options.shutdown.onWillShutdown('core', (e) => e.join(this.dispose(), 'the core')));
    }
  }

  /**
   * Starts the queue, folder sync, and following imports still running from
   * before; first the demo server, when the demo account is signed in.
   */
  async start(): Promise<void> {
    await this.options.demo?.startIfSignedIn(this.engine);
    this.engine.queue.start();
    this.engine.pruning.start();
    this.engine.conversions.start();
    await this.engine.sync.start();
    for (const account of this.engine.accounts.list()) {
      // an account that cannot be reached now is followed once it imports again
      this.imports.resume(account.id).catch(() => undefined);
    }
  }

  /**
   * Runs one command from a transport: `raw` is whatever arrived. Never
   * throws; a malformed request changes nothing and gets a VALIDATION_ERROR.
   */
  async handle(name: string, raw: unknown): Promise<IpcResult<unknown>> {
    return runCommand(this.handlers, name, raw, { log: this.options.log, checkOutgoing: this.checkOutgoing });
  }

  /**
   * A `media-sync://` link from the OS, a page or a CLI: parsed with the
   * import box's rules and kept until a page acts on it (app:takeIntents).
   * Opens a view or fills in a field, at most: nothing reaches the service.
   */
  private openLink(link: string): AppIntent {
    return this.intents.add(parseDeepLink(link));
  }

  /**
   * Files the OS opened with the app: queued for the default account, each
   * one that cannot be is skipped and named, and a page shows what happened.
   * Relative paths are read from `workingDirectory` (a second instance's).
   */
  private async openFiles(paths: string[], options: { workingDirectory?: string } = {}): Promise<AppIntent> {
    return this.intents.add(await queueOpenedFiles(this.engine, paths, options.workingDirectory));
  }

  /**
   * A contract event, its payload built only when something listens: a
   * daemon with no page open and no command beside it builds no view of a
   * row nobody shows (a few for every file uploaded).
   */
  private emit<N extends IpcEventName>(name: N, build: () => IpcEventPayload<N>): void {
    if (!this.emitter.hasListeners) return;
    this.emitter.fire({
      name,
      payload: outgoing(IPC_EVENTS[name], build(), `the event ${name}`, this.checkOutgoing) as IpcEventPayload<N>,
    });
  }

  private applySettings(settings: Settings): void {
    this.language.apply(settings.language);
    this.policy.settingsChanged();
    this.engine.pruning.setKeep(settings.removeFinishedAfterDays && settings.removeFinishedAfterDays * DAY_MS);
    this.engine.queue.setConcurrency(settings.concurrency);
    this.engine.queue.setChunkSize(settings.chunkSizeBytes);
    this.engine.sync.setPollInterval(settings.pollIntervalSeconds * 1000);
    this.engine.setProxy(settings.proxyUrl);
    this.options.updates?.setFeedUrl(settings.updateUrl);
  }

  /** Turns engine happenings into contract events (what a person is told of: engine-notifications.ts). */
  private watchEngine(): void {
    const queue = this.engine.queue;
    const { uploads, accounts } = this.services;
    for (const subscription of [
      queue.onDidChangeItem((item) => {
        this.progress.delete(item.id);
        uploads.forgetDroppedCopy(item);
        this.emit('uploads:itemChanged', () => uploads.view(item));
        // a new version of a file uploaded before: that earlier row now says the file changed since
        const earlier =
          item.state.kind === 'queued' && this.emitter.hasListeners
            ? this.engine.uploads.doneBefore(item.path, item.id)
            : undefined;
        if (earlier) this.emit('uploads:itemChanged', () => uploads.view(earlier));
      }),
      queue.onDidUpload(({ item, file }) => {
        if (item.state.kind !== 'done') return;
        const { fileId } = item.state;
        const links = file && { mime: file.mime, urls: { page: file.urls.page, watch: file.urls.watch } };
        this.emit('uploads:uploaded', () => ({ id: item.id, fileId, name: item.fileName, file: links }));
      }),
      queue.onDidProgress(({ id, state }) => {
        this.progress.set(id, state);
        this.progressThrottle.schedule();
      }),
      queue.onDidChangeStatus(() => this.emit('uploads:statusChanged', () => uploads.status())),
      ...[queue.onDidRemove, this.engine.pruning.onDidRemove].map((onDidRemove) =>
        onDidRemove((removed) => this.emit('uploads:removed', () => ({ removed }))),
      ),
      this.whenDone?.onDidChange(() => this.emit('uploads:statusChanged', () => uploads.status())) ?? (() => undefined),
      this.engine.onDidChangeAccountState(({ accountId, state }) => {
        const { limit, remaining, gateOpensInMs, gateReason } = state;
        const view: RateLimitView = { accountId, limit, remaining, gateOpensInMs, gateReason };
        const last = this.lastRateLimit.get(accountId);
        if (!last || !sameRateLimit(last, view)) {
          this.lastRateLimit.set(accountId, view);
          this.rateLimitsToSay.set(accountId, view);
          this.rateLimitThrottle.schedule();
          if (!onlyBudgetMoved(last, view)) this.rateLimitThrottle.flush();
        }
        // a token refused (or accepted again) mid-queue: the UI's banner follows without a reload
        const blocked = state.blocked?.code ?? null;
        if ((this.lastBlocked.get(accountId) ?? null) !== blocked) {
          this.lastBlocked.set(accountId, blocked);
          this.emit('account:changed', () => accounts.views());
        }
      }),
      this.notifications.onDidAdd((notification) => this.emit('notifications:added', () => notification)),
      this.engine.conversions.onDidChange((follow) => {
        this.emit('conversions:changed', () => follow);
        // the queue row of the upload shows the stage after it, once there is more to say than "Done"
        const item = follow.uploadId !== null && followChangesRow(follow) ? queue.get(follow.uploadId) : undefined;
        if (item?.state.kind === 'done') this.emit('uploads:itemChanged', () => uploads.view(item));
      }),
      this.imports.onDidChange((change) => this.emit('imports:changed', () => change)),
      this.engine.folderStatus.onDidChange((statuses) => this.emit('folders:statusChanged', () => statuses)),
      this.intents.onDidAdd(({ waiting }) => this.emit('app:intentsAvailable', () => ({ count: waiting }))),
      // asleep, the timer may not have run, or the wall clock was set: the schedule looks again
      this.engine.onDidWake(() => this.policy.wake()),
      // a log that cannot be written for lack of room is the app's disk being full too
      this.options.log?.onDidFailToWrite((error) => this.engine.dataDisk.report(error, this.options.log!.dir)) ??
        (() => undefined),
    ])
      this.register(subscription);
  }

  private emitRateLimits(): void {
    for (const view of this.rateLimitsToSay.values()) this.emit('app:rateLimitChanged', () => view);
    this.rateLimitsToSay.clear();
  }

  private emitProgress(): void {
    const batch = [...this.progress].map(([id, state]) => ({ id, state }));
    this.progress.clear();
    if (batch.length > 0) this.emit('uploads:progress', () => batch);
  }
}

/** Whether `next` differs from `last` only in the requests left: the gate, its reason and the limit are as they were. */
function onlyBudgetMoved(last: RateLimitView | undefined, next: RateLimitView): boolean {
  return (
    last !== undefined &&
    last.limit === next.limit &&
    last.gateReason === next.gateReason &&
    last.gateOpensInMs > 0 === next.gateOpensInMs > 0
  );
}

/** Whether nothing of an account's rate limit moved (the same account's two views). */
function sameRateLimit(last: RateLimitView, next: RateLimitView): boolean {
  return onlyBudgetMoved(last, next) && last.remaining === next.remaining && last.gateOpensInMs === next.gateOpensInMs;
}
