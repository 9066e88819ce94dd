import { viewFromHash } from './routes.js';

/** The wrapper of the daemon's picture of the Queue in the page's root (first-paint.tsx). */
export const FIRST_PAINT_CLASS = 'first-paint';

/** The page's root as Vite builds it, empty. */
export const EMPTY_ROOT = '<div id="root"></div>';

/** Names the app's entry script in a page with a picture, where `startAppAfterFirstPaint` loads it. */
const APP_SCRIPT_META = 'media-sync:app-script';
/** The entry script and the chunks it preloads, as Vite writes them into the page's head. */
const APP_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="[^"]+">/g;

/** Where the window keeps the account picked last (per browser, like the rest of the UI's state). */
export const SELECTED_ACCOUNT_KEY = 'media-sync.account';

/** The language of a picture that does not name one (drawn by a daemon from before the catalogs). */
const UNNAMED_LANGUAGE = 'en';

/**
 * Removes the daemon's picture of the Queue when the window will show
 * something else: another view (#/files), another account than the first,
 * picked earlier in this browser, or another language than the one the
 * picture is drawn in (`data-language`: the daemon chose it from the core's
 * setting or the request's Accept-Language, while this browser may keep a
 * setting of its own). Run by the page's first script, an async one that
 * may run before the body is parsed: then as soon as it is.
 */
export function dropMismatchedFirstPaint(
  doc: Document,
  hash: string,
  selectedAccount: string | null,
  language: string,
): void {
  const drop = () => {
    const picture = doc.querySelector<HTMLElement>(`.${FIRST_PAINT_CLASS}`);
    if (!picture) return;
    const otherAccount = selectedAccount !== null && selectedAccount !== picture.dataset['account'];
    const otherLanguage = language !== (picture.dataset['language'] ?? UNNAMED_LANGUAGE);
    if (viewFromHash(hash) !== 'queue' || otherAccount || otherLanguage) picture.remove();
  };
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', drop, { once: true });
  else drop();
}

/**
 * The page with the app's entry named in a meta tag instead of loaded by a
 * script tag, and without its module preloads: Chromium compiles a module as
 * it arrives, on the main thread, and ~370 KB of it would hold back the
 * picture's first frame. `startAppAfterFirstPaint` loads it after that frame.
 */
export function deferAppScript(page: string): string {
  const entry = APP_SCRIPT.exec(page);
  if (!entry) return page;
  return page.replace(entry[0], `<meta name="${APP_SCRIPT_META}" content="${entry[1]}">`).replace(MODULE_PRELOAD, '');
}

/**
 * In a page the daemon drew (`deferAppScript`), loads the app once the first
 * frame is out (the task after the next animation frame), or at once in a
 * hidden tab. Run by the page's first script, after the meta tag in the head.
 */
export function startAppAfterFirstPaint(doc: Document, requestFrame: (next: () => void) => unknown): void {
  const entry = doc.querySelector<HTMLMetaElement>(`meta[name="${APP_SCRIPT_META}"]`)?.content;
  if (!entry) return;
  const start = () => {
    const script = doc.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    doc.head.append(script);
  };
  // a page opened in a background tab gets no frames until it is shown: nothing to wait for there
  if (doc.visibilityState === 'hidden') start();
  else requestFrame(() => setTimeout(start));
}
