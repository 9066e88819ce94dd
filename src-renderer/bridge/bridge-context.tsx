import type { AppErrorCode } from '../../src-shared/ipc/app-error-codes.js';
import { createContext, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { ContractError } from '../../src-shared/ipc/contract-client.js';
import type {
  IpcCommandName,
  IpcError,
  IpcEventName,
  IpcEventPayload,
  IpcRequest,
  IpcResponse,
} from '../../src-shared/ipc/ipc-contract.js';
import type { AppBridge, ConnectionState } from './app-bridge.js';
import { LatestRead } from './latest-read.js';

const BridgeContext = createContext<AppBridge | null>(null);
export const BridgeProvider = BridgeContext.Provider;

export function useBridge(): AppBridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge outside BridgeProvider');
  return bridge;
}

/** Any thrown value as an IpcError, so views handle one shape. */
export function toIpcError(error: unknown): IpcError {
  if (error instanceof ContractError) return error.toIpcError();
  return {
    code: 'INTERNAL_ERROR' satisfies AppErrorCode,
    message: error instanceof Error ? error.message : String(error),
    requestId: null,
  };
}

export function useConnection(): ConnectionState {
  const bridge = useBridge();
  return useSyncExternalStore(
    useCallback((listener: () => void) => bridge.onConnectionChange(listener), [bridge]),
    () => bridge.connection(),
  );
}

/** Calls `listener` for each event `name` while the component is mounted. */
export function useEvent<N extends IpcEventName>(name: N, listener: (payload: IpcEventPayload<N>) => void): void {
  const bridge = useBridge();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => bridge.on(name, (payload) => latest.current(payload)), [bridge, name]);
}

export interface Query<T> {
  data: T | undefined;
  error: IpcError | null;
  loading: boolean;
  reload(): void;
  /** replaces the data locally, e.g. from an event, until the next load */
  set(update: T | ((previous: T | undefined) => T)): void;
}

/**
 * A view's own read: runs a command now and whenever its request changes
 * (compared by value) or the connection comes back; `request: null` waits.
 * Only the latest read's answer is used, so fast typing in a search box
 * shows the last search. What views share is in the stores (store/).
 */
export function useQuery<N extends IpcCommandName>(name: N, request: IpcRequest<N> | null): Query<IpcResponse<N>> {
  const bridge = useBridge();
  const connection = useConnection();
  const key = request === null ? null : JSON.stringify(request);
  const [data, setData] = useState<IpcResponse<N> | undefined>(undefined);
  const [error, setError] = useState<IpcError | null>(null);
  const [loading, setLoading] = useState(key !== null);
  const [reloads, setReloads] = useState(0);
  const [latest] = useState(() => new LatestRead());

  useEffect(() => {
    if (key === null || connection !== 'open') return;
    const isLatest = latest.start();
    setLoading(true);
    bridge.invoke(name, JSON.parse(key) as IpcRequest<N>).then(
      (value) => {
        if (!isLatest()) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (problem: unknown) => {
        if (!isLatest()) return;
        setError(toIpcError(problem));
        setLoading(false);
      },
    );
    return () => latest.supersede();
  }, [bridge, name, key, connection, reloads, latest]);

  const reload = useCallback(() => setReloads((value) => value + 1), []);
  return { data, error, loading, reload, set: setData as Query<IpcResponse<N>>['set'] };
}

export interface Action {
  /** Runs `task`, a store's action: resolves to its answer, or to undefined with `error` set when it failed. */
  run<T>(task: () => Promise<T>): Promise<T | undefined>;
  busy: boolean;
  error: IpcError | null;
  clearError(): void;
}

/**
 * What a view keeps of the actions a person just asked for (a button, a
 * form): whether one is on its way, and the error to show beside it. The
 * store's action sends the command and keeps what it answers; the same hook
 * in every view.
 */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const run = useCallback(async <T,>(task: () => Promise<T>) => {
    setBusy(true);
    setError(null);
    try {
      return await task();
    } catch (problem) {
      setError(toIpcError(problem));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { run, busy, error, clearError: useCallback(() => setError(null), []) };
}
