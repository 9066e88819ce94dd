import type { IpcMainInvokeEvent } from 'electron';
import { EventEmitter } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { forwardEvents, registerContractHandlers, type EventWindow } from '../../../src-main/electron/ipc-bridge.js';
import { BRIDGE_GLOBAL, exposeBridge } from '../../../src-main/electron/preload-bridge.js';
import type { AppBridge } from '../../../src-renderer/bridge/app-bridge.js';
import { electronBridge, type PreloadApi } from '../../../src-renderer/bridge/electron-bridge.js';
import { createStores } from '../../../src-renderer/store/stores.js';
import type { IpcCommandName, IpcError, IpcEventName } from '../../../src-shared/ipc/ipc-contract.js';
import { requestForEveryCommand, VOLATILE_COMMANDS, withoutRequestId } from '../../helpers/contract-requests.js';
import { createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

type Handler = (event: IpcMainInvokeEvent, raw: unknown) => Promise<unknown>;
type Listener = (event: unknown, payload: unknown) => void;

/** A window as forwardEvents follows it: shown or hidden as Electron's, with its `show`/`hide` events. */
class FakeWindow extends EventEmitter {
  visible = true;
  readonly webContents: EventWindow['webContents'];
  constructor(send: (channel: string, payload: unknown) => void) {
    super();
    this.webContents = Object.assign(new EventEmitter(), { isDestroyed: () => false, send }) as never;
  }
  isVisible = () => this.visible;
  isMinimized = () => false;
  isDestroyed = () => false;
  show() {
    this.visible = true;
    this.emit('show');
  }
  hide() {
    this.visible = false;
    this.emit('hide');
  }
}

/**
 * The desktop app's whole contract path without Electron: the page's
 * electronBridge → the preload's exposed API → a fake ipcRenderer/ipcMain
 * pair (structured clone, as Electron's IPC copies values) → the handlers →
 * AppCore, and events back the other way while the window is shown.
 */
function electronPair(core: AppCore): { bridge: AppBridge; window: FakeWindow; dispose(): void } {
  const handlers = new Map<string, Handler>();
  const listeners = new Map<string, Set<Listener>>();
  const ownFrame = { senderFrame: { url: 'file:///app/dist/renderer/index.html', parent: null } };
  const registration = registerContractHandlers(
    {
      handle: (channel: string, handler: Handler) => handlers.set(channel, handler),
      removeHandler: () => undefined,
    } as never,
    core,
    (url) => url.startsWith('file:///app/'),
  );
  const window = new FakeWindow((channel, payload) => {
    for (const listener of listeners.get(channel) ?? []) listener({}, structuredClone(payload));
  });
  const forwarding = forwardEvents(core, window as unknown as EventWindow, false);
  let exposed: PreloadApi | undefined;
  exposeBridge(
    {
      exposeInMainWorld: (name: string, api: unknown) => void (name === BRIDGE_GLOBAL && (exposed = api as PreloadApi)),
    },
    {
      invoke: async (channel: string, request: unknown) =>
        structuredClone(await handlers.get(channel)!(ownFrame as never, structuredClone(request))),
      on: (channel: string, listener: Listener) => {
        listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener));
        return undefined as never;
      },
      removeListener: (channel: string, listener: Listener) => {
        listeners.get(channel)?.delete(listener);
        return undefined as never;
      },
    } as never,
    { getPathForFile: () => '' },
  );
  return {
    bridge: electronBridge(exposed!),
    window,
    dispose: () => {
      forwarding.dispose();
      registration.dispose();
    },
  };
}

