import * as z from 'zod';
import type { QueuePause } from './queue-pause.js';

/** A queue pause where it is read back (the contract, the app's stored state). */
export const QueuePauseSchema: z.ZodType<QueuePause> = z.object({ until: z.number().nullable() });
