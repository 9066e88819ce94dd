import {
  IPC_COMMANDS,
  IPC_EVENTS,
  type IpcCommandName,
  type IpcEventName,
  type IpcEventPayload,
  type IpcRequest,
  type IpcResponse,
} from '../../src-shared/ipc/ipc-contract.js';
import { WsEventSchema, WsResultSchema } from '../../src-shared/ipc/ws-protocol.js';
import { BridgeError } from './bridge-error.js';
import type { AppBridge, ConnectionState } from './app-bridge.js';
import type { EarlyConnection, SocketLike } from './early-connection.js';
import type { SentEarly } from './early-answers-bridge.js';
import { askSession, type SessionAnswer } from './session-check.js';

interface Pending {
  name: IpcCommandName;
  resolve: (value: unknown) => void;
  reject: (error: BridgeError) => void;
}

/** Then every 5 s for as long as the page is open: a restart of the daemon takes a few seconds. */
const RECONNECT_DELAYS_MS = [250, 500, 1_000, 2_000, 5_000];
const OPEN = 1;

/**
 * The contract over the headless daemon's WebSocket. The session cookie set
 * when the page was opened authorises the socket. Answers and events are
 * parsed with the contract's schemas; a dropped socket fails the commands in
 * flight (the UI says so) and reconnects with backoff, and the UI reloads
 * what it shows once the connection is back. A socket that does not open
 * asks the daemon whether the page's cookie still opens it (askSession): if
 * not, the key was made anew, and the state is `refused` until it does.
 *
 * Given the page's early connection, it takes that socket over instead of
 * opening one: what the first script sent is answered like any invocation
 * (`takeSentEarly`), and what arrived meanwhile is read as if it came now.
 */
export class WsBridge implements AppBridge {
  readonly shell = 'headless';
  private socket: SocketLike | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly connectionListeners = new Set<(state: ConnectionState) => void>();
  private state: ConnectionState = 'connecting';
  private failures = 0;
  private disposed = false;
  private sentEarly: SentEarly[] = [];

  constructor(
    private readonly url: string,
    private readonly createSocket: (url: string) => SocketLike = (url) => new WebSocket(url),
    early: EarlyConnection | null = null,
    private readonly checkSession: () => Promise<SessionAnswer> = () => askSession(url),
  ) {
    if (early && early.socket.readyState <= OPEN) this.adopt(early);
    else this.connect();
  }

  /** The early connection's requests with their answers to come, once. */
  takeSentEarly(): SentEarly[] {
    const sent = this.sentEarly;
    this.sentEarly = [];
    return sent;
  }

  connection(): ConnectionState {
    return this.state;
  }

  onConnectionChange(listener: (state: ConnectionState) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  invoke<N extends IpcCommandName>(name: N, request: IpcRequest<N>): Promise<IpcResponse<N>> {
    const socket = this.socket;
    if (!socket || this.state !== 'open') {
      return Promise.reject(
        new BridgeError({
          code: 'DISCONNECTED',
          message: 'Not connected to Media Sync. Reconnecting…',
          requestId: null,
        }),
      );
    }
    const id = this.nextId++;
    return new Promise<IpcResponse<N>>((resolve, reject) => {
      this.pending.set(id, { name, resolve: resolve as (value: unknown) => void, reject });
      socket.send(JSON.stringify({ id, name, request }));
    });
  }

  on<N extends IpcEventName>(name: N, listener: (payload: IpcEventPayload<N>) => void): () => void {
    const set = this.listeners.get(name) ?? new Set();
    this.listeners.set(name, set);
    const untyped = listener as (payload: unknown) => void;
    set.add(untyped);
    return () => set.delete(untyped);
  }

  pathForFile(): string | null {
    // a browser never reveals where a dropped file lives
    return null;
  }

  dispose(): void {
    this.disposed = true;
    this.socket?.close();
  }

  private connect(): void {
    this.attach(this.createSocket(this.url));
  }

  private adopt(early: EarlyConnection): void {
    this.attach(early.socket);
    for (const { id, name, request } of early.sent) {
      const answer = new Promise((resolve, reject) => this.pending.set(id, { name, resolve, reject }));
      this.sentEarly.push({ name, request, answer });
    }
    this.nextId = early.sent.length + 1;
    // no listener yet: whoever wraps this bridge reads the state when it subscribes
    if (early.socket.readyState === OPEN) this.state = 'open';
    // read once the caller has subscribed (the same task), so that what came before counts like what comes after
    queueMicrotask(() => {
      for (const text of early.received.splice(0)) this.receive(text);
    });
  }

  private attach(socket: SocketLike): void {
    this.socket = socket;
    let opened = socket.readyState === OPEN;
    socket.onopen = () => {
      opened = true;
      this.failures = 0;
      this.setState('open');
    };
    socket.onmessage = (event) => this.receive(String(event.data));
    socket.onclose = () => {
      this.socket = null;
      for (const [id, pending] of this.pending) {
        this.pending.delete(id);
        pending.reject(
          new BridgeError({
            code: 'DISCONNECTED',
            message: 'The connection to Media Sync dropped before it answered.',
            requestId: null,
          }),
        );
      }
      if (this.disposed) return;
      // a refused page stays refused while it tries again, rather than blink back to "Reconnecting…"
      if (this.state !== 'refused') this.setState('closed');
      const delay = RECONNECT_DELAYS_MS[Math.min(this.failures++, RECONNECT_DELAYS_MS.length - 1)]!;
      setTimeout(() => this.connect(), delay);
      if (!opened) void this.checkSession().then((answer) => this.sessionAnswered(answer));
    };
  }

  private sessionAnswered(answer: SessionAnswer): void {
    if (this.disposed || this.state === 'open') return;
    this.setState(answer === 'refused' ? 'refused' : 'closed');
  }

  private receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    const event = WsEventSchema.safeParse(message);
    if (event.success) {
      const schema = IPC_EVENTS[event.data.event as IpcEventName];
      const payload = schema?.safeParse(event.data.payload);
      if (!payload?.success) return;
      for (const listener of this.listeners.get(event.data.event) ?? []) listener(payload.data);
      return;
    }
    const result = WsResultSchema.safeParse(message);
    if (!result.success || result.data.id === null) return;
    const pending = this.pending.get(result.data.id);
    if (!pending) return;
    this.pending.delete(result.data.id);
    if (!result.data.result.ok) return pending.reject(new BridgeError(result.data.result.error));
    const value = IPC_COMMANDS[pending.name].response.safeParse(result.data.result.value);
    if (value.success) pending.resolve(value.data);
    else
      pending.reject(
        new BridgeError({ code: 'BAD_RESPONSE', message: `Media Sync sent an unexpected answer.`, requestId: null }),
      );
  }

  private setState(state: ConnectionState): void {
    if (state === this.state) return;
    this.state = state;
    for (const listener of this.connectionListeners) listener(state);
  }
}
