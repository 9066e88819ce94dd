import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PLAN_FILE_SIZE_LIMIT_BYTES, PLANS, type Account, type Plan } from '../../src-shared/api/index.js';
import { MediaApiClient, normaliseBaseUrl } from '../api-client/media-api-client.js';
import { RequestScheduler, type SchedulerState } from '../api-client/request-scheduler.js';
import { systemClock, type Clock } from '../common/clock.js';
import { DisposableBase, Emitter, type Disposable, type Event } from '../common/disposable.js';
import type { Log } from '../common/file-log.js';
import { Throttle } from '../common/throttle.js';
import { message } from '../../src-shared/i18n/message.js';
import type { WatchedFolder } from '../../src-shared/model/folder-options.js';
import { CoreError } from '../common/core-error.js';
import { AccountStore, type AccountRecord } from '../storage/account-store.js';
import { AppStateStore } from '../storage/app-state-store.js';
import { DataDisk } from '../storage/data-disk.js';
import { DATABASE_FILE, openDatabase, type Db } from '../storage/database.js';
import { FolderStore } from '../storage/folder-store.js';
import { ConversionFollower } from '../conversions/conversion-follower.js';
import { ConversionStore } from '../conversions/conversion-store.js';
import { FileTokenVault, type TokenVault } from '../storage/token-vault.js';
import { DeclinedFiles } from '../sync/declined-files.js';
import { FolderFiles } from '../sync/folder-files.js';
import type { AccountProblem } from '../sync/folder-state.js';
import { FolderStatusService } from '../sync/folder-status-service.js';
import { SyncIndex } from '../sync/sync-index.js';
import { SyncService } from '../sync/sync-service.js';
import { DEFAULT_SETTLE_MS, settleWindowFor } from '../sync/stability.js';
import { BandwidthLimiter } from '../uploads/bandwidth-limiter.js';
import { ProcWriterProbe } from '../uploads/file-writers.js';
import { FinishedPruning } from '../uploads/finished-pruning.js';
import { UploadQueue } from '../uploads/upload-queue.js';
import { UploadStore } from '../uploads/upload-store.js';
import type { EngineOptions } from './engine-options.js';
import { ACTIVE_KINDS } from '../../src-shared/model/upload-state.js';
import { UploadLog, describeAccount, describeError, logAccountState, nameAccount } from './engine-log.js';
import { NO_TRASH } from './ports.js';

export type { EngineOptions } from './engine-options.js';

const SILENT: Log = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The upload engine, assembled: one database, the accounts with one
 * RequestScheduler and API client each, the upload queue and folder sync.
 * Knows nothing of Electron, HTTP transports or terminals: the CLI, the
 * headless daemon and the desktop app all drive this.
 */
export class Engine extends DisposableBase {
  readonly accounts: AccountStore;
  readonly folders: FolderStore;
  readonly index: SyncIndex;
  readonly uploads: UploadStore;
  readonly queue: UploadQueue;
  readonly sync: SyncService;
  /** the files of watched folders the person cancelled ("why this file?" reads them) */
  readonly declines: DeclinedFiles;
  /** each watched folder's state, counts and recent files */
  readonly folderStatus: FolderStatusService;
  readonly limiter: BandwidthLimiter;
  /** each finished upload's (and import's) HLS conversion, followed until final */
  readonly conversions: ConversionFollower;
  /** removes finished uploads from the queue after the time the settings say (started by the app and the daemon) */
  readonly pruning: FinishedPruning;
  /** whether the disk of the data folder (and the log) has room for what the app writes */
  readonly dataDisk: DataDisk;
  private readonly clients = new Map<string, { client: MediaApiClient; subscription: Disposable }>();
  /** accounts with no token stored, whose token is MEDIA_SYNC_TOKEN's */
  private readonly environmentTokens = new Set<string>();
  private readonly log: Log;
  private proxyUrl: string | null;
  private readonly accountStateEmitter = this.register(new Emitter<{ accountId: string; state: SchedulerState }>());
  /** an account's request budget, Retry-After gate or refused token changed (after every request) */
  readonly onDidChangeAccountState = this.accountStateEmitter.event;
  private readonly accountsEmitter = this.register(new Emitter<void>());
  /** an account signed in or out */
  readonly onDidChangeAccounts = this.accountsEmitter.event;
  private readonly wakeEmitter = this.register(new Emitter<void>());
  /** the machine woke up or came back online (`wake()`): what depends on the wall clock looks again */
  readonly onDidWake = this.wakeEmitter.event;
  private readonly dataDiskEmitter = this.register(new Emitter<void>());
  /** `dataDiskFull()` may have changed: the disk filled up or has room again, or more files wait (at most twice a second) */
  readonly onDidChangeDataDisk: Event<void> = this.dataDiskEmitter.event;

