import { useCallback, useSyncExternalStore } from 'react';

/**
 * A period is beaten in this many slots, and a listener is told on its own
 * slot's beat: rows keyed by their item ids tick at different moments of
 * the second, not all in one frame with a progress batch.
 */
const SLOTS = 10;

/** One timer per period for every component that shows time passing, however many rows do. */
const clocks = new Map<
  number,
  { beats: number; listeners: Map<() => void, number>; timer?: ReturnType<typeof setInterval> }
>();

function clock(periodMs: number) {
  let found = clocks.get(periodMs);
  if (!found) clocks.set(periodMs, (found = { beats: 0, listeners: new Map() }));
  return found;
}

const slotOf = (key: number) => Math.abs(Math.trunc(key)) % SLOTS;

/** Calls `listener` every `periodMs`, on the beat of `key`'s slot; returns the unsubscribe. */
export function onTick(periodMs: number | null, key: number, listener: () => void): () => void {
  if (periodMs === null) return () => undefined;
  const ticking = clock(periodMs);
  ticking.listeners.set(listener, slotOf(key));
  ticking.timer ??= setInterval(() => {
    const beat = ++ticking.beats % SLOTS;
    for (const [told, at] of ticking.listeners) if (at === beat) told();
  }, periodMs / SLOTS);
  return () => {
    ticking.listeners.delete(listener);
    if (ticking.listeners.size > 0) return;
    clearInterval(ticking.timer);
    ticking.timer = undefined;
  };
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
