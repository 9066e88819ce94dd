import {
  IPC_EVENTS,
  type IpcCommandName,
  type IpcEventName,
  type IpcEventPayload,
  type IpcRequest,
  type IpcResponse,
} from '../../src-shared/ipc/ipc-contract.js';
import type { AppBridge, ConnectionState } from './app-bridge.js';
import { requestKey, type EarlyRequest } from './early-requests.js';

/** A request sent before this bridge existed (by the page's first script), and its answer to come. */
export interface SentEarly {
  name: IpcCommandName;
  request: unknown;
  answer: Promise<unknown>;
}

/** An answer no view took by then is dropped (the start view was not shown, say): it may be stale. */
const EARLY_ANSWER_TTL_MS = 5_000;

/**
 * A bridge that sends `requests` the moment the connection opens (each time
 * it does) and hands each answer to the first view that invokes the same
 * command with the same request, instead of asking again: the start view's
 * data travels beside the shell's instead of after it.
 *
 * An answer is only handed out while nothing could have made it stale: an
 * event other than `uploads:progress` (whose batches carry whole states, the
 * next one replacing what a view missed) drops every answer not yet taken,
 * since the view that takes it subscribes to events only when it mounts. A
 * dropped connection drops them too, and so do 5 s without a taker. Each is
 * taken at most once; anything else goes straight to the bridge.
 *
 * `sentEarly` are requests already on their way over the connection that is
 * open now: on that first opening they are not sent again.
 */
export class EarlyAnswersBridge implements AppBridge {
  private readonly answers = new Map<string, Promise<unknown>>();
  /** the answers among them that have arrived, by the same key */
  private readonly arrived = new Map<string, unknown>();
  private expiry: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly bridge: AppBridge,
    private readonly requests: readonly EarlyRequest[],
    private sentEarly: readonly SentEarly[] = [],
  ) {
    bridge.onConnectionChange((state) => this.connectionChanged(state));
    for (const name of Object.keys(IPC_EVENTS) as IpcEventName[])
      if (name !== 'uploads:progress') bridge.on(name, () => this.forget());
    this.connectionChanged(bridge.connection());
  }

  get shell(): AppBridge['shell'] {
    return this.bridge.shell;
  }

  invoke<N extends IpcCommandName>(name: N, request: IpcRequest<N>): Promise<IpcResponse<N>> {
    const key = requestKey(name, request);
    const early = this.answers.get(key);
    if (!early) return this.bridge.invoke(name, request);
    this.answers.delete(key);
    this.arrived.delete(key);
    return early as Promise<IpcResponse<N>>;
  }

  takeArrived<N extends IpcCommandName>(name: N, request: IpcRequest<N>): { value: IpcResponse<N> } | undefined {
    const key = requestKey(name, request);
    if (!this.arrived.has(key)) return undefined;
    const value = this.arrived.get(key) as IpcResponse<N>;
    this.answers.delete(key);
    this.arrived.delete(key);
    return { value };
  }

  /**
   * Resolves once every early answer has arrived or failed, once the
   * connection is lost, or after `maxMs`, whichever comes first: the window
   * waits for it before its first render, which then shows the start view
   * with its data instead of a render per answer.
   */
  whenAnswered(maxMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop();
        resolve();
      };
      const timer = setTimeout(done, maxMs);
      // registered after the constructor's listener: by the time this one runs, the answers are asked for
      const stop = this.bridge.onConnectionChange((state) => (state === 'open' ? settle() : done()));
      const settle = () => void Promise.allSettled(this.answers.values()).then(done);
      if (this.bridge.connection() === 'open') settle();
    });
  }

  on<N extends IpcEventName>(name: N, listener: (payload: IpcEventPayload<N>) => void): () => void {
    return this.bridge.on(name, listener);
  }

  connection(): ConnectionState {
    return this.bridge.connection();
  }

  onConnectionChange(listener: (state: ConnectionState) => void): () => void {
    return this.bridge.onConnectionChange(listener);
  }

  pathForFile(file: File): string | null {
    return this.bridge.pathForFile(file);
  }

  private forget(): void {
    this.answers.clear();
    this.arrived.clear();
  }

  private connectionChanged(state: ConnectionState): void {
    this.forget();
    if (this.expiry) clearTimeout(this.expiry);
    const sentEarly = new Map(this.sentEarly.map((sent) => [requestKey(sent.name, sent.request), sent.answer]));
    // they were sent over the connection open when this bridge was made, and only answer on that one
    this.sentEarly = [];
    if (state !== 'open' || this.requests.length === 0) return;
    this.expiry = setTimeout(() => this.forget(), EARLY_ANSWER_TTL_MS);
    for (const { name, request } of this.requests) {
      const key = requestKey(name, request);
      const answer = sentEarly.get(key) ?? this.bridge.invoke(name, request);
      // a view that never takes it must not see an unhandled rejection; one that does gets the failure
      answer.then(
        (value) => {
          if (this.answers.get(key) === answer) this.arrived.set(key, value);
        },
        () => undefined,
      );
      this.answers.set(key, answer);
    }
  }
}