  private constructor(
    readonly db: Db,
    private readonly vault: TokenVault,
    private readonly options: EngineOptions,
    private readonly clock: Clock,
  ) {
    super();
    // closed last, once nothing writes to it any more
    this.register(() => db.close());
    this.proxyUrl = options.proxyUrl ?? null;
    const now = () => clock.wall();
    const log = (this.log = options.log ?? SILENT);
    this.accounts = new AccountStore(db, now);
    this.folders = new FolderStore(db, now);
    this.index = new SyncIndex(db, now);
    this.uploads = new UploadStore(db, now, (id, problem) =>
      log.warn(`Skipped upload #${id}: its saved row could not be read (${problem}).`),
    );
    this.limiter = new BandwidthLimiter(options.bandwidthBytesPerSecond ?? null, clock);
    this.dataDisk = this.register(
      new DataDisk({ dataDir: options.dataDir, clock, probeMs: options.dataDiskProbeMs, log }),
    );
    // the accounts' clients close once the queue has stopped (their uploads committed in place)
    this.register(async () => {
      for (const { client, subscription } of this.clients.values()) {
        subscription.dispose();
        client.scheduler.dispose();
        await client.close();
      }
      this.clients.clear();
    });
    this.queue = new UploadQueue({
      store: this.uploads,
      appState: new AppStateStore(db),
      clientFor: (id) => this.clients.get(id)?.client ?? null,
      readyAccounts: () =>
        [...this.clients].filter(([, { client }]) => !client.scheduler.state().blocked).map(([id]) => id),
      pausedFolders: () => this.folders.pausedIds(),
      fileSizeLimitFor: (id) => PLAN_FILE_SIZE_LIMIT_BYTES[this.accounts.get(id)?.plan ?? 'free'],
      limiter: this.limiter,
      clock,
      chunkSize: options.chunkSize,
      concurrency: options.concurrency,
      chunksPerFile: options.chunksPerFile,
      skipIfOnService: (item) =>
        item.folderId !== null && this.folders.get(item.folderId)?.options.skipExisting === true,
      outOfSpace: (error) => this.dataDisk.report(error),
      // Linux's /proc; elsewhere it cannot tell, and the settle window alone decides
      writers: options.writers ?? new ProcWriterProbe(),
      // a file changed under its upload starts over once it settled, as its folder's watcher would judge it
      settleMsFor: (item) => {
        const own = item.folderId === null ? null : this.folders.get(item.folderId)?.options.settleSeconds;
        return settleWindowFor(item.size, own ? own * 1000 : (options.settleMs ?? DEFAULT_SETTLE_MS));
      },
    });
    this.register(async () => {
      await this.queue.stop();
      this.queue.dispose();
    });
    this.declines = new DeclinedFiles(db, now);
    this.sync = new SyncService({
      folders: this.folders,
      index: this.index,
      declines: this.declines,
      queue: this.queue,
      trash: options.trash ?? NO_TRASH,
      clock,
      settleMs: options.settleMs,
      folderCheckMs: options.folderCheckMs,
      dataDisk: this.dataDisk,
      pollIntervalMs: options.pollIntervalMs,
      fileSystemOf: options.fileSystemOf,
      log: (message) => log.warn(message),
    });
    this.register(() => this.sync.close());
    // more files waiting for room change only the count the queue's status shows: told at most twice a second
    const waitingChanged = this.register(new Throttle(() => this.dataDiskEmitter.fire(), 500, clock));
    this.register(this.dataDisk.onDidChange(() => this.dataDiskEmitter.fire()));
    this.register(this.sync.onDidChangeWaiting(() => waitingChanged.schedule()));
    this.folderStatus = new FolderStatusService({
      folders: this.folders,
      files: new FolderFiles(db),
      sync: this.sync,
      queue: this.queue,
      unfinishedItems: () => this.uploads.unfinished(),
      accountProblem: (id) => this.accountProblem(id),
      onDidChangeAccount: (listener) => {
        // a status shows whether an account is blocked (accountProblem), not its rate budget, which every request moves
        const blocked = new Map<string, boolean>();
        const state = this.onDidChangeAccountState(({ accountId, state: now }) => {
          if ((blocked.get(accountId) ?? false) === (now.blocked !== null)) return;
          blocked.set(accountId, now.blocked !== null);
          listener(undefined);
        });
        const accounts = this.onDidChangeAccounts(listener);
        return { dispose: () => (state.dispose(), accounts.dispose()) };
      },
      clock,
    });
    this.register(this.folderStatus);
    this.conversions = new ConversionFollower({
      store: new ConversionStore(db, (fileId, problem) =>
        log.warn(`Skipped the followed file ${fileId}: its saved row could not be read (${problem}).`),
      ),
      clientFor: (id) => this.clients.get(id)?.client,
      clock,
      policy: options.followPolicy,
    });
    this.register(this.conversions);
    this.pruning = new FinishedPruning({
      store: this.uploads,
      clock,
      beforeRemove: (items) => this.sync.keepUploaded(items),
    });
    this.register(this.pruning);
    this.register(
      this.pruning.onDidRemove((removed) => log.info(`Removed ${removed} finished uploads from the queue.`)),
    );
    const uploadLog = this.register(new UploadLog(log, clock));
    this.register(this.queue.onDidChangeItem((item) => uploadLog.changed(item)));
    this.register(
      this.queue.onDidUpload(({ item, file, replacedStale }) => {
        if (item.state.kind !== 'done') return;
        if (replacedStale)
          log.info(`${item.path} changed as it was uploaded: the copy of its earlier version was deleted.`);
        this.conversions.follow({
          accountId: item.accountId,
          fileId: item.state.fileId,
          name: item.fileName,
          uploadId: item.id,
          watchUrl: file?.urls.watch ?? null,
          mime: file?.mime ?? null,
        });
      }),
    );
    if (options.shutdown) {
      this.register(options.shutdown.onWillShutdown('engine', (e) => e.join(this.close(), 'the upload engine')));
    }
  }

