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
 * Answers to an older request are dropped, so fast typing in a search box
 * shows the last search. What views share is in the stores (store/).
 */
export function useQuery<N extends IpcCommandName>(name: N, request: IpcRequest<N> | null): Query<IpcResponse<N>> {
  const bridge = useBridge();
  const connection = useConnection();
  const key = request === null ? null : JSON.stringify(request);
  const [data, setData] = useState<IpcResponse<N> | undefined>(undefined);
  const [error, setError] = useState<IpcError | null>(null);
  const [loading, setLoading] = useState(key !== null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (key === null || connection !== 'open') return;
    let current = true;
    setLoading(true);
    bridge.invoke(name, JSON.parse(key) as IpcRequest<N>).then(
      (value) => {
        if (!current) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (problem: unknown) => {
        if (!current) return;
        setError(toIpcError(problem));
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [bridge, name, key, connection, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data, error, loading, reload, set: setData as Query<IpcResponse<N>>['set'] };
}

export interface Action {
  run<N extends IpcCommandName>(name: N, request: IpcRequest<N>): Promise<IpcResponse<N> | undefined>;
  busy: boolean;
  error: IpcError | null;
  clearError(): void;
}

/**
 * For buttons and forms: runs a command, remembers its error for display
 * (resolving to undefined rather than throwing), and says when it is busy.
 */
export function useAction(): Action {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const run = useCallback(
    async <N extends IpcCommandName>(name: N, request: IpcRequest<N>) => {
      setBusy(true);
      setError(null);
      try {
        return await bridge.invoke(name, request);
      } catch (problem) {
        setError(toIpcError(problem));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [bridge],
  );
  return { run, busy, error, clearError: useCallback(() => setError(null), []) };
}
