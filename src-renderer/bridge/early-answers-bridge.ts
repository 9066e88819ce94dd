import {
  IPC_EVENTS,
  type IpcCommandName,
  type IpcEventName,
  type IpcEventPayload,
  type IpcRequest,
  type IpcResponse,
} from '../../src-shared/ipc/ipc-contract.js';
import { QUEUE_PAGE_SIZE } from '../model/queue-rows.js';
import type { ViewId } from '../model/routes.js';
import type { AppBridge, ConnectionState } from './app-bridge.js';

/** A command sent before any view asks for it. */
export interface EarlyRequest<N extends IpcCommandName = IpcCommandName> {
  name: N;
  request: IpcRequest<N>;
}

/**
 * What the window asks for first: the shell's accounts and update status,
 * and for the Queue (the view it opens on) its first page, the queue's status
 * and the rate limits. Without this the Queue's requests wait for
 * `account:list` to come back and the shell to render: a second round trip.
 * Only reads: `app:takeIntents`, which consumes what it answers, is never
 * sent early.
 */
export function earlyRequestsFor(view: ViewId): EarlyRequest[] {
  const shell: EarlyRequest[] = [
    { name: 'account:list', request: {} },
    { name: 'app:updateStatus', request: {} },
  ];
  if (view !== 'queue') return shell;
  return [
    ...shell,
    { name: 'uploads:list', request: { offset: 0, limit: QUEUE_PAGE_SIZE } },
    { name: 'uploads:status', request: {} },
    { name: 'app:rateLimits', request: {} },
  ];
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
 */
export class EarlyAnswersBridge implements AppBridge {
  private readonly answers = new Map<string, Promise<unknown>>();
  private expiry: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly bridge: AppBridge,
    private readonly requests: readonly EarlyRequest[],
  ) {
    bridge.onConnectionChange((state) => this.connectionChanged(state));
    for (const name of Object.keys(IPC_EVENTS) as IpcEventName[])
      if (name !== 'uploads:progress') bridge.on(name, () => this.answers.clear());
    this.connectionChanged(bridge.connection());
  }

  get shell(): AppBridge['shell'] {
    return this.bridge.shell;
  }

  invoke<N extends IpcCommandName>(name: N, request: IpcRequest<N>): Promise<IpcResponse<N>> {
    const key = keyOf(name, request);
    const early = this.answers.get(key);
    if (!early) return this.bridge.invoke(name, request);
    this.answers.delete(key);
    return early as Promise<IpcResponse<N>>;
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

  private connectionChanged(state: ConnectionState): void {
    this.answers.clear();
    if (this.expiry) clearTimeout(this.expiry);
    if (state !== 'open' || this.requests.length === 0) return;
    this.expiry = setTimeout(() => this.answers.clear(), EARLY_ANSWER_TTL_MS);
    for (const { name, request } of this.requests) {
      const answer = this.bridge.invoke(name, request);
      // a view that never takes it must not see an unhandled rejection; one that does gets the failure
      answer.catch(() => undefined);
      this.answers.set(keyOf(name, request), answer);
    }
  }
}

function keyOf(name: IpcCommandName, request: unknown): string {
  return `${name} ${JSON.stringify(request)}`;
}
