import type { QueueHold } from '../../src-shared/model/queue-hold.js';
import type { MeteredUploads } from '../../src-shared/model/settings.js';
import type { ScheduleState } from '../../src-shared/model/upload-schedule.js';

export interface UploadPolicyInput {
  /** the Bandwidth setting (bytes per second, null for none) */
  bandwidthBytesPerSecond: number | null;
  schedule: ScheduleState;
  pauseOnBattery: boolean;
  /** the computer runs on battery now */
  onBattery: boolean;
  /** the "On a metered connection" setting */
  meteredUploads: MeteredUploads;
  /** the connection is metered now */
  metered: boolean;
  /** Media Sync's own disk is full (since when, and the files that wait for room); null while it has room */
  dataDiskFull?: { since: number; waiting: number } | null;
}

/** Whose limit is in force: the Bandwidth setting, a schedule window's, or the metered connection's. */
export type LimitSource = 'setting' | 'schedule' | 'metered';

export interface UploadPolicy {
  /** what the bandwidth limiter applies */
  limit: number | null;
  limitBy: LimitSource;
  hold: QueueHold | null;
}

/**
 * What the settings, the schedule, the power source and the network's cost
 * ask of the queue, together:
 *
 * - limits: a schedule window's limit replaces the Bandwidth setting while
 *   it runs (as rclone's timetable replaces --bwlimit); outside every window
 *   the setting applies. A metered connection's limit comes on top: the
 *   lower of the two is in force.
 * - holds: a full disk of the app's own is named first (nothing can be
 *   saved until it has room, whatever else holds), then the battery, then
 *   the metered connection, then the schedule: these two have no end time a
 *   person could wait for, and they outlast any schedule edge the person sees.
 */
export function uploadPolicy(input: UploadPolicyInput): UploadPolicy {
  const effect = input.schedule.effect;
  const metered = input.metered ? input.meteredUploads : { kind: 'normal' as const };
  const hold: QueueHold | null = input.dataDiskFull
    ? { reason: 'dataDiskFull', since: input.dataDiskFull.since, waiting: input.dataDiskFull.waiting }
    : input.pauseOnBattery && input.onBattery
      ? { reason: 'battery' }
      : metered.kind === 'pause'
        ? { reason: 'metered' }
        : effect.kind === 'paused'
          ? { reason: 'schedule', until: input.schedule.until }
          : null;
  const base: Omit<UploadPolicy, 'hold'> =
    effect.kind === 'limit'
      ? { limit: effect.bytesPerSecond, limitBy: 'schedule' }
      : { limit: input.bandwidthBytesPerSecond, limitBy: 'setting' };
  if (metered.kind === 'limit' && (base.limit === null || metered.bytesPerSecond <= base.limit)) {
    return { limit: metered.bytesPerSecond, limitBy: 'metered', hold };
  }
  return { ...base, hold };
}
