import { renderToStaticMarkup } from 'react-dom/server';
import type { IpcCommandName, IpcRequest, IpcResponse } from '../src-shared/ipc/ipc-contract.js';
import { App } from './app.js';
import type { AppBridge } from './bridge/app-bridge.js';
import { BridgeProvider } from './bridge/bridge-context.js';
import { earlyRequestsFor, requestKey, type EarlyRequest } from './bridge/early-requests.js';
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
 * The daemon cannot see the address's #view nor the account picked in this
 * browser, so the early script (early-connect.ts) drops the picture when
 * either says it is not what the window will show.
 */

/** What the daemon reads from the core, in this order, to answer `renderFirstPaint`. */
export const firstPaintRequests: readonly EarlyRequest[] = earlyRequestsFor('queue');

/**
 * The page as built (`page`) with the Queue in its root and the app's script
 * started after the first frame, or null when there is nothing worth
 * painting ahead of the app (no account yet: first run is a form).
 * `answers[i]` is the core's answer to `firstPaintRequests[i]`.
 */
export function renderFirstPaint(answers: readonly unknown[], page: string): string | null {
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
  const markup = renderToStaticMarkup(
    <BridgeProvider bridge={bridge}>
      <App />
    </BridgeProvider>,
  );
  const picture = `<div class="${FIRST_PAINT_CLASS}" data-account="${escapeAttribute(account.id)}" inert="">${markup}</div>`;
  // a function, not a string: `$&` in a file's name is not a replacement pattern
  return deferAppScript(page.replace(EMPTY_ROOT, () => `<div id="root">${picture}</div>`));
}

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}
