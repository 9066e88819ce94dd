import { useCallback, useSyncExternalStore } from 'react';

/**
 * A period is beaten in this many slots, and a listener is told on its own
 * slot's beat: rows keyed by their item ids tick at different moments of
 * the second, not all in one frame.
 */
const SLOTS = 10;

interface Clock {
  /** its period's slot: the time between two beats on its timer */
  stepMs: number;
  beats: number;
  listeners: Map<() => void, number>;
  /** when its timer was set (performance.now()): its last beat, or its first listener */
  since: number;
  timer?: ReturnType<typeof setTimeout>;
}

/** One timer per period for every component that shows time passing, however many rows do. */
const clocks = new Map<number, Clock>();

function clock(periodMs: number): Clock {
  let found = clocks.get(periodMs);
  if (!found) clocks.set(periodMs, (found = { stepMs: periodMs / SLOTS, beats: 0, listeners: new Map(), since: 0 }));
  return found;
}

const slotOf = (key: number) => Math.abs(Math.trunc(key)) % SLOTS;

/** Sets the clock's timer for its next beat, a slot from now unless said otherwise. */
function wait(ticking: Clock, delayMs = ticking.stepMs): void {
  clearTimeout(ticking.timer);
  ticking.since = performance.now();
  ticking.timer = setTimeout(() => beat(ticking), delayMs);
}

/** Tells the listeners of the clock's next slot; the next beat after `delayMs`. */
function beat(ticking: Clock, delayMs?: number): void {
  wait(ticking, delayMs);
  const at = ++ticking.beats % SLOTS;
  for (const [told, slot] of ticking.listeners) if (slot === at) told();
}

/** Calls `listener` every `periodMs`, on the beat of `key`'s slot; returns the unsubscribe. */
export function onTick(periodMs: number | null, key: number, listener: () => void): () => void {
  if (periodMs === null) return () => undefined;
  const ticking = clock(periodMs);
  ticking.listeners.set(listener, slotOf(key));
  if (ticking.timer === undefined) wait(ticking);
  return () => {
    ticking.listeners.delete(listener);
    if (ticking.listeners.size > 0) return;
    clearTimeout(ticking.timer);
    ticking.timer = undefined;
  };
}

/**
 * A progress batch has come: the once-a-second clock beats with it when half
 * a beat or more has passed since its last, and its timer waits a beat and a
 * half from there, so the next batch (a beat later, give or take the
 * socket's jitter) beats it, not the timer just before. A row's words
 * (bytes, speed, time left) are then drawn in the frame that moves the
 * bars. On the clock's own timer they took a frame of their own, which on
 * the Queue page costs more than the words (its style, paint and layers
 * walked again): the main thread's p95 per batch above a bare page's went
 * from 1.74 ms to 1.27, the app's JavaScript's from 1.16 to 1.01
 * (queue-render, medians of 3 runs each, in turn). Without batches the
 * clock beats on its timer, each beat a slot after the last.
 */
export function beatWithProgress(): void {
  const ticking = clocks.get(1_000);
  if (ticking?.timer !== undefined && performance.now() - ticking.since >= ticking.stepMs / 2) {
    beat(ticking, ticking.stepMs * 1.5);
  }
}

/**
 * The time now (`Date.now()`), and the component renders again every
 * `periodMs` while that is not null: a countdown, a speed or a time left
 * moves by itself. With null it renders only when something else changes.
 * `key` (an item's id) picks the moment in the period: keys that differ in
 * their last digit tick apart.
 */
export function useNow(periodMs: number | null, key = 0): number {
  const slot = slotOf(key);
  useSyncExternalStore(
    useCallback((listener: () => void) => onTick(periodMs, slot, listener), [periodMs, slot]),
    // the ticks this slot has had: changes on its own beat only
    () => (periodMs === null ? 0 : Math.floor((clock(periodMs).beats + SLOTS - slot) / SLOTS)),
  );
  return Date.now();
}
