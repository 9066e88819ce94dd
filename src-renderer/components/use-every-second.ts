import { useSyncExternalStore } from 'react';

// One timer for every component that shows a countdown or a speed, however many rows do.
const listeners = new Set<() => void>();
let second = 0;
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    second++;
    for (const told of listeners) told();
  }, 1_000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/**
 * Renders the component again every second while `active` (a countdown, a
 * speed that falls when an upload stalls); while not, the clock does not
 * render it at all, so a list re-renders only its rows that change with time.
 * The component reads the time itself (`Date.now()`) when it renders.
 */
export function useEverySecond(active: boolean): void {
  // the daemon draws the Queue with react-dom/server (first-paint.tsx): no clock there
  useSyncExternalStore(
    subscribe,
    () => (active ? second : -1),
    () => -1,
  );
}
