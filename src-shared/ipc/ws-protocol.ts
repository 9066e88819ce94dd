import * as z from 'zod';
import { IpcErrorSchema } from './ipc-contract.js';

/**
 * The ipc contract over a WebSocket (the headless shell): the page sends
 * invocations, the daemon answers each by id and pushes events. The daemon
 * parses what it receives with these schemas; the page takes the daemon's
 * frames as typed (the core is the trust boundary), tools and tests may
 * parse them.
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

export {
  DROP_PATH,
  SESSION_HEADER,
  SESSION_KEY_PARAM,
  SESSION_PATH,
  SESSION_PROTOCOL_PREFIX,
  WS_PATH,
  WS_PROTOCOL,
  sessionProtocols,
} from './ws-paths.js';
