import { z } from 'zod';

/**
 * Why the app itself holds the whole queue, apart from a person's own pause
 * (which it never sets or lifts): the upload schedule's pause window, the
 * computer running on battery with "Pause while on battery" on, or a metered
 * connection with "On a metered connection: pause uploads". A person's
 * pause and a hold are kept apart, so the schedule releasing never resumes a
 * queue the person paused, and resuming never overrides the schedule.
 */
export const QueueHoldSchema = z.discriminatedUnion('reason', [
  /** `until`: when the pause window ends (epoch ms), null when it never does */
  z.object({ reason: z.literal('schedule'), until: z.number().nullable() }),
  z.object({ reason: z.literal('battery') }),
  z.object({ reason: z.literal('metered') }),
]);
export type QueueHold = z.infer<typeof QueueHoldSchema>;

export function sameQueueHold(a: QueueHold | null, b: QueueHold | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.reason !== b.reason) return false;
  return a.reason !== 'schedule' || a.until === (b as { until: number | null }).until;
}
