import * as z from 'zod';

/**
 * Why the app itself holds the whole queue, apart from a person's own pause
 * (which it never sets or lifts): the upload schedule's pause window, the
 * computer running on battery with "Pause while on battery" on, a metered
 * connection with "On a metered connection: pause uploads", or Media Sync's
 * own disk (its data folder's) too full to write its database. A person's
 * pause and a hold are kept apart, so the schedule releasing never resumes a
 * queue the person paused, and resuming never overrides the schedule.
 */
export const QueueHoldSchema = z.discriminatedUnion('reason', [
  /** `until`: when the pause window ends (epoch ms), null when it never does */
  z.object({ reason: z.literal('schedule'), until: z.number().nullable() }),
  z.object({ reason: z.literal('battery') }),
  z.object({ reason: z.literal('metered') }),
  /**
   * the database or the log could not be written for lack of room, `since`
   * then (epoch ms); `waiting`: the files that wait for room, the queue's
   * unfinished ones and the new ones seen since (docs/uploads.md, A full disk)
   */
  z.object({ reason: z.literal('dataDiskFull'), since: z.number(), waiting: z.int().min(0) }),
]);
export type QueueHold = z.infer<typeof QueueHoldSchema>;

/** Why the app holds the queue: the one list, read from the schema (a folder's state says which hold it is). */
export const QUEUE_HOLD_REASONS = QueueHoldSchema.options.map((option) => option.shape.reason.value);

export function sameQueueHold(a: QueueHold | null, b: QueueHold | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.reason !== b.reason) return false;
  if (a.reason === 'schedule') return a.until === (b as typeof a).until;
  if (a.reason === 'dataDiskFull') return a.since === (b as typeof a).since && a.waiting === (b as typeof a).waiting;
  return true;
}
