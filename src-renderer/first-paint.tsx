import { renderToStaticMarkup } from 'react-dom/server';
import type { IpcCommandName, IpcRequest, IpcResponse } from '../src-shared/ipc/ipc-contract.js';
import { App } from './app.js';
import type { AppBridge } from './bridge/app-bridge.js';
import { BridgeProvider } from './bridge/bridge-context.js';
import { earlyRequestsFor, requestKey, type EarlyRequest } from './bridge/early-requests.js';
import { i18n, resolveLanguage, type Language } from './i18n/i18n.js';
import { deferAppScript, EMPTY_ROOT, FIRST_PAINT_CLASS } from './model/first-paint-marker.js';

/**
 * The Queue as the page's HTML (built by Vite as a server entry, run by the
 * headless daemon for each load of the page): the browser paints the shell
 * and the first rows as soon as the HTML and the style sheet are in, while
 * the ~370 KB bundle still loads and compiles. It is a picture, not the app:
 * inert (nothing in it can be clicked or focused), and replaced whole by
 * React's first render, which takes the live data from the socket as before
 * (no hydration, so a snapshot a moment old cannot disagree with the app).
 *
 * It is drawn in the language the page will most likely show: the core's
 * language setting when it names one, else the browser's languages as its
 * request named them (Accept-Language). The daemon cannot see the address's
 * #view, the account picked in this browser, nor a language chosen in this
 * browser alone (localStorage), so the early script (early-connect.ts) drops
 * the picture when one of them says it is not what the window will show.
 */

/** What the daemon reads from the core, in this order, to answer `renderFirstPaint`: the Queue's reads and the settings (the language). */
export const firstPaintRequests: readonly EarlyRequest[] = [
  ...earlyRequestsFor('queue'),
  { name: 'settings:get', request: {} },
];

/**
 * The page as built (`page`) with the Queue in its root and the app's script
 * started after the first frame, or null when there is nothing worth
 * painting ahead of the app (no account yet: first run is a form).
 * `answers[i]` is the core's answer to `firstPaintRequests[i]`; `languages`
 * are the request's Accept-Language tags, best first.
 */
export function renderFirstPaint(
  answers: readonly unknown[],
  page: string,
  languages: readonly string[] = [],
): string | null {
  if (!page.includes(EMPTY_ROOT)) return null;
  const byKey = new Map(firstPaintRequests.map((early, i) => [requestKey(early.name, early.request), answers[i]]));
  const accounts = byKey.get(requestKey('account:list', {})) as IpcResponse<'account:list'> | undefined;
  const account = accounts?.[0];
  if (!account) return null;
  const bridge: AppBridge = {
    shell: 'headless',
    connection: () => 'open',
    onConnectionChange: () => () => undefined,
    on: () => () => undefined,
    // effects never run on the server: nothing is asked that was not answered above
    invoke: () => new Promise(() => undefined),
    pathForFile: () => null,
    takeArrived<N extends IpcCommandName>(name: N, request: IpcRequest<N>) {
      const key = requestKey(name, request);
      return byKey.has(key) ? { value: byKey.get(key) as IpcResponse<N> } : undefined;
    },
  };
  const settings = byKey.get(requestKey('settings:get', {})) as IpcResponse<'settings:get'> | undefined;
  const language = resolveLanguage(settings?.language ?? 'system', languages);
  const markup = renderIn(language, () =>
    renderToStaticMarkup(
      <BridgeProvider bridge={bridge}>
        <App />
      </BridgeProvider>,
    ),
  );
  const picture =
    `<div class="${FIRST_PAINT_CLASS}" data-account="${escapeAttribute(account.id)}" data-language="${language}" inert="">` +
    `${markup}</div>`;
  // a function, not a string: `$&` in a file's name is not a replacement pattern
  const drawn = page.replace(EMPTY_ROOT, () => `<div id="root">${picture}</div>`).replace(HTML_LANG, `$1${language}$2`);
  return deferAppScript(drawn);
}

/** The page's `<html lang="…">` as built: it names the picture's language, for screen readers and hyphenation. */
const HTML_LANG = /^(<!doctype html>\s*<html lang=")[\w-]*(")/i;

/**
 * `render()` with the UI in `language`. The catalogs are bundled, so the
 * switch is synchronous, and so is the render: no other page's render can
 * come between them.
 */
function renderIn(language: Language, render: () => string): string {
  if (i18n.language !== language) void i18n.changeLanguage(language);
  return render();
}

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}
