import { assertNever } from '../common/assert-never.js';

/**
 * How the desktop app ends (docs/desktop.md): a quit is a sequence, not an exit.
 *
 * ```
 *   starting ──ready──► running
 *      │                   │
 *      │ quit-requested    │ quit-requested / stop-requested
 *      ▼                   ▼
 *   stopping { quitAfter } ──stopped──► stopped ──► (Electron closes the windows, will-quit, quit)
 *      ▲  │ quit-requested: prevented again, quitAfter = true
 *      └──┘
 * ```
 *
 * - Electron's `before-quit` while starting or running is prevented, and
 *   starts the orderly stop (the phases of common/shutdown.ts: ipc and
 *   sockets, core, engine and database, demo server, lock), which is capped
 *   at 5 s; quit-runner.ts runs these transitions on Electron's app. Preventing it matters: `before-quit` comes
 *   before the windows' `close`, and the close-to-tray handler would cancel a
 *   quit that had already torn the core down.
 * - Once stopped, the runner calls `app.quit()` again; this time nothing is
 *   prevented: the window really closes (`windowMayClose`), then `will-quit`
 *   and `quit`, and Electron ends the process.
 * - `stop-requested` is the same stop without the quit at its end: an update
 *   installer (electron-updater) quits the app itself once the core is down.
 */
export type QuitState =
  | { readonly kind: 'starting' }
  | { readonly kind: 'running' }
  | { readonly kind: 'stopping'; readonly quitAfter: boolean }
  | { readonly kind: 'stopped' };

export type QuitEvent =
  | { readonly type: 'ready' }
  /** Electron's `before-quit` */
  | { readonly type: 'quit-requested' }
  /** stop everything but leave the quit to someone else (an update installer) */
  | { readonly type: 'stop-requested' }
  /** the orderly stop finished (or ran out of time) */
  | { readonly type: 'stopped' };

export type QuitEffect =
  /** call `preventDefault()` on this `before-quit` */
  | 'prevent-quit'
  | 'begin-stop'
  /** call `app.quit()` again, now that everything is stopped */
  | 'quit';

export interface QuitStep {
  state: QuitState;
  effects: QuitEffect[];
}

export const INITIAL_QUIT_STATE: QuitState = { kind: 'starting' };

export function quitTransition(state: QuitState, event: QuitEvent): QuitStep {
  const stay = { state, effects: [] };
  switch (event.type) {
    case 'ready':
      return state.kind === 'starting' ? { state: { kind: 'running' }, effects: [] } : stay;
    case 'quit-requested':
      switch (state.kind) {
        case 'starting':
        case 'running':
          return { state: { kind: 'stopping', quitAfter: true }, effects: ['prevent-quit', 'begin-stop'] };
        case 'stopping':
          return { state: { kind: 'stopping', quitAfter: true }, effects: ['prevent-quit'] };
        case 'stopped':
          return stay;
        default:
          return assertNever(state);
      }
    case 'stop-requested':
      return state.kind === 'starting' || state.kind === 'running'
        ? { state: { kind: 'stopping', quitAfter: false }, effects: ['begin-stop'] }
        : stay;
    case 'stopped':
      if (state.kind !== 'stopping') return stay;
      return { state: { kind: 'stopped' }, effects: state.quitAfter ? ['quit'] : [] };
    default:
      return assertNever(event);
  }
}

/** Closing the window hides it to the tray, except on the way out. */
export function windowMayClose(state: QuitState): boolean {
  return state.kind === 'stopped';
}
