import { connect, type Socket } from 'node:net';
import type { IpcError } from '../../src-shared/ipc/ipc-contract.js';
import { WsEventSchema, WsResultSchema } from '../../src-shared/ipc/ws-protocol.js';
import { Emitter } from '../common/disposable.js';
import { parseJsonOrUndefined } from '../common/parse-json.js';
import { lineReader, ownerSocketPath } from '../core/owner-socket.js';

/** A refusal of the owner, with its code (NOT_FOUND, VALIDATION_ERROR, …) and the service's request id. */
export class OwnerError extends Error {
  constructor(readonly error: IpcError) {
    super(error.requestId ? `${error.message} (request id ${error.requestId})` : error.message);
    this.name = 'OwnerError';
  }
}

/**
 * The CLI's line to the process that owns the data folder (owner-socket.ts):
 * `invoke` sends a contract command and resolves with its value or rejects
 * with the owner's error; `onEvent` hears every event of the owner's core.
 */
export class OwnerClient {
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly events = new Emitter<{ name: string; payload: unknown }>();
  private nextId = 1;
  readonly onEvent = this.events.event;

  private constructor(private readonly socket: Socket) {
    socket.on(
      'data',
      lineReader(
        (text) => this.receive(text),
        () => socket.destroy(new Error('The app sent a line longer than the contract allows.')),
      ),
    );
    const fail = (error?: Error) => {
      for (const { reject } of this.pending.values()) {
        reject(error ?? new Error('The Media Sync that owns the data folder closed the connection.'));
      }
      this.pending.clear();
    };
    socket.on('error', fail);
    socket.on('close', () => fail());
  }

  /** Connects to the owner of `dataDir`; null when nothing listens there (no owner, or one without a socket). */
  static connect(dataDir: string): Promise<OwnerClient | null> {
    return new Promise((resolve) => {
      const socket = connect(ownerSocketPath(dataDir));
      socket.once('connect', () => resolve(new OwnerClient(socket)));
      socket.once('error', () => resolve(null));
    });
  }

  invoke<T = unknown>(name: string, request: unknown = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.socket.write(`${JSON.stringify({ id, name, request })}\n`);
    });
  }

  close(): void {
    this.events.dispose();
    this.socket.destroy();
  }

  private receive(text: string): void {
    const message = parseJsonOrUndefined(text);
    const result = WsResultSchema.safeParse(message);
    if (result.success) {
      const waiting = result.data.id === null ? undefined : this.pending.get(result.data.id);
      if (!waiting) return;
      this.pending.delete(result.data.id!);
      if (result.data.result.ok) waiting.resolve(result.data.result.value);
      else waiting.reject(new OwnerError(result.data.result.error));
      return;
    }
    const event = WsEventSchema.safeParse(message);
    if (event.success) this.events.fire({ name: event.data.event, payload: event.data.payload });
  }
}