  static async open(options: EngineOptions): Promise<Engine> {
    await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    const db = openDatabase(join(options.dataDir, DATABASE_FILE), options.nativeBinding);
    const vault = options.vault ?? new FileTokenVault(join(options.dataDir, 'credentials'));
    if (options.envToken) options.secrets?.addSecret(options.envToken);
    const engine = new Engine(db, vault, options, options.clock ?? systemClock);
    for (const account of engine.accounts.list()) {
      const stored = await vault.get(account.id);
      if (stored) options.secrets?.addSecret(stored);
      const token = stored ?? options.envToken ?? null;
      if (!stored && token) engine.environmentTokens.add(account.id);
      if (token) engine.connect(account, token);
      else engine.log.warn(`${describeAccount(account)} has no token: sign in again to upload.`);
    }
    return engine;
  }

  /** Every token the engine signs in with (the vault's, MEDIA_SYNC_TOKEN), for what must cut them out (a support file). */
  async tokens(): Promise<string[]> {
    const stored = await Promise.all(this.accounts.list().map((account) => this.vault.get(account.id)));
    return [...stored, this.options.envToken].filter((token): token is string => Boolean(token));
  }

  /**
   * Checks `token` with GET /account and remembers the account (the token in
   * the vault). Signing in again to the same account replaces its token and
   * lets its paused queue go on.
   */
  async signIn(baseUrl: string, token: string, plan?: Plan): Promise<{ account: AccountRecord; remote: Account }> {
    // before anything could echo it: a token refused now may still be quoted by a later error
    this.options.secrets?.addSecret(token);
    const url = normaliseBaseUrl(baseUrl);
    const probe = new MediaApiClient({ baseUrl: url, token, proxyUrl: this.proxyUrl });
    let remote: Account;
    try {
      remote = await probe.getAccount();
    } catch (error) {
      this.log.warn(`Signing in to ${url} failed: ${describeError(error)}`);
      throw error;
    } finally {
      await probe.close();
    }
    const reported = PLANS.find((p) => p === (remote as { plan?: unknown }).plan);
    // the same account as before (signed out since, or not): its folders and queue name its id
    const existing = this.accounts.find(url, remote);
    const account = existing ?? this.accounts.add({ baseUrl: url, remote, plan: 'free' });
    this.accounts.update(account.id, { remote, plan: plan ?? reported ?? account.plan });
    await this.vault.set(account.id, token);
    this.environmentTokens.delete(account.id);
    this.accounts.setSignedOut(account.id, null);
    const client = this.clients.get(account.id)?.client;
    if (client) client.setToken(token);
    else this.connect(this.accounts.get(account.id)!, token);
    this.queue.poke();
    const signedIn = this.accounts.get(account.id)!;
    this.log.info(
      existing?.signedOutAt
        ? `Signed in again: ${describeAccount(signedIn)}.`
        : `Signed in: ${describeAccount(signedIn)}.`,
    );
    this.accountsEmitter.fire();
    return { account: signedIn, remote };
  }

