import type {
  IpcCommandName,
  IpcError,
  IpcEventName,
  IpcEventPayload,
  IpcRequest,
  IpcResponse,
  IpcResult,
  MediaSyncBridge,
} from './ipc-contract.js';

/**
 * How contract commands travel between a client and the core: one request
 * out, its result back, and the core's events as they come. One transport
 * per way of reaching a core: Electron's preload, the daemon's WebSocket,
 * the owner socket of a data folder, or a core in the same process.
 */
export interface ContractTransport {
  send(name: IpcCommandName, request: unknown): Promise<IpcResult<unknown>>;
  /** every event of the core; returns the unsubscribe */
  onEvent(listener: (name: IpcEventName, payload: unknown) => void): () => void;
}

/** A command the core refused or could not run: its code, message, request id and catalog text. */
export class ContractError extends Error implements IpcError {
  readonly code: string;
  readonly requestId: string | null;
  /** the core's own sentence as a catalog message (said in the client's language); absent for a server's */
  readonly text?: IpcError['text'];
  /** the service's reasons per field of the request (`urls.2`), when it gave them */
  readonly fields?: IpcError['fields'];

  constructor(error: IpcError) {
    super(error.message);
    this.name = 'ContractError';
    this.code = error.code;
    this.requestId = error.requestId;
    if (error.text) this.text = error.text;
    if (error.fields) this.fields = error.fields;
  }

  /** The error as it crossed the boundary, for a view or a JSON line. */
  toIpcError(): IpcError {
    const { code, message, requestId, text, fields } = this;
    return { code, message, requestId, ...(text ? { text } : {}), ...(fields ? { fields } : {}) };
  }
}

/**
 * The contract, typed from ipc-contract.ts, over any transport: `invoke`
 * resolves with the command's answer or rejects with a ContractError; `on`
 * hears one event. Answers and events are not parsed again here: the core
 * parses what enters it and builds what it sends from the same schemas, so
 * its clients (the pages, the CLI, the tests) trust its typed answers.
 */
export function contractClient(transport: ContractTransport): MediaSyncBridge {
  return {
    async invoke<N extends IpcCommandName>(name: N, request: IpcRequest<N>): Promise<IpcResponse<N>> {
      const result = await transport.send(name, request);
      if (!result.ok) throw new ContractError(result.error);
      return result.value as IpcResponse<N>;
    },
    on<N extends IpcEventName>(name: N, listener: (payload: IpcEventPayload<N>) => void): () => void {
      return transport.onEvent((event, payload) => {
        if (event === name) listener(payload as IpcEventPayload<N>);
      });
    },
  };
}
