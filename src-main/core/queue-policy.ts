import { sameQueueHold, type QueueHold } from '../../src-shared/model/queue-hold.js';
import type { Settings } from '../../src-shared/model/settings.js';
import type { Clock } from '../common/clock.js';
import { DisposableStore } from '../common/disposable.js';
import type { Log } from '../common/file-log.js';
import { ScheduleRunner } from '../uploads/schedule-runner.js';
import { uploadPolicy, type LimitSource } from '../uploads/upload-policy.js';
import type { Engine } from './engine.js';
import type { NetworkCostPort, PowerSourcePort } from './ports.js';

export interface QueuePolicyOptions {
  engine: Pick<Engine, 'limiter' | 'queue' | 'dataDiskFull' | 'onDidChangeDataDisk'>;
  /** the settings now: Bandwidth, the schedule, Pause while on battery, On a metered connection */
  settings(): Settings;
  power?: PowerSourcePort;
  network?: NetworkCostPort;
  clock: Clock;
  /** the zone the schedule's windows are read in (the system's, asked at each edge) */
  timeZone?: () => string;
  /** the schedule's longest wait between two looks at the wall clock (60 s) */
  scheduleMaxSleepMs?: number;
  log?: Log;
  /** the limit in force changed while the hold did not: the queue's status must be told again */
  onLimitChanged(): void;
}

/**
 * The Bandwidth setting, the upload schedule's state, the power source,
 * the network's cost and the app's own disk, applied to the queue as one limit and one hold
 * (uploads/upload-policy.ts), again at each change of any of them. A changed
 * hold reaches the UI through the queue's own status event; a changed limit
 * alone through `onLimitChanged`.
 */
export class QueuePolicy {
  private readonly schedule: ScheduleRunner;
  private hold: QueueHold | null = null;
  private readonly subscriptions = new DisposableStore();
  /** whose limit is in force */
  limitBy: LimitSource = 'setting';

  constructor(private readonly options: QueuePolicyOptions) {
    this.schedule = new ScheduleRunner({
      clock: options.clock,
      timeZone: options.timeZone,
      maxSleepMs: options.scheduleMaxSleepMs,
      apply: () => this.apply(),
    });
    for (const source of [options.power, options.network]) {
      if (source) this.subscriptions.add(source.onDidChange(() => this.apply()));
    }
    this.subscriptions.add(options.engine.onDidChangeDataDisk(() => this.apply()));
  }

  /** The settings changed: the schedule's windows are read again, and everything applied. */
  settingsChanged(): void {
    // the runner applies the policy when the schedule's effect changed; the other inputs may have too
    this.schedule.setSchedule(this.options.settings().schedule);
    this.apply();
  }

  /** Asleep, the timer may not have run, or the wall clock was set: the schedule looks again. */
  wake(): void {
    this.schedule.reevaluate();
  }

  apply(): void {
    const settings = this.options.settings();
    const policy = uploadPolicy({
      bandwidthBytesPerSecond: settings.bandwidthBytesPerSecond,
      schedule: this.schedule.state,
      pauseOnBattery: settings.pauseOnBattery,
      onBattery: this.options.power?.onBattery() ?? false,
      meteredUploads: settings.metered,
      metered: this.options.network?.metered() ?? false,
      dataDiskFull: this.options.engine.dataDiskFull(),
    });
    const { limiter, queue } = this.options.engine;
    const limitChanged = limiter.limit !== policy.limit || this.limitBy !== policy.limitBy;
    // setLimit starts the rate's accounting over: only when it changed
    if (limiter.limit !== policy.limit) limiter.setLimit(policy.limit);
    this.limitBy = policy.limitBy;
    if (!sameQueueHold(this.hold, policy.hold)) {
      this.logHold(this.hold, policy.hold);
      this.hold = policy.hold;
      queue.setHold(policy.hold).catch((error: unknown) => {
        this.options.log?.error('Holding the upload queue failed.', error);
      });
    } else if (limitChanged) {
      this.options.onLimitChanged();
    }
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.schedule.dispose();
  }

  private logHold(before: QueueHold | null, now: QueueHold | null): void {
    const log = this.options.log;
    // a full disk is logged by the engine (storage/data-disk.ts), where it is found
    if (!log || now?.reason === 'dataDiskFull') return;
    if (now?.reason === 'battery') log.info('The computer runs on battery: uploads wait (Pause while on battery).');
    else if (now?.reason === 'metered') log.info('The connection is metered: uploads wait (On a metered connection).');
    else if (now?.reason === 'schedule') {
      log.info(
        now.until === null
          ? 'The upload schedule pauses uploads.'
          : `The upload schedule pauses uploads until ${new Date(now.until).toISOString()}.`,
      );
    } else if (before && before.reason !== 'dataDiskFull')
      log.info('Uploads go on: the schedule, the battery or a metered connection no longer holds them.');
  }
}