  /**
   * Forgets the account's token and stops its traffic; the account itself is
   * kept, marked signed out, so its folders and queued files (whose uploads
   * stop in place, their chunks kept) wait for it to sign in again, or for
   * the person to move its folders to another account.
   */
  async signOut(accountId: string): Promise<void> {
    const account = this.accounts.get(accountId);
    await this.vault.delete(accountId);
    this.environmentTokens.delete(accountId);
    await this.disconnect(accountId);
    if (!account || account.signedOutAt !== null) return;
    this.accounts.setSignedOut(accountId, this.clock.wall());
    this.log.info(`Signed out: ${describeAccount(account)}; its folders and queued files wait for it.`);
    this.accountsEmitter.fire();
  }

  /**
   * Moves a watched folder of an account that is signed out to a signed-in
   * one: the folder's waiting files go to that account from the start (a
   * partly sent file starts over there); what it sent before stays known as
   * sent, so nothing already uploaded goes again.
   */
  async moveFolder(folderId: number, accountId: string): Promise<WatchedFolder> {
    const folder = this.folders.get(folderId);
    if (!folder) throw CoreError.say('NOT_FOUND', message('core.errors.noFolder', { id: folderId }));
    if (!this.clients.has(accountId)) throw CoreError.say('NOT_SIGNED_IN', message('core.errors.notSignedIn'));
    if (folder.accountId === accountId) return folder;
    if (this.clients.has(folder.accountId)) {
      throw CoreError.say('VALIDATION_ERROR', message('core.errors.folderAccountSignedIn'));
    }
    // one commit: the folder and its waiting files change account together
    const moved = await this.sync.rewatch(folderId, () =>
      this.uploads.batch(() => {
        this.folders.setAccount(folderId, accountId);
        const waiting = this.uploads.unfinishedOfFolder(folderId).map((item) => item.id);
        this.queue.moveToAccount(waiting, accountId);
      }),
    );
    this.log.info(`Moved the watched folder ${folder.path} to ${describeAccount(this.accounts.get(accountId)!)}.`);
    return moved;
  }