describe('the contract over a fake Electron ipc pair', () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let core: AppCore;
  let pair: ReturnType<typeof electronPair>;

  beforeEach(async () => {
    server = await startTestServer();
    data = await tempDir('media-sync-ipc-');
    engine = await Engine.open({ dataDir: data.path, settleMs: 300 });
    core = createAppCore(engine, data.path, {
      info: { version: '0.1.0', shell: 'electron', dataDir: data.path },
      tokenStorage: 'encrypted with the desktop keyring (gnome_libsecret)',
    });
    await core.start();
    pair = electronPair(core);
  });

  afterEach(async () => {
    pair.dispose();
    await core.dispose();
    await engine.close();
    await server.close();
    await data.remove();
  });

  /** A command as the page sees it: the value, or the error it throws, in the transports' result shape. */
  async function viaPage(name: string, request: unknown) {
    try {
      return { ok: true, value: await pair.bridge.invoke(name as IpcCommandName, request as never) };
    } catch (error) {
      const { code, message, requestId, text, fields } = error as IpcError;
      // the core's own sentence reaches the page as a catalog message too, to be said in the page's language,
      // and a refusal's reasons per field (a refused import link) beside it
      return {
        ok: false,
        error: { code, message, requestId, ...(text ? { text } : {}), ...(fields ? { fields } : {}) },
      };
    }
  }

  it('carries every command exactly as in process, parsed on both sides', async () => {
    const account = await pair.bridge.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    const requests = requestForEveryCommand({ accountId: account.id, baseUrl: server.baseUrl, dataDir: data.path });
    for (const [name, request] of Object.entries(requests)) {
      const overIpc = await viaPage(name, request);
      if (!VOLATILE_COMMANDS.has(name)) {
        const inProcess = await core.handle(name, request);
        // the page sees the core's answer as the core sent it
        expect(withoutRequestId(overIpc), name).toEqual(withoutRequestId(JSON.parse(JSON.stringify(inProcess))));
      }
    }
    expect(await viaPage('uploads:pauseAll', { until: 'forever' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    });
  });

  it('brings events to the page: a dropped file is seen going from queued to done', async () => {
    const account = await pair.bridge.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    const seen: Array<{ name: IpcEventName; state?: string }> = [];
    pair.bridge.on('uploads:itemChanged', (item) => seen.push({ name: 'uploads:itemChanged', state: item.state.kind }));
    pair.bridge.on('notifications:added', () => seen.push({ name: 'notifications:added' }));
    const path = join(data.path, 'clip.mp4');
    await writeFile(path, Buffer.alloc(64 * 1024, 7));
    const [item] = await pair.bridge.invoke('uploads:addPaths', { accountId: account.id, paths: [path] });
    expect(item?.state.kind).toBe('queued');
    await waitFor(() => seen.some((event) => event.state === 'done') || undefined, 20_000, 'the upload to finish');
    expect(seen.map((event) => event.state).filter(Boolean)).toContain('done');
  });

  it('a hidden window hears no events and its page is told so; shown again, its stores read anew and it hears the next ones', async () => {
    const account = await pair.bridge.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    // the page's own stores, as the window has them
    const stores = createStores(pair.bridge);
    stores.queue.show(0, 10);
    await waitFor(() => stores.queue.get().ready || undefined, 5_000, 'the queue read');
    const connection: string[] = [];
    pair.bridge.onConnectionChange((state) => connection.push(state));
    const states: string[] = [];
    pair.bridge.on('uploads:itemChanged', (item) => states.push(`${item.fileName} ${item.state.kind}`));

    pair.window.hide();
    expect(pair.bridge.connection()).toBe('paused');
    const hidden = join(data.path, 'while-hidden.mp4');
    await writeFile(hidden, Buffer.alloc(64 * 1024, 7));
    await pair.bridge.invoke('uploads:addPaths', { accountId: account.id, paths: [hidden] });
    // the page still asks, and is answered; only events are held
    const finished = async () => (await pair.bridge.invoke('uploads:list', { offset: 0, limit: 10 })).items;
    await waitFor(
      async () => (await finished()).some((item) => item.state.kind === 'done') || undefined,
      20_000,
      'the upload made while hidden to finish',
    );
    expect(states).toEqual([]);
    expect(stores.queue.get().total).toBe(0);

    pair.window.show();
    expect(connection).toEqual(['paused', 'open']);
    await waitFor(() => stores.queue.at(0)?.state.kind === 'done' || undefined, 5_000, 'the queue read anew');
    const shown = join(data.path, 'once-shown.mp4');
    await writeFile(shown, Buffer.alloc(64 * 1024, 8));
    await pair.bridge.invoke('uploads:addPaths', { accountId: account.id, paths: [shown] });
    await waitFor(() => states.includes('once-shown.mp4 done') || undefined, 20_000, 'the next upload to be heard');
    expect(states.some((said) => said.startsWith('while-hidden.mp4'))).toBe(false);
    stores.dispose();
  });
});
