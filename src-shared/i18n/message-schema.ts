import * as z from 'zod';
import { isMessageKey, type MessageKey } from './message.js';

/** A message crossing the ipc contract: its key must be one of the catalogs'. */
const MessageKeySchema = z.custom<MessageKey>(
  (value) => typeof value === 'string' && isMessageKey(value),
  'Not a message key.',
);
const InnerMessageSchema = z.object({
  key: MessageKeySchema,
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export const MessageSchema = z.object({
  key: MessageKeySchema,
  values: z.record(z.string(), z.union([z.string(), z.number(), InnerMessageSchema])).optional(),
});
