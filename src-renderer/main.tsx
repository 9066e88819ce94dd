import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import type { AppBridge } from './bridge/app-bridge.js';
import { BridgeProvider } from './bridge/bridge-context.js';
import { electronBridge, type PreloadApi } from './bridge/electron-bridge.js';
import { pageSessionKey, takeKeyFromAddress } from './bridge/session-key.js';
import { WsBridge, wsUrlFor } from './bridge/ws-bridge.js';
import { languageReady } from './i18n/i18n.js';
import { createStores, StoresProvider } from './store/stores.js';
import './styles.css';

/** Electron's preload puts the contract on window.mediaSync; in a browser the daemon's socket carries it. */
function createBridge(): AppBridge {
  const preload = (window as { mediaSync?: PreloadApi }).mediaSync;
  if (preload) return electronBridge(preload);
  // the key of the printed address is kept by the origin, and leaves the address bar and history
  takeKeyFromAddress(pageSessionKey, location, history);
  return new WsBridge(wsUrlFor(location));
}

const bridge = createBridge();
const stores = createStores(bridge);
// a page that is left for good (not kept for Back) stops listening to the core
addEventListener('pagehide', (event) => event.persisted || stores.dispose());
// the first frame in the person's language: German's catalog is fetched first when it is theirs
void languageReady
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <BridgeProvider value={bridge}>
          <StoresProvider value={stores}>
            <App />
          </StoresProvider>
        </BridgeProvider>
      </StrictMode>,
    ),
  );
