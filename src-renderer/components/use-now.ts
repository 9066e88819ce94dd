import { useCallback, useSyncExternalStore } from 'react';

/** One timer per period for every component that shows time passing, however many rows do. */
const clocks = new Map<number, { ticks: number; listeners: Set<() => void>; timer?: ReturnType<typeof setInterval> }>();

function clock(periodMs: number) {
  let found = clocks.get(periodMs);
  if (!found) clocks.set(periodMs, (found = { ticks: 0, listeners: new Set() }));
  return found;
}

function subscribe(periodMs: number | null, listener: () => void): () => void {
  if (periodMs === null) return () => undefined;
  const ticking = clock(periodMs);
  ticking.listeners.add(listener);
  ticking.timer ??= setInterval(() => {
    ticking.ticks++;
    for (const told of ticking.listeners) told();
  }, periodMs);
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
 */
export function useNow(periodMs: number | null): number {
  useSyncExternalStore(
    useCallback((listener: () => void) => subscribe(periodMs, listener), [periodMs]),
    () => (periodMs === null ? 0 : clock(periodMs).ticks),
  );
  return Date.now();
}
