import { useSyncExternalStore } from 'react';
import type {
  IpcCommandName,
  IpcError,
  IpcEventName,
  IpcRequest,
  IpcResponse,
} from '../../src-shared/ipc/ipc-contract.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { toIpcError } from '../bridge/bridge-context.js';
import { LatestRead } from '../bridge/latest-read.js';
import { Disposables } from './disposables.js';

/**
 * A state that lives as long as the page and that views read with
 * `useStore(store, selector)`. It is replaced, never changed in place, so a
 * selector's answer changes only when what it picks does. What keeps it
 * (the core's events) is registered as it is made and released by `dispose`.
 */
export class Store<S> {
  private readonly listeners = new Set<() => void>();
  private readonly registered = new Disposables();

  constructor(private state: S) {}

  get(): S {
    return this.state;
  }

  /** Calls `listener` after each change; returns the unsubscribe. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Stops what keeps the store: once disposed it changes no more by itself. */
  dispose(): void {
    this.registered.dispose();
  }

  protected set(state: S): void {
    if (state === this.state) return;
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  /** `release` (an event's unsubscribe, a timer's clear) runs at `dispose`. */
  protected register(release: () => unknown): void {
    this.registered.add(release);
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
 * the connection comes back (`load`), replaced by the event that carries the
 * same value and by the answers of the store's actions (`put`).
 */
export class ReadStore<N extends IpcCommandName> extends Store<Read<IpcResponse<N>>> {
  /** an answer to a read sent before a `put` is older than what was put */
  private readonly latest = new LatestRead();

  constructor(
    protected readonly bridge: AppBridge,
    private readonly name: N,
    private readonly request: IpcRequest<N>,
    event?: IpcEventName,
  ) {
    super({ data: undefined, error: null });
    if (event) this.register(bridge.on(event, (payload) => this.put(payload as IpcResponse<N>)));
  }

  load(): void {
    const isLatest = this.latest.start();
    this.bridge.invoke(this.name, this.request).then(
      (data) => isLatest() && this.set({ data, error: null }),
      (problem: unknown) => isLatest() && this.set({ ...this.get(), error: toIpcError(problem) }),
    );
  }

  /** The whole value as the core sent it; returns it, for an action to answer with. */
  protected put(data: IpcResponse<N>): IpcResponse<N> {
    this.latest.supersede();
    this.set({ data, error: null });
    return data;
  }
}
