import type { AppUpdater } from 'electron-updater';
import { createRequire } from 'node:module';
import type { UpdateStatus } from '../../src-shared/model/update-status.js';
import { systemClock, type Clock } from '../common/clock.js';
import { englishText, message, type Message } from '../../src-shared/i18n/message.js';
import { CoreError } from '../common/core-error.js';
import { DisposableStore, Emitter } from '../common/disposable.js';
import { CoreLanguage } from '../common/i18n.js';
import type { Log } from '../common/file-log.js';
import type { ShutdownPort } from '../common/shutdown.js';
import type { UpdatesPort } from '../core/ports.js';

/** The part of electron-updater's `autoUpdater` the app uses: a stand-in in tests. */
export type UpdaterPort = Pick<
  AppUpdater,
  | 'autoDownload'
  | 'autoInstallOnAppQuit'
  | 'logger'
  | 'setFeedURL'
  | 'checkForUpdates'
  | 'quitAndInstall'
  | 'on'
  | 'off'
>;

/** electron-updater's updater for this platform (AppImage, deb, NSIS, macOS), loaded only when asked for. */
export function createElectronUpdater(): UpdaterPort {
  // its modules reach for Electron's app as they load: not before a packaged app needs them
  const { autoUpdater } = createRequire(import.meta.url)('electron-updater') as { autoUpdater: AppUpdater };
  return autoUpdater;
}

/** The updater's events the service follows, with what it reads of each. */
interface UpdaterEvents {
  'update-available': (info: { version: string }) => void;
  'download-progress': (progress: { percent: number }) => void;
  'update-downloaded': (event: { version: string }) => void;
  'update-not-available': () => void;
  error: (error: Error) => void;
}

/** What happens to an update check, as electron-updater reports it. */
export type UpdateEvent =
  | { type: 'check-started' }
  | { type: 'found'; version: string }
  | { type: 'progress'; percent: number }
  | { type: 'downloaded'; version: string }
  | { type: 'up-to-date'; at: string }
  | { type: 'failed'; message: string; at: string }
  /** the updater does not run in this installation (`checkForUpdates()` answered null) */
  | { type: 'inactive' };

const INACTIVE_REASON = message('core.updates.inactive');
const DEVELOPMENT_REASON = message('core.updates.development');

function unavailable(text: Message): UpdateStatus {
  return { state: 'unavailable', reason: englishText(text), text };
}

/**
 * The pure half of the update machine: where a status goes on an event.
 * A downloaded update stays `ready` whatever a later check says, until the
 * person installs it or quits (electron-updater installs it on the way out).
 */
export function nextUpdateStatus(status: UpdateStatus, event: UpdateEvent): UpdateStatus {
  switch (event.type) {
    case 'check-started':
      return status.state === 'downloading' || status.state === 'ready' ? status : { state: 'checking' };
    case 'found':
      return status.state === 'ready' ? status : { state: 'downloading', version: event.version, percent: 0 };
    case 'progress':
      return status.state === 'downloading'
        ? { ...status, percent: Math.min(100, Math.max(0, event.percent)) }
        : status;
    case 'downloaded':
      return { state: 'ready', version: event.version };
    case 'up-to-date':
      return status.state === 'checking' || status.state === 'idle' || status.state === 'failed'
        ? { state: 'idle', checkedAt: event.at }
        : status;
    case 'failed':
      // electron-updater reports one failure twice (its 'error' event and the rejected check), a moment apart
      if (status.state === 'ready' || (status.state === 'failed' && status.message === event.message)) return status;
      return { state: 'failed', message: event.message, checkedAt: event.at };
    case 'inactive':
      return unavailable(INACTIVE_REASON);
  }
}

/**
 * The sentence a person reads for a failed check or download: the updater's
 * own messages carry stack traces and whole HTTP replies.
 */
export function updateProblem(error: unknown, version: string | null): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ERR_CHECKSUM_MISMATCH' || /sha512 checksum mismatch/i.test(message)) {
    return `The update${version ? ` to ${version}` : ''} did not match its checksum, so it was not installed. Media Sync will try again later.`;
  }
  if (
    /ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|net::ERR_/.test(
      `${String(code)} ${message}`,
    )
  ) {
    return 'Media Sync could not reach its update server. It will try again later.';
  }
  const first = message.split('\n', 1)[0]!.trim();
  return `The update check failed: ${first.length > 200 ? `${first.slice(0, 199)}…` : first}`;
}

export interface UpdateServiceOptions {
  /** null in a development build: updates are then `unavailable` */
  updater: UpdaterPort | null;
  log: Log;
  /** stops everything as a quit does (queue saved, database closed) before the installer quits the app */
  prepareToQuit(): Promise<void>;
  clock?: Clock;
  /** the first check, after start-up has settled (10 s) */
  firstCheckMs?: number;
  /** between checks (6 h) */
  checkEveryMs?: number;
  /** the app's stop: no check starts once nothing new is taken in (`intake`) */
  shutdown?: ShutdownPort;
}

const FIRST_CHECK_MS = 10_000;
const CHECK_EVERY_MS = 6 * 60 * 60 * 1000;

