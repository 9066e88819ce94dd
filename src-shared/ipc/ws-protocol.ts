import { z } from 'zod';
import { IpcErrorSchema } from './ipc-contract.js';

/**
 * The ipc contract over a WebSocket (the headless shell): the page sends
 * invocations, the daemon answers each by id and pushes events. Both ends
 * parse every message with these schemas.
 */
export const WsInvokeSchema = z.object({
  id: z.int().min(0),
  name: z.string().min(1).max(100),
  request: z.unknown(),
});
export type WsInvoke = z.infer<typeof WsInvokeSchema>;

export const WsResultSchema = z.object({
  id: z.int().min(0).nullable(),
  result: z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value: z.unknown() }),
    z.object({ ok: z.literal(false), error: IpcErrorSchema }),
  ]),
});
export type WsResult = z.infer<typeof WsResultSchema>;

export const WsEventSchema = z.object({ event: z.string(), payload: z.unknown() });
export type WsEvent = z.infer<typeof WsEventSchema>;

/** Where the page opens its socket; the session key goes in the query. */
export const WS_PATH = '/ipc';
/**
 * Files dropped on the page in a browser, which cannot tell the daemon a
 * local path: `POST /drop?name=<file name>&account=<account id>` with the
 * file as the body; the answer is an IpcResult of the queued items.
 */
export const DROP_PATH = '/drop';
/** The query parameter and cookie that carry the session key. */
export const SESSION_KEY_PARAM = 'key';
export const SESSION_COOKIE = 'media_sync_session';
