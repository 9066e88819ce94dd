import * as z from 'zod';

/**
 * What the app does once the queue is done (docs/uploads.md, "When the queue
 * is done"): put the computer to sleep, shut it down, or quit Media Sync.
 * Chosen for this run of the queue only: the choice is cleared once used.
 */
export const WHEN_DONE_ACTIONS = ['sleep', 'shutdown', 'quit'] as const;
export const WhenDoneActionSchema = z.enum(WHEN_DONE_ACTIONS);
export type WhenDoneAction = z.infer<typeof WhenDoneActionSchema>;

/** "When done" as the UI and the tray show it: the action chosen, and the countdown once the queue is done. */
export const WhenDoneViewSchema = z.object({
  action: WhenDoneActionSchema,
  /** epoch ms the action runs at; null while the queue still has work */
  countdownEndsAt: z.number().nullable(),
});
export type WhenDoneView = z.infer<typeof WhenDoneViewSchema>;