/**
 * The runner around electron-updater: checks 10 s after start and every 6 h,
 * downloads in the background (electron-updater verifies the sha512 of
 * latest-*.yml), and installs only when asked ("Restart to update") or at
 * the next quit, as VS Code does: it never restarts the app by itself, so
 * never in the middle of an upload. Failures are logged and shown in
 * Settings, never in a dialog; the next check comes at its time.
 */
export class UpdateService implements UpdatesPort {
  private current: UpdateStatus;
  private readonly emitter = new Emitter<UpdateStatus>();
  private readonly clock: Clock;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<UpdateStatus> | null = null;
  private readonly listeners = new DisposableStore();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly options: UpdateServiceOptions) {
    this.clock = options.clock ?? systemClock;
    this.current = options.updater ? { state: 'idle', checkedAt: null } : unavailable(DEVELOPMENT_REASON);
    if (options.shutdown) this.listeners.add(options.shutdown.onWillShutdown('intake', () => this.dispose()));
    const updater = options.updater;
    if (!updater) return;
    updater.autoDownload = true;
    // a downloaded update the person did not install goes in when the app quits
    updater.autoInstallOnAppQuit = true;
    updater.logger = {
      info: (message?: unknown) => options.log.info(`Updater: ${String(message)}`),
      warn: (message?: unknown) => options.log.warn(`Updater: ${String(message)}`),
      error: (message?: unknown) => options.log.warn(`Updater: ${String(message)}`),
    };
    this.listen(updater, 'update-available', (info) => this.apply({ type: 'found', version: info.version }));
    this.listen(updater, 'download-progress', (progress) =>
      this.apply({ type: 'progress', percent: progress.percent }),
    );
    this.listen(updater, 'update-downloaded', (event) => this.apply({ type: 'downloaded', version: event.version }));
    this.listen(updater, 'update-not-available', () => this.apply({ type: 'up-to-date', at: this.now() }));
    // electron-updater emits this and rejects checkForUpdates (or its download) with the same error
    this.listen(updater, 'error', (error) => this.fail(error));
  }

  status(): UpdateStatus {
    return this.current;
  }

  setFeedUrl(url: string): void {
    this.options.updater?.setFeedURL({ provider: 'generic', url });
  }

  /** Schedules the first check and the ones every 6 hours. */
  start(): void {
    if (!this.options.updater) return;
    const every = this.options.checkEveryMs ?? CHECK_EVERY_MS;
    const schedule = (delay: number) => {
      this.timer = setTimeout(() => {
        void this.check();
        schedule(every);
      }, delay);
      this.timer.unref();
    };
    schedule(this.options.firstCheckMs ?? FIRST_CHECK_MS);
  }

  check(): Promise<UpdateStatus> {
    const updater = this.options.updater;
    if (!updater || this.current.state === 'ready' || this.current.state === 'downloading') {
      return Promise.resolve(this.current);
    }
    this.checking ??= (async () => {
      this.apply({ type: 'check-started' });
      try {
        const result = await updater.checkForUpdates();
        if (result === null) this.apply({ type: 'inactive' });
        // the download goes on by itself; its end and its failure arrive as events
        else result.downloadPromise?.catch(() => undefined);
      } catch (error) {
        this.fail(error);
      } finally {
        this.checking = null;
      }
      return this.current;
    })();
    return this.checking;
  }

  async install(): Promise<void> {
    const updater = this.options.updater;
    if (!updater || this.current.state !== 'ready') {
      throw CoreError.say('NO_UPDATE', message('core.errors.noUpdate'));
    }
    this.options.log.info(`Installing Media Sync ${this.current.version}: stopping first.`);
    await this.options.prepareToQuit();
    // silent: no installer wizard on Windows; force-run: the new version starts once installed
    updater.quitAndInstall(true, true);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.listeners.dispose();
    this.emitter.dispose();
  }

  private fail(error: unknown): void {
    const version = this.current.state === 'downloading' ? this.current.version : null;
    const message = updateProblem(error, version);
    // once per failure, in the log only: an unreachable server is no reason to interrupt anyone
    if (this.current.state !== 'failed' || this.current.message !== message) {
      this.options.log.warn(`${message} (${error instanceof Error ? error.message.split('\n', 1)[0] : String(error)})`);
    }
    this.apply({ type: 'failed', message, at: this.now() });
  }

  private apply(event: UpdateEvent): void {
    const next = nextUpdateStatus(this.current, event);
    if (JSON.stringify(next) === JSON.stringify(this.current)) return;
    this.current = next;
    this.emitter.fire(next);
  }

  private now(): string {
    return new Date(this.clock.wall()).toISOString();
  }

  private listen<E extends keyof UpdaterEvents>(updater: UpdaterPort, event: E, listener: UpdaterEvents[E]): void {
    // electron-updater's emitter is typed with its own event map, which its package does not export
    updater.on(event, listener as never);
    this.listeners.add(() => updater.off(event, listener as never));
  }
}

/** The tray's "Restart to update" while an update waits, in the core's language (English when not given); nothing otherwise. */
export function updateMenuItem(
  status: UpdateStatus,
  language: Pick<CoreLanguage, 't'> = new CoreLanguage(),
): { label: string; enabled: boolean } | null {
  if (status.state !== 'ready') return null;
  return { label: language.t('core.tray.restartToUpdate', { version: status.version }), enabled: true };
}