  /**
   * The account's server answers at another address now (the local demo
   * server, started on another port): the account, its queue and its token
   * stay; its requests go to `baseUrl` from now on.
   */
  async moveAccount(accountId: string, baseUrl: string): Promise<void> {
    const url = normaliseBaseUrl(baseUrl);
    this.accounts.update(accountId, { baseUrl: url });
    const connected = this.clients.has(accountId);
    await this.disconnect(accountId);
    const token = connected ? ((await this.vault.get(accountId)) ?? this.options.envToken) : undefined;
    const account = this.accounts.get(accountId);
    if (account && token) this.connect(account, token);
  }

  /** Whether the account's token is MEDIA_SYNC_TOKEN's, not one kept in the vault. */
  tokenFromEnvironment(accountId: string): boolean {
    return this.environmentTokens.has(accountId);
  }

  /** Route every account's API traffic through `proxyUrl` from now on (null: directly). */
  setProxy(proxyUrl: string | null): void {
    if (proxyUrl === this.proxyUrl) return;
    this.proxyUrl = proxyUrl;
    for (const { client } of this.clients.values()) client.setProxy(proxyUrl);
  }

  /** The account a command means when none is named: the first one signed in. */
  defaultAccount(): AccountRecord | undefined {
    return this.accounts.list()[0];
  }

  /**
   * The machine woke up or came back online: what waits out a backoff (a
   * file's retry, a request's) goes now instead of minutes later. Retry-After
   * gates and refused tokens still hold.
   */
  wake(): void {
    for (const { client } of this.clients.values()) client.scheduler.retryNow();
    this.queue.retryNow();
    this.wakeEmitter.fire();
  }

  /**
   * Why an account cannot upload, for its folders: its token refused (or it
   * has none: 'signedOut'), or it is signed out, or unknown ('accountGone').
   */
  accountProblem(accountId: string): AccountProblem | null {
    const client = this.client(accountId);
    if (client) return client.scheduler.state().blocked === null ? null : { problem: 'signedOut' };
    const account = this.accounts.get(accountId);
    if (account && account.signedOutAt === null) return { problem: 'signedOut' };
    return {
      problem: 'accountGone',
      account: account ? { baseUrl: account.baseUrl, username: account.username } : null,
    };
  }

  client(accountId: string): MediaApiClient | undefined {
    return this.clients.get(accountId)?.client;
  }

  /**
   * Media Sync's own disk is full: since when, and the files that wait for
   * room (the queue's unfinished items and the new files seen since, not
   * yet queued); null while it has room.
   */
  dataDiskFull(): { since: number; waiting: number } | null {
    const full = this.dataDisk.full;
    if (!full) return null;
    const queued = this.uploads.count(ACTIVE_KINDS);
    return { since: full.since, waiting: queued + this.sync.waitingForRoom };
  }

  /** Stops everything it made, newest first: the queue (its progress committed) before the database closes. */
  close(): Promise<void> {
    return this.dispose();
  }

  private async disconnect(accountId: string): Promise<void> {
    const entry = this.clients.get(accountId);
    // first out of the map, so none of the account's items starts again; then its running ones stop in place
    this.clients.delete(accountId);
    await this.queue.releaseAccount(accountId);
    entry?.subscription.dispose();
    entry?.client.scheduler.dispose();
    await entry?.client.close();
  }

  private connect(account: AccountRecord, token: string): void {
    const scheduler = new RequestScheduler({ clock: this.clock });
    const client = new MediaApiClient({
      ...this.options.client,
      baseUrl: account.baseUrl,
      token,
      scheduler,
      proxyUrl: this.proxyUrl,
    });
    let logged: Pick<SchedulerState, 'blocked' | 'gateReason'> = { blocked: null, gateReason: null };
    // after every request: what the queue skips changes only when the token works again (or no longer does)
    const subscription = scheduler.onDidChangeState((state) => {
      if ((state.blocked === null) !== (logged.blocked === null)) this.queue.poke();
      logAccountState(this.log, () => nameAccount(this.accounts.get(account.id), account.id), logged, state);
      logged = state;
      this.accountStateEmitter.fire({ accountId: account.id, state });
    });
    this.clients.set(account.id, { client, subscription });
  }
}
