import type { WhenDoneAction, WhenDoneView } from '../../src-shared/model/when-done.js';
import { assertNever } from '../common/assert-never.js';

/**
 * "When done" for one run of the queue:
 *
 * ```
 *          choose(action)                 look: queue done             look: deadline passed, still done
 *   idle ─────────────────▶ armed ─────────────────────────▶ countingDown ──────────────────────────▶ running
 *    ▲  ◀──choose(nothing)─┘  ▲                                  │  │                                    │
 *    │                        └──── look: work arrived ──────────┘  │ choose(nothing): Cancel            │ finished
 *    └──────────────────────────────────────────────────────────────┴────────────────────────────────────┘
 * ```
 * - "done": no upload that is not final (done, failed, cancelled) and no
 *   file still settling in a watched folder, so never with a chunk in flight;
 * - a file arriving during the countdown sends it back to `armed`: the
 *   action waits for the new work, and counts down again once it is done;
 * - choosing another action during the countdown starts it over, so a person
 *   always gets the whole countdown for what will run;
 * - `running` clears the choice once finished, whether the action worked or not.
 */
export type WhenDoneState =
  | { kind: 'idle' }
  | { kind: 'armed'; action: WhenDoneAction }
  /** `deadline`: monotonic ms; `endsAt`: the same instant on the wall clock, for the UI */
  | { kind: 'countingDown'; action: WhenDoneAction; deadline: number; endsAt: number }
  | { kind: 'running'; action: WhenDoneAction };

export type WhenDoneEvent =
  | { type: 'choose'; action: WhenDoneAction | null }
  /** the runner looked at the queue: `done` as above; times monotonic and wall */
  | { type: 'look'; done: boolean; now: number; wallNow: number; countdownMs: number }
  | { type: 'finished' };

export function whenDoneTransition(state: WhenDoneState, event: WhenDoneEvent): WhenDoneState {
  switch (event.type) {
    case 'choose':
      // the action already runs: too late to take back
      if (state.kind === 'running') return state;
      if (event.action === null) return { kind: 'idle' };
      if (state.kind === 'armed' && state.action === event.action) return state;
      if (state.kind === 'countingDown' && state.action === event.action) return state;
      return { kind: 'armed', action: event.action };
    case 'look':
      switch (state.kind) {
        case 'idle':
        case 'running':
          return state;
        case 'armed':
          if (!event.done) return state;
          return {
            kind: 'countingDown',
            action: state.action,
            deadline: event.now + event.countdownMs,
            endsAt: event.wallNow + event.countdownMs,
          };
        case 'countingDown':
          if (!event.done) return { kind: 'armed', action: state.action };
          return event.now >= state.deadline ? { kind: 'running', action: state.action } : state;
        default:
          return assertNever(state);
      }
    case 'finished':
      return state.kind === 'running' ? { kind: 'idle' } : state;
    default:
      return assertNever(event);
  }
}

/** What the UI and the tray show of a state. */
export function whenDoneView(state: WhenDoneState): WhenDoneView | null {
  switch (state.kind) {
    case 'idle':
      return null;
    case 'armed':
    case 'running':
      return { action: state.action, countdownEndsAt: null };
    case 'countingDown':
      return { action: state.action, countdownEndsAt: state.endsAt };
    default:
      return assertNever(state);
  }
}
