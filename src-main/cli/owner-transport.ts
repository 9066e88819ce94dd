import type { AppErrorCode } from '../../src-shared/ipc/app-error-codes.js';
import { connect, type Socket } from 'node:net';
import type { ContractTransport } from '../../src-shared/ipc/contract-client.js';
import type { IpcCommandName, IpcError, IpcEventName, IpcResult } from '../../src-shared/ipc/ipc-contract.js';
import { parseJsonOrUndefined } from '../common/parse-json.js';
import { lineReader, ownerSocketPath } from '../core/owner-socket-path.js';

/** The answer to every command still waiting, and to any sent later, once the owner is gone. */
const OWNER_GONE: IpcError = {
  code: 'OWNER_GONE' satisfies AppErrorCode,
  message: 'The Media Sync that owns the data folder closed the connection (it stopped or was stopped).',
  requestId: null,
};

/**
 * The contract over the owner socket of a data folder (core/owner-socket.ts):
 * how the CLI reaches the desktop app, `media-sync serve` or another command
 * that holds the folder. One JSON message per line: `{id, name, request}` out,
 * `{id, result}` and `{event, payload}` back. The owner's core parsed what it
 * answers and built it from the contract's schemas, and the socket is this
 * user's alone (0600), so answers are taken as they come: this transport
 * checks only the shape of a frame, and loads no schema.
 */
export class OwnerSocketTransport implements ContractTransport {
  private readonly pending = new Map<number, (result: IpcResult<unknown>) => void>();
  private readonly listeners = new Set<(name: IpcEventName, payload: unknown) => void>();
  private nextId = 1;
  private gone = false;
  private readonly goneListeners = new Set<() => void>();

  private constructor(private readonly socket: Socket) {
    socket.on(
      'data',
      lineReader(
        (text) => this.receive(text),
        () => socket.destroy(),
      ),
    );
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.lose());
  }

  /** Connects to the owner of `dataDir`; null when nothing listens there (no owner, or one without a socket). */
  static connect(dataDir: string): Promise<OwnerSocketTransport | null> {
    return new Promise((resolve) => {
      const socket = connect(ownerSocketPath(dataDir));
      socket.once('connect', () => resolve(new OwnerSocketTransport(socket)));
      socket.once('error', () => resolve(null));
    });
  }

  send(name: IpcCommandName, request: unknown): Promise<IpcResult<unknown>> {
    if (this.gone) return Promise.resolve({ ok: false, error: OWNER_GONE });
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.write(`${JSON.stringify({ id, name, request })}\n`);
    });
  }

  onEvent(listener: (name: IpcEventName, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once if the owner goes away (at once if it has): a command following its events stops waiting. */
  onGone(listener: () => void): () => void {
    if (this.gone) listener();
    else this.goneListeners.add(listener);
    return () => this.goneListeners.delete(listener);
  }

  close(): void {
    this.listeners.clear();
    this.goneListeners.clear();
    this.socket.destroy();
  }

  private lose(): void {
    if (this.gone) return;
    this.gone = true;
    for (const resolve of this.pending.values()) resolve({ ok: false, error: OWNER_GONE });
    this.pending.clear();
    for (const listener of [...this.goneListeners]) listener();
  }

  private receive(text: string): void {
    const message = parseJsonOrUndefined(text);
    if (typeof message !== 'object' || message === null) return;
    const frame = message as { id?: unknown; result?: IpcResult<unknown>; event?: unknown; payload?: unknown };
    if (typeof frame.id === 'number' && typeof frame.result === 'object' && frame.result !== null) {
      const resolve = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      resolve?.(frame.result);
    } else if (typeof frame.event === 'string') {
      for (const listener of [...this.listeners]) listener(frame.event as IpcEventName, frame.payload);
    }
  }
}
