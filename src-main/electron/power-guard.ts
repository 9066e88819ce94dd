import type { Net, PowerMonitor, PowerSaveBlocker } from 'electron';
import type { QueueStatus } from '../../src-shared/ipc/ipc-contract.js';
import type { Disposable } from '../common/disposable.js';

export interface PowerGuardOptions {
  powerSaveBlocker: Pick<PowerSaveBlocker, 'start' | 'stop'>;
  powerMonitor: Pick<PowerMonitor, 'on' | 'removeListener'>;
  net: Pick<Net, 'isOnline'>;
  /** retry now what waits on a backoff: the network is probably back */
  wake(reason: WakeReason): void;
  /** between two looks at `net.isOnline()` (5 s): Electron's main process has no online event */
  onlinePollMs?: number;
}

export type WakeReason = 'resume' | 'unlock-screen' | 'online';

/**
 * A laptop must not fall asleep halfway through a 4 GB upload, and after it
 * wakes (or the network comes back) the queue should not sit out a backoff
 * that was set while the machine was away.
 *
 * - `prevent-app-suspension` is held while anything is uploading and let go
 *   when the queue is idle or paused: it keeps the system awake but lets
 *   the screen sleep.
 * - `resume` and `unlock-screen` from powerMonitor, and `net.isOnline()`
 *   turning true, wake the queue at once.
 */
export class PowerGuard implements Disposable {
  private blocker: number | null = null;
  private online: boolean;
  private readonly timer: NodeJS.Timeout;
  private readonly listeners: Array<[WakeReason, () => void]>;

  constructor(private readonly options: PowerGuardOptions) {
    this.listeners = (['resume', 'unlock-screen'] as const).map((reason) => [reason, () => options.wake(reason)]);
    for (const [event, listener] of this.listeners) options.powerMonitor.on(event as 'resume', listener);
    this.online = options.net.isOnline();
    this.timer = setInterval(() => this.checkOnline(), options.onlinePollMs ?? 5_000);
    // the poll is no reason to keep a process alive
    this.timer.unref();
  }

  /** Follows the queue: holds the blocker while uploads run, and lets it go otherwise. */
  update(status: Pick<QueueStatus, 'active' | 'pause'>): void {
    const uploading = status.active > 0 && !status.pause;
    if (uploading && this.blocker === null) {
      this.blocker = this.options.powerSaveBlocker.start('prevent-app-suspension');
    } else if (!uploading && this.blocker !== null) {
      this.options.powerSaveBlocker.stop(this.blocker);
      this.blocker = null;
    }
  }

  get blocking(): boolean {
    return this.blocker !== null;
  }

  dispose(): void {
    clearInterval(this.timer);
    for (const [event, listener] of this.listeners)
      this.options.powerMonitor.removeListener(event as 'resume', listener);
    this.update({ active: 0, pause: null });
  }

  private checkOnline(): void {
    const online = this.options.net.isOnline();
    if (online && !this.online) this.options.wake('online');
    this.online = online;
  }
}
