import { DisposableStore, type Disposable } from '../common/disposable.js';
import type { FileLog } from '../common/file-log.js';
import { Throttle } from '../common/throttle.js';
import type { MediaSyncBridge } from '../../src-shared/ipc/ipc-contract.js';
import type { AppCore } from '../core/app-core.js';
import type { ElectronModule } from './electron-module.js';
import { PowerGuard } from './power-guard.js';
import { QueueProgressTracker } from './queue-progress.js';
import { softly } from './softly.js';
import { TaskbarProgress, type TaskbarProgressOptions } from './taskbar-progress.js';
import type { TrayController } from './tray-controller.js';

/** The tray, the taskbar's progress and the power blocker follow the queue at most this often. */
const REFRESH_MS = 1_000;

export interface QueueFollowerOptions {
  electron: Pick<ElectronModule, 'app' | 'powerSaveBlocker' | 'powerMonitor' | 'net'>;
  platform: NodeJS.Platform;
  core: Pick<AppCore, 'onDidEmit' | 'language'>;
  contract: MediaSyncBridge;
  log: FileLog;
  tray: TrayController;
  window: TaskbarProgressOptions['window'];
  /** false once the quit began: nothing reads the core after that */
  isRunning(): boolean;
}

/**
 * The desktop's parts that follow the queue (the tray, the taskbar's
 * progress, the power blocker), reading it through the contract: at most
 * once a second, not at every item event, one read at a time and in order;
 * at once when the language changes (the tray speaks the new one); and each
 * second while a progress bar shows, so it moves with the time left.
 */
export class QueueFollower implements Disposable {
  private readonly disposables = new DisposableStore();
  private readonly progress = new QueueProgressTracker();
  private readonly taskbar: TaskbarProgress;
  private readonly throttle: Throttle;
  private power: PowerGuard | null = null;
  private reading: Promise<void> = Promise.resolve();

  constructor(private readonly options: QueueFollowerOptions) {
    const { electron, core, log, isRunning } = options;
    const { powerSaveBlocker, powerMonitor, net } = electron;
    softly(log, 'watching power and network', () => {
      this.power = this.disposables.add(
        new PowerGuard({
          powerSaveBlocker,
          powerMonitor,
          net,
          wake: (reason) => {
            log.info(`Woke the upload queue (${reason}).`);
            options.contract
              .invoke('app:wake', {})
              .catch((error: unknown) => log.warn(`The queue was not woken: ${String(error)}`));
          },
        }),
      );
    });
    this.taskbar = new TaskbarProgress({
      app: electron.app,
      window: options.window,
      platform: options.platform,
      locale: () => core.language.locale,
    });
    this.throttle = this.disposables.add(new Throttle(() => isRunning() && this.refresh(), REFRESH_MS));
    this.disposables.add(
      core.onDidEmit(({ name }) => name !== 'uploads:progress' && isRunning() && this.throttle.schedule()),
    );
    this.disposables.add(core.language.onDidChange(() => isRunning() && this.refresh()));
    this.refresh();
  }

  dispose(): void {
    this.disposables.dispose();
  }

  /** One read at a time, in order; a failure is logged while the app runs. */
  private refresh(): void {
    this.reading = this.reading
      .then(() => this.readOnce())
      .catch((error: unknown) => {
        if (this.options.isRunning()) this.options.log.warn(`The tray could not show the queue: ${String(error)}`);
      });
  }

  private async readOnce(): Promise<void> {
    const { contract, isRunning, tray } = this.options;
    const [status, overview, folders, accounts, settings] = await Promise.all([
      contract.invoke('uploads:status', {}),
      contract.invoke('uploads:overview', { ended: this.progress.unsettled() }),
      contract.invoke('folders:status', {}),
      contract.invoke('account:list', {}),
      contract.invoke('settings:get', {}),
    ]);
    if (!isRunning()) return;
    const ended = new Map(overview.ended.map((item) => [item.id, item]));
    const progress = this.progress.update(status, overview.unfinished, (id) => ended.get(id), performance.now());
    this.power?.update(status);
    tray.update({ status, overview, folders, accounts, snooze: settings.notificationsSnoozed }, progress);
    this.taskbar.show(progress);
    if (progress.bar) this.throttle.schedule();
  }
}
