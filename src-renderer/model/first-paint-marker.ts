import { viewFromHash } from './routes.js';

/** The wrapper of the daemon's picture of the Queue in the page's root (first-paint.tsx). */
export const FIRST_PAINT_CLASS = 'first-paint';

/** Where the window keeps the account picked last (per browser, like the rest of the UI's state). */
export const SELECTED_ACCOUNT_KEY = 'media-sync.account';

/** The language the daemon draws its picture in: it cannot know the browser's, nor its language setting. */
export const FIRST_PAINT_LANGUAGE = 'en';

/**
 * Removes the daemon's picture of the Queue when the window will show
 * something else: another view (#/files), another account than the first,
 * picked earlier in this browser, or another language than the picture's
 * (English). Run by the page's first script, an async one that may run
 * before the body is parsed: then as soon as it is.
 */
export function dropMismatchedFirstPaint(
  doc: Document,
  hash: string,
  selectedAccount: string | null,
  language: string = FIRST_PAINT_LANGUAGE,
): void {
  const drop = () => {
    const picture = doc.querySelector<HTMLElement>(`.${FIRST_PAINT_CLASS}`);
    if (!picture) return;
    const otherAccount = selectedAccount !== null && selectedAccount !== picture.dataset['account'];
    if (viewFromHash(hash) !== 'queue' || otherAccount || language !== FIRST_PAINT_LANGUAGE) picture.remove();
  };
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', drop, { once: true });
  else drop();
}
