import { useSyncExternalStore } from 'react';
import type {
  IpcCommandName,
  IpcError,
  IpcEventName,
  IpcEventPayload,
  IpcRequest,
  IpcResponse,
} from '../../src-shared/ipc/ipc-contract.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { toIpcError } from '../bridge/bridge-context.js';

/**
 * A state that lives as long as the page and that views read with
 * `useStore(store, selector)`. It is replaced, never changed in place, so a
 * selector's answer changes only when what it picks does.
 */
export class Store<S> {
  private readonly listeners = new Set<() => void>();

  constructor(private state: S) {}

  get(): S {
    return this.state;
  }

  /** Calls `listener` after each change; returns the unsubscribe. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  protected set(state: S): void {
    if (state === this.state) return;
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}

/** What a store picks out for a view; the view renders again when that changes (compared with `Object.is`). */
export function useStore<S, T = S>(store: Store<S>, select: (state: S) => T = (state) => state as unknown as T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.get()));
}

/** A read of the core as a view shows it: nothing yet, the data, or why it could not be read. */
export interface Read<T> {
  data: T | undefined;
  error: IpcError | null;
}

/**
 * One command's answer kept for the page's life: read at start and each time
 * the connection comes back (`load`), replaced by the answers of actions and
 * by the event that carries the same value (`put`).
 */
export class ReadStore<N extends IpcCommandName> extends Store<Read<IpcResponse<N>>> {
  /** bumped by `put`: an answer to a read sent before it is older than what was put */
  private generation = 0;

  constructor(
    private readonly bridge: AppBridge,
    private readonly name: N,
    private readonly request: IpcRequest<N>,
    event?: IpcEventName,
  ) {
    super({ data: undefined, error: null });
    if (event) bridge.on(event, (payload: IpcEventPayload<IpcEventName>) => this.put(payload as IpcResponse<N>));
  }

  load(): void {
    const generation = this.generation;
    this.bridge.invoke(this.name, this.request).then(
      (data) => generation === this.generation && this.set({ data, error: null }),
      (problem: unknown) => generation === this.generation && this.set({ ...this.get(), error: toIpcError(problem) }),
    );
  }

  put(data: IpcResponse<N>): void {
    this.generation++;
    this.set({ data, error: null });
  }
}
