import { systemClock, type Clock } from './clock.js';
import type { Disposable } from './disposable.js';
import type { Log } from './file-log.js';

/**
 * The phases of a stop, in order. The joins of one phase run together, and
 * the next phase begins once every one of them settled:
 *
 * - `intake`: nothing new comes in. The owner socket, the daemon's HTTP and
 *   WebSocket, the window's ipc handlers, timers, OS watchers, update checks.
 * - `core`: AppCore lets go of the engine (merged notifications shown, the
 *   schedule and import polls stopped). After the transports, so no request
 *   reaches a core that is gone.
 * - `engine`: the queue stops (items in flight back in line with their
 *   acknowledged chunks kept), the watchers close, then SQLite.
 * - `servers`: what the engine talked to until its end, the local demo
 *   server: after the engine, so none of its requests is cut off.
 * - `release`: last, what outlives everything: the data folder's lock (the
 *   database and the demo server's files are in that folder), the tray icon.
 */
export const SHUTDOWN_PHASES = ['intake', 'core', 'engine', 'servers', 'release'] as const;
export type ShutdownPhase = (typeof SHUTDOWN_PHASES)[number];

/** What a service gets when its phase begins (VS Code's `ShutdownEvent`). */
export interface WillShutdownEvent {
  readonly phase: ShutdownPhase;
  /** The phase waits for `promise` before the next one begins; a rejection is logged as "Stopping `what` failed." */
  join(promise: Promise<unknown>, what: string): void;
}

export type WillShutdownListener = (event: WillShutdownEvent) => void;

/** The part of a Shutdown a service is given: it joins the stop, it does not start one. */
export type ShutdownPort = Pick<Shutdown, 'onWillShutdown'>;

export interface ShutdownOptions {
  /** where failed joins and a stop past its cap are written */
  log?: Log;
  /** how long the whole stop may take before `run()` answers anyway (5 s) */
  timeoutMs?: number;
  clock?: Clock;
}

export interface ShutdownOutcome {
  /** the cap passed first: what had not finished was left to the OS (and SQLite's journal) */
  timedOut: boolean;
}

/**
 * A stop as joins (VS Code's `lifecycleMainService.onWillShutdown(e =>
 * e.join(promise))`): each service that holds something registers where it
 * is created or started, for its phase, instead of one teardown that knows
 * every resource. The shells, and a CLI command that runs until stopped,
 * make one Shutdown and `run()` it once.
 *
 * Invariants:
 * - phases run in SHUTDOWN_PHASES order; the listeners of one phase are
 *   called in the order they registered, their joins awaited together;
 * - a listener that throws or a join that rejects is logged, and the rest
 *   goes on;
 * - a listener registered once its phase has begun (a service that started
 *   while the stop was under way) is called at once, and the phase running
 *   then waits for its joins, as for a join added while a phase runs;
 * - `run()` answers within `timeoutMs`; what is still running goes on in the
 *   background, and the log says what it was.
 */
export class Shutdown implements ShutdownPort {
  private readonly listeners = new Map<ShutdownPhase, Set<WillShutdownListener>>(
    SHUTDOWN_PHASES.map((phase) => [phase, new Set()]),
  );
  /** the index of the phase running: -1 before the stop, SHUTDOWN_PHASES.length after it */
  private current = -1;
  /** the joins not settled yet, with what each one stops */
  private readonly joins = new Map<Promise<void>, string>();
  private running: Promise<ShutdownOutcome> | null = null;

  constructor(private readonly options: ShutdownOptions = {}) {}

  onWillShutdown(phase: ShutdownPhase, listener: WillShutdownListener): Disposable {
    if (this.current >= SHUTDOWN_PHASES.indexOf(phase)) {
      this.call(listener, phase);
      return { dispose: () => undefined };
    }
    const listeners = this.listeners.get(phase)!;
    listeners.add(listener);
    return { dispose: () => listeners.delete(listener) };
  }

  /** Stops everything that joined, phase by phase; a second call answers the first one's outcome. */
  run(): Promise<ShutdownOutcome> {
    this.running ??= this.stop();
    return this.running;
  }

  private async stop(): Promise<ShutdownOutcome> {
    const limit = this.options.timeoutMs ?? 5_000;
    const cap = new AbortController();
    const outcome = await Promise.race([
      this.runPhases().then(() => 'done' as const),
      (this.options.clock ?? systemClock).sleep(limit, cap.signal).then(() => 'timeout' as const),
    ]);
    cap.abort();
    if (outcome === 'done') return { timedOut: false };
    const waiting = [...new Set(this.joins.values())];
    const still = waiting.length > 0 ? ` (still waiting for ${waiting.join(', ')})` : '';
    this.options.log?.warn(`Stopping took longer than ${limit} ms: quitting anyway${still}.`);
    return { timedOut: true };
  }

  private async runPhases(): Promise<void> {
    for (const [index, phase] of SHUTDOWN_PHASES.entries()) {
      this.current = index;
      const listeners = this.listeners.get(phase)!;
      // one may be disposed by another's call (its owner stopped first)
      for (const listener of [...listeners]) if (listeners.has(listener)) this.call(listener, phase);
      listeners.clear();
      while (this.joins.size > 0) await Promise.all(this.joins.keys());
    }
    this.current = SHUTDOWN_PHASES.length;
  }

  private call(listener: WillShutdownListener, phase: ShutdownPhase): void {
    try {
      listener({ phase, join: (promise, what) => this.track(promise, what) });
    } catch (error) {
      this.options.log?.error(`Something failed to stop (${phase}).`, error);
    }
  }

  private track(promise: Promise<unknown>, what: string): void {
    const tracked: Promise<void> = promise.then(
      () => void this.joins.delete(tracked),
      (error: unknown) => {
        this.joins.delete(tracked);
        this.options.log?.error(`Stopping ${what} failed.`, error);
      },
    );
    this.joins.set(tracked, what);
  }
}
