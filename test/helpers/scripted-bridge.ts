import type { AppBridge, ConnectionState } from '../../src-renderer/bridge/app-bridge.js';
import { BROWSER_CAPABILITIES } from '../../src-renderer/bridge/ws-bridge.js';
import { contractClient } from '../../src-shared/ipc/contract-client.js';
import type { IpcCommandName, IpcEventName, IpcEventPayload, IpcResult } from '../../src-shared/ipc/ipc-contract.js';

/** A command the page sent, answered when the test says so. */
export interface SentCommand {
  name: IpcCommandName;
  request: unknown;
  answer(value: unknown): void;
  refuse(code: string, message: string): void;
}

/**
 * The renderer's bridge over a transport the test drives: it records each
 * command and holds it until answered (`answerAll`, or one by one), fires
 * the core's events, and opens and drops the connection.
 */
export class ScriptedBridge implements AppBridge {
  readonly capabilities = BROWSER_CAPABILITIES;
  readonly sent: SentCommand[] = [];
  readonly invoke: AppBridge['invoke'];
  readonly on: AppBridge['on'];
  private state: ConnectionState = 'connecting';
  private readonly eventListeners = new Set<(name: IpcEventName, payload: unknown) => void>();
  private readonly connectionListeners = new Set<(state: ConnectionState) => void>();

  constructor() {
    const client = contractClient({
      send: (name, request) =>
        new Promise<IpcResult<unknown>>((resolve) =>
          this.sent.push({
            name,
            request,
            answer: (value) => resolve({ ok: true, value }),
            refuse: (code, message) => resolve({ ok: false, error: { code, message, requestId: null } }),
          }),
        ),
      onEvent: (listener) => {
        this.eventListeners.add(listener);
        return () => this.eventListeners.delete(listener);
      },
    });
    this.invoke = client.invoke;
    this.on = client.on;
  }

  connection(): ConnectionState {
    return this.state;
  }

  onConnectionChange(listener: (state: ConnectionState) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  pathForFile(): string | null {
    return null;
  }

  setConnection(state: ConnectionState): void {
    this.state = state;
    for (const listener of this.connectionListeners) listener(state);
  }

  fire<N extends IpcEventName>(name: N, payload: IpcEventPayload<N>): void {
    for (const listener of this.eventListeners) listener(name, payload);
  }

  /** The commands sent and not answered yet, taken: the test answers them. */
  take(name?: IpcCommandName): SentCommand[] {
    const taken = this.sent.filter((command) => name === undefined || command.name === name);
    for (const command of taken) this.sent.splice(this.sent.indexOf(command), 1);
    return taken;
  }

  /** Answers every command sent so far with `answer(name, request)`, and lets the answers arrive. */
  async answerAll(answer: (name: IpcCommandName, request: unknown) => unknown): Promise<void> {
    for (const command of this.take()) command.answer(answer(command.name, command.request));
    await settle();
  }
}

/** Lets answers already given reach their listeners (promise callbacks). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
