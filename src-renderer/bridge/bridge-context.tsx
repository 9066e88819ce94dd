import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type {
  IpcCommandName,
  IpcError,
  IpcEventName,
  IpcEventPayload,
  IpcRequest,
  IpcResponse,
} from '../../src-shared/ipc/ipc-contract.js';
import type { AppBridge, ConnectionState } from './app-bridge.js';
import { toIpcError } from './bridge-error.js';

const BridgeContext = createContext<AppBridge | null>(null);

export function BridgeProvider({ bridge, children }: { bridge: AppBridge; children: ReactNode }) {
  return <BridgeContext.Provider value={bridge}>{children}</BridgeContext.Provider>;
}

export function useBridge(): AppBridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge outside BridgeProvider');
  return bridge;
}

export function useConnection(): ConnectionState {
  const bridge = useBridge();
  const [state, setState] = useState(bridge.connection());
  useEffect(() => {
    const unsubscribe = bridge.onConnectionChange(setState);
    // the socket may have opened between the first render and this effect
    setState(bridge.connection());
    return unsubscribe;
  }, [bridge]);
  return state;
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
 * Runs a command now and whenever its request changes (compared by value) or
 * the connection comes back; `request: null` waits. An answer that already
 * arrived (AppBridge.takeArrived) is the first render's data. Answers to an older
 * request are dropped, so fast typing in a search box shows the last search.
 */
export function useQuery<N extends IpcCommandName>(name: N, request: IpcRequest<N> | null): Query<IpcResponse<N>> {
  const bridge = useBridge();
  const connection = useConnection();
  const key = request === null ? null : JSON.stringify(request);
  const [arrived] = useState(() => (request === null ? undefined : bridge.takeArrived?.(name, request)));
  const [data, setData] = useState<IpcResponse<N> | undefined>(arrived?.value);
  const [error, setError] = useState<IpcError | null>(null);
  const [loading, setLoading] = useState(key !== null && !arrived);
  const [generation, setGeneration] = useState(0);
  // the first load came with the first render
  const loaded = useRef(arrived !== undefined);

  useEffect(() => {
    if (key === null || connection !== 'open') return;
    if (loaded.current) {
      loaded.current = false;
      return;
    }
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
