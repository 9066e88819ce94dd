import type { QueueHold } from '../../src-shared/model/queue-hold.js';
import type { ScheduleState } from '../../src-shared/model/upload-schedule.js';

export interface UploadPolicyInput {
  /** the Bandwidth setting (bytes per second, null for none) */
  bandwidthBytesPerSecond: number | null;
  schedule: ScheduleState;
  pauseOnBattery: boolean;
  /** the computer runs on battery now */
  onBattery: boolean;
}

export interface UploadPolicy {
  /** what the bandwidth limiter applies */
  limit: number | null;
  /** true when the limit is a schedule window's, not the Bandwidth setting */
  limitBySchedule: boolean;
  hold: QueueHold | null;
}

/**
 * What the settings, the schedule and the power source ask of the queue,
 * together. A schedule window's limit replaces the Bandwidth setting while it
 * runs (as rclone's timetable replaces --bwlimit); outside every window the
 * setting applies. Of two holds the battery is named: it has no end time a
 * person could wait for, and it outlasts any schedule edge the person sees.
 */
export function uploadPolicy(input: UploadPolicyInput): UploadPolicy {
  const effect = input.schedule.effect;
  const hold: QueueHold | null =
    input.pauseOnBattery && input.onBattery
      ? { reason: 'battery' }
      : effect.kind === 'paused'
        ? { reason: 'schedule', until: input.schedule.until }
        : null;
  if (effect.kind === 'limit') return { limit: effect.bytesPerSecond, limitBySchedule: true, hold };
  return { limit: input.bandwidthBytesPerSecond, limitBySchedule: false, hold };
}
