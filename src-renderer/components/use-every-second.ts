import { useEffect, useReducer } from 'react';
import { SecondClock } from '../model/second-clock.js';

/**
 * The one clock of every component that shows a speed, a time left or a
 * countdown, however many rows do. The Queue beats it with each progress
 * batch (`secondClock.beat()`), so that what changes with time is drawn in
 * the batches' frames.
 */
export const secondClock = new SecondClock({
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
});

/**
 * Renders the component again about every second while `active` (a
 * countdown, a speed that falls when an upload stalls); while not, the clock
 * does not render it at all, so a list re-renders only its rows that change
 * with time. The component reads the time itself (`Date.now()`) when it
 * renders. The daemon draws the Queue with react-dom/server
 * (first-paint.tsx), where effects never run: no clock there.
 */
export function useEverySecond(active: boolean): void {
  const [, render] = useReducer((count: number) => count + 1, 0);
  useEffect(() => (active ? secondClock.add(render) : undefined), [active]);
}
