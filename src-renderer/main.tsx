import './zod-jitless.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { BridgeProvider } from './bridge/bridge-context.js';
import { EarlyAnswersBridge } from './bridge/early-answers-bridge.js';
import { takeEarlyConnection, wsUrlFor } from './bridge/early-connection.js';
import { earlyRequestsFor } from './bridge/early-requests.js';
import { ElectronBridge, type PreloadApi } from './bridge/electron-bridge.js';
import { WsBridge } from './bridge/ws-bridge.js';
import { viewFromHash } from './model/routes.js';
import './styles.css';

/**
 * Electron's preload puts the contract on window.mediaSync; in a browser the
 * daemon's socket carries it, opened by the page's first script when it could.
 * Either way the start view's reads go out at once (EarlyAnswersBridge).
 */
function createBridge(): EarlyAnswersBridge {
  const requests = earlyRequestsFor(viewFromHash(location.hash));
  const preload = (window as { mediaSync?: PreloadApi }).mediaSync;
  if (preload) return new EarlyAnswersBridge(new ElectronBridge(preload), requests);
  // the session key has been turned into a cookie by now: keep it out of the address bar and history
  if (new URL(location.href).searchParams.has('key')) history.replaceState(null, '', location.pathname + location.hash);
  const socket = new WsBridge(wsUrlFor(location), undefined, takeEarlyConnection(window));
  return new EarlyAnswersBridge(socket, requests, socket.takeSentEarly());
}

/** How long the first render waits for the start view's data: longer, and a slow daemon would leave the page blank. */
const FIRST_RENDER_WAIT_MS = 500;

const bridge = createBridge();
// not a top-level await: that would make the bundler split every module the lazy views share into a chunk of its own
void bridge.whenAnswered(FIRST_RENDER_WAIT_MS).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BridgeProvider bridge={bridge}>
        <App />
      </BridgeProvider>
    </StrictMode>,
  ),
);
