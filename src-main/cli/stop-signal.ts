import { constants } from 'node:os';

export interface StopSignal {
  /** aborted by the first SIGINT or SIGTERM; its `reason` is the signal's name */
  signal: AbortSignal;
  /** stops listening: a later signal ends the process the default way */
  dispose(): void;
}

/**
 * SIGINT (Ctrl+C) and SIGTERM as an AbortSignal, so a running command stops
 * in order (docs/ARCHITECTURE.md, Processes and ownership: the queue keeps every acknowledged chunk, the
 * database is closed) instead of Node's default of ending on the spot. Only
 * the first signal is taken: a second Ctrl+C while stopping ends at once.
 */
export function listenForStop(): StopSignal {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    dispose();
    controller.abort(name);
  };
  const dispose = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { signal: controller.signal, dispose };
}

/** 128 + the signal's number, as a shell reports a command a signal ended: 130 for SIGINT, 143 for SIGTERM. */
export function signalExitCode(name: NodeJS.Signals): number {
  return 128 + (constants.signals[name] ?? 0);
}

/** Resolves when `signal` is aborted (at once if it already is). */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolveAbort) => signal.addEventListener('abort', () => resolveAbort(), { once: true }));
}
