import { WsInvokeSchema, type WsResult } from '../../src-shared/ipc/ws-protocol.js';
import { parseJsonOrUndefined } from '../common/parse-json.js';
import type { AppCore } from './app-core.js';

/**
 * The answer to one message of the contract as text (the daemon's WebSocket,
 * the owner socket): `{id, result}` for an invocation, whatever the core
 * answered, or a VALIDATION_ERROR with id null for anything that is not one.
 * `text` is null for a frame that was not text at all (a binary WebSocket
 * frame), which is never read as a command, whatever it holds.
 */
export async function answerFrame(core: Pick<AppCore, 'handle'>, text: string | null): Promise<WsResult> {
  const invoke = text === null ? undefined : WsInvokeSchema.safeParse(parseJsonOrUndefined(text));
  if (invoke?.success) return { id: invoke.data.id, result: await core.handle(invoke.data.name, invoke.data.request) };
  const message =
    text === null
      ? 'Not a command: expected a JSON text frame, not binary.'
      : 'Not a command: expected {id, name, request}.';
  return { id: null, result: { ok: false, error: { code: 'VALIDATION_ERROR', message, requestId: null } } };
}
