import type { BrowserWindowConstructorOptions, Session, WebContents } from 'electron';

/**
 * Electron's security checklist, in one place: the renderer is sandboxed and
 * isolated, has no Node, may not navigate away or open windows, gets no
 * permission, and can ask to open only http(s) links on a signed-in file host.
 */
export function secureWindowOptions(preloadPath: string, icon?: string): BrowserWindowConstructorOptions {
  return {
    ...(icon ? { icon } : {}),
    width: 1100,
    height: 760,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Media Sync',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

/** The Content-Security-Policy of the app's own pages: no inline script or eval, no remote code. */
export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** True for an http(s) link whose origin is one of the signed-in accounts' file hosts. */
export function isAllowedExternal(url: string, fileHosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.username || parsed.password) return false;
  return fileHosts.some((host) => {
    try {
      return new URL(host).origin === parsed.origin;
    } catch {
      return false;
    }
  });
}

export interface HardenOptions {
  /** the app's own origin (file:// or the dev server): the only place the window may be */
  appOrigin: string;
  fileHosts(): readonly string[];
  openExternal(url: string): Promise<void>;
}

/** Installs the navigation, window-open and permission guards on a window's contents. */
export function hardenContents(contents: WebContents, session: Session, options: HardenOptions): void {
  contents.on('will-navigate', (event, url) => {
    if (originOf(url) !== options.appOrigin) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (originOf(url) !== options.appOrigin) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternal(url, options.fileHosts())) void options.openExternal(url);
    return { action: 'deny' };
  });
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    const own = originOf(details.url) === options.appOrigin;
    callback({
      responseHeaders: own
        ? { ...details.responseHeaders, 'Content-Security-Policy': [APP_CSP] }
        : details.responseHeaders,
    });
  });
}

function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    // file: URLs have an opaque origin ("null"): compare the scheme instead
    return parsed.protocol === 'file:' ? 'file://' : parsed.origin;
  } catch {
    return '';
  }
}
