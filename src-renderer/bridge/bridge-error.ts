import type { IpcError } from '../../src-shared/ipc/ipc-contract.js';
import type { Message } from '../../src-shared/i18n/message.js';

/** A command that failed, as the UI shows it: the message and, for support, the request id. */
export class BridgeError extends Error implements IpcError {
  readonly code: string;
  readonly requestId: string | null;
  /** the core's own sentence as a catalog message (shown in the UI's language), absent for a server's */
  readonly text?: Message;
  /** a refusal's reasons per field of the request, when the service named them */
  readonly fields?: IpcError['fields'];

  constructor(error: IpcError) {
    super(error.message);
    this.name = 'BridgeError';
    this.code = error.code;
    this.requestId = error.requestId;
    if (error.text) this.text = error.text;
    if (error.fields) this.fields = error.fields;
  }
}

/** Any thrown value as an IpcError, so views handle one shape. */
export function toIpcError(error: unknown): IpcError {
  if (error instanceof BridgeError) {
    const { code, message, requestId, text, fields } = error;
    return { code, message, requestId, ...(text ? { text } : {}), ...(fields ? { fields } : {}) };
  }
  return { code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error), requestId: null };
}
