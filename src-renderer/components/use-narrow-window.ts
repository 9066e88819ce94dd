import { useSyncExternalStore } from 'react';

/**
 * A window this narrow gets the compact layout: the views' navigation in
 * lines of three, taller queue rows. The style sheets' `@media (max-width: 45rem)`
 * say the same width.
 */
export const NARROW_WINDOW = '(max-width: 45rem)';

/** The one query, made at first use: `matchMedia` parses and evaluates anew at each call, and React reads at every render. */
let query: MediaQueryList | undefined;
const narrowQuery = () => (query ??= matchMedia(NARROW_WINDOW));

function subscribe(listener: () => void): () => void {
  const query = narrowQuery();
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

/** Whether the window is narrow now, for what CSS alone cannot change: the queue's row height, which its list counts in. */
export function useNarrowWindow(): boolean {
  // the third: unit tests draw components with react-dom/server, which has no window
  return useSyncExternalStore(
    subscribe,
    () => narrowQuery().matches,
    () => false,
  );
}
