/*
 * The page's first script, an entry of its own that loads beside the app's
 * bundle and runs as soon as it arrives: it opens the daemon's socket and
 * asks for the start view's data, which the app then finds answered instead
 * of asking after its ~370 KB have been parsed; and it drops the daemon's
 * picture of the Queue if the window will not show that, or not in the
 * picture's language (first-paint.tsx), and under a picture starts the app
 * once the picture's first frame is out.
 * It imports no zod and no React, so it stays about a kilobyte.
 */
import { openEarlyConnection } from './bridge/early-connection.js';
import { resolveLanguage, storedSetting } from './i18n/language.js';
import { dropMismatchedFirstPaint, SELECTED_ACCOUNT_KEY, startAppAfterFirstPaint } from './model/first-paint-marker.js';

// first: whatever fails below (storage refused by the browser, say), the app must still start
startAppAfterFirstPaint(document, (next) => requestAnimationFrame(next));
dropMismatchedFirstPaint(
  document,
  location.hash,
  localStorage.getItem(SELECTED_ACCOUNT_KEY),
  resolveLanguage(storedSetting()),
);
openEarlyConnection(window);
