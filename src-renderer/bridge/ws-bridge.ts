import { contractClient, type ContractTransport } from '../../src-shared/ipc/contract-client.js';
import type { IpcCommandName, IpcEventName, IpcResult, MediaSyncBridge } from '../../src-shared/ipc/ipc-contract.js';
import { sessionProtocols, WS_PATH, WS_PROTOCOL } from '../../src-shared/ipc/ws-paths.js';
import type { WsEvent, WsResult } from '../../src-shared/ipc/ws-protocol.js';
import type { AppBridge, BridgeCapabilities, ConnectionState } from './app-bridge.js';
import { askSession, type SessionAnswer } from './session-check.js';
import { pageSessionKey, type SessionKeyStore } from './session-key.js';

/** What the bridge needs of a WebSocket (tests script one). */
export type SocketLike = Pick<WebSocket, 'send' | 'close'> & {
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
};

/** Then every 5 s for as long as the page is open: a restart of the daemon takes a few seconds. */
const RECONNECT_DELAYS_MS = [250, 500, 1_000, 2_000, 5_000];

/** The daemon's socket address for a page served by it. */
export function wsUrlFor(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WS_PATH}`;
}

/** A page in a browser does what the page itself can: the daemon's desktop, if it has one, is not the person's. */
export const BROWSER_CAPABILITIES: BridgeCapabilities = {
  canReveal: false,
  canPickFolder: false,
  canOpenInBrowser: false,
  canCopyLinks: false,
  canNotify: false,
  canLaunchAtLogin: false,
  canUpdateItself: false,
};

function disconnected(message: string): IpcResult<never> {
  return { ok: false, error: { code: 'DISCONNECTED', message, requestId: null } };
}

/**
 * The contract over the headless daemon's WebSocket. The session key the
 * page keeps (session-key.ts) opens the socket: it is offered as a
 * subprotocol, read anew at each try, so a key another tab stored lets this
 * one in too. Answers are matched to
 * their command by id and taken as the core sent them (it checked them); a
 * dropped socket fails the commands in flight (the UI says so) and
 * reconnects with backoff, and the stores load again once it is back. A
 * socket that does not open asks the daemon whether the page's key still
 * opens it (askSession): if not, the key was made anew (or the page has
 * none), and the state is `refused` until it does.
 */
export class WsBridge implements AppBridge, ContractTransport {
  readonly capabilities = BROWSER_CAPABILITIES;
  readonly invoke: MediaSyncBridge['invoke'];
  readonly on: MediaSyncBridge['on'];
  private socket: SocketLike | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (result: IpcResult<unknown>) => void>();
  private readonly eventListeners = new Set<(name: IpcEventName, payload: unknown) => void>();
  private readonly connectionListeners = new Set<(state: ConnectionState) => void>();
  private state: ConnectionState = 'connecting';
  private failures = 0;
  private disposed = false;
  private readonly checkSession: () => Promise<SessionAnswer>;

  constructor(
    private readonly url: string,
    private readonly createSocket: (url: string, protocols: string[]) => SocketLike = (url, protocols) =>
      new WebSocket(url, protocols),
    checkSession?: () => Promise<SessionAnswer>,
    private readonly key: SessionKeyStore = pageSessionKey,
  ) {
    this.checkSession = checkSession ?? (() => askSession(url, key));
    const client = contractClient(this);
    this.invoke = client.invoke;
    this.on = client.on;
    this.connect();
  }

  connection(): ConnectionState {
    return this.state;
  }

  onConnectionChange(listener: (state: ConnectionState) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  send(name: IpcCommandName, request: unknown): Promise<IpcResult<unknown>> {
    const socket = this.socket;
    if (!socket || this.state !== 'open') {
      return Promise.resolve(disconnected('Not connected to Media Sync. Reconnecting…'));
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      socket.send(JSON.stringify({ id, name, request }));
    });
  }

  onEvent(listener: (name: IpcEventName, payload: unknown) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
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
    const key = this.key.get();
    // without a key the daemon refuses the socket, and the page says to open the printed address
    const socket = this.createSocket(this.url, key ? sessionProtocols(key) : [WS_PROTOCOL]);
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.failures = 0;
      this.setState('open');
    };
    socket.onmessage = (event) => this.receive(String(event.data));
    socket.onclose = () => {
      this.socket = null;
      for (const [id, answer] of this.pending) {
        this.pending.delete(id);
        answer(disconnected('The connection to Media Sync dropped before it answered.'));
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

  /** A frame of the daemon's: an event, or the result of a command by its id. */
  private receive(text: string): void {
    const message = JSON.parse(text) as WsEvent | WsResult;
    if ('event' in message) {
      for (const listener of this.eventListeners) listener(message.event as IpcEventName, message.payload);
      return;
    }
    if (message.id === null) return;
    const answer = this.pending.get(message.id);
    this.pending.delete(message.id);
    answer?.(message.result);
  }

  private setState(state: ConnectionState): void {
    if (state === this.state) return;
    this.state = state;
    for (const listener of this.connectionListeners) listener(state);
  }
}
