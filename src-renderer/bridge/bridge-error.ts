import type { IpcError } from '../../src-shared/ipc/ipc-contract.js';

/** A command that failed, as the UI shows it: the message and, for support, the request id. */
export class BridgeError extends Error implements IpcError {
  readonly code: string;
  readonly requestId: string | null;

  constructor(error: IpcError) {
    super(error.message);
    this.name = 'BridgeError';
    this.code = error.code;
    this.requestId = error.requestId;
  }
}

/** Any thrown value as an IpcError, so views handle one shape. */
export function toIpcError(error: unknown): IpcError {
  if (error instanceof BridgeError) return { code: error.code, message: error.message, requestId: error.requestId };
  return { code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error), requestId: null };
}
