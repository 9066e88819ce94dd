import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractError } from '../../../../src-shared/ipc/contract-client.js';
import { electronBridge } from '../../../../src-renderer/bridge/electron-bridge.js';
import type { SessionAnswer } from '../../../../src-renderer/bridge/session-check.js';
import { sessionKeyHeader, storedSessionKey, takeKeyFromAddress } from '../../../../src-renderer/bridge/session-key.js';
import { WsBridge } from '../../../../src-renderer/bridge/ws-bridge.js';
import { ACCOUNT, FakeSocket } from '../../../helpers/fake-socket.js';

describe('the WebSocket bridge', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  const connect = () => {
    const bridge = new WsBridge('ws://127.0.0.1:1/ipc', (url) => new FakeSocket(url));
    const socket = FakeSocket.all[0]!;
    socket.open();
    return { bridge, socket };
  };

  it("answers each command with the core's value by its id, and a refusal as an error with its request id", async () => {
    const { bridge, socket } = connect();
    const list = bridge.invoke('account:list', {});
    const signIn = bridge.invoke('account:signIn', { baseUrl: 'http://x/api/v1', token: 't' });
    expect(socket.sent.map((message) => message.name)).toEqual(['account:list', 'account:signIn']);
    socket.receive({
      id: socket.sent[1]!.id,
      result: { ok: false, error: { code: 'UNAUTHENTICATED', message: 'No.', requestId: 'req-9' } },
    });
    socket.receive({ id: socket.sent[0]!.id, result: { ok: true, value: [ACCOUNT] } });
    expect(await list).toEqual([ACCOUNT]);
    const refused = await signIn.catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ContractError);
    expect(refused).toMatchObject({ code: 'UNAUTHENTICATED', message: 'No.', requestId: 'req-9' });
  });

  it('delivers events to listeners of that event only, until they stop listening', () => {
    const { bridge, socket } = connect();
    const seen: unknown[] = [];
    const stop = bridge.on('account:changed', (accounts) => seen.push(accounts));
    bridge.on('folders:changed', () => seen.push('wrong listener'));
    socket.receive({ event: 'account:changed', payload: [ACCOUNT] });
    stop();
    socket.receive({ event: 'account:changed', payload: [] });
    expect(seen).toEqual([[ACCOUNT]]);
  });

  it('fails commands in flight when the socket drops, says so, and reconnects with backoff', async () => {
    const { bridge, socket } = connect();
    const states: string[] = [];
    bridge.onConnectionChange((state) => states.push(state));
    const pending = bridge.invoke('settings:get', {});
    socket.close();
    await expect(pending).rejects.toMatchObject({ code: 'DISCONNECTED' });
    await expect(bridge.invoke('settings:get', {})).rejects.toBeInstanceOf(ContractError);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(250);
    expect(FakeSocket.all).toHaveLength(2);
    // a try that fails too waits longer before the next
    FakeSocket.all[1]!.close();
    vi.advanceTimersByTime(250);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(250);
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.all[2]!.open();
    // a second failed try is no news: the page already says it is reconnecting
    expect(states).toEqual(['closed', 'open']);
    expect(bridge.connection()).toBe('open');
  });
});

describe('the WebSocket bridge across a restart of the daemon', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('keeps trying every few seconds; a socket refused for a key made anew is `refused` until the cookie opens it', async () => {
    let answer: SessionAnswer = 'unreachable';
    let asked = 0;
    const bridge = new WsBridge(
      'ws://127.0.0.1:1/ipc',
      (url) => new FakeSocket(url),
      async () => {
        asked++;
        return answer;
      },
    );
    const states: string[] = [];
    bridge.onConnectionChange((state) => states.push(state));
    /** the last socket is refused (or finds no daemon); the next one comes within `ms` */
    const refuse = async (ms: number) => {
      const count = FakeSocket.all.length;
      FakeSocket.all.at(-1)!.close();
      await vi.advanceTimersByTimeAsync(ms);
      expect(FakeSocket.all).toHaveLength(count + 1);
    };
    FakeSocket.all[0]!.open();
    // the daemon stops: a socket that was open is not a question of the key
    await refuse(250);
    expect(asked).toBe(0);
    // not up yet
    await refuse(500);
    expect(asked).toBe(1);
    expect(bridge.connection()).toBe('closed');
    // up again, with a new key: the page's cookie no longer opens it
    answer = 'refused';
    for (const ms of [1_000, 2_000, 5_000, 5_000, 5_000]) await refuse(ms);
    expect(bridge.connection()).toBe('refused');
    // the new address opened in another tab set the cookie: this page gets in too
    answer = 'valid';
    FakeSocket.all.at(-1)!.open();
    expect(bridge.connection()).toBe('open');
    expect(states).toEqual(['open', 'closed', 'refused', 'open']);
  });
});

describe("the page's session key", () => {
  const memoryStorage = () => {
    const items = new Map<string, string>();
    return {
      items,
      getItem: (name: string) => items.get(name) ?? null,
      setItem: (name: string, value: string) => void items.set(name, value),
    };
  };

  it("moves ?key= of the printed address into the origin's storage, and out of the address bar", () => {
    const storage = memoryStorage();
    const store = storedSessionKey(() => storage);
    const replaced: string[] = [];
    const history = {
      replaceState: (_state: unknown, _title: string, url?: string | URL | null) => void replaced.push(String(url)),
    };
    takeKeyFromAddress(store, { href: 'http://127.0.0.1:8790/?key=K3y-1&view=queue#top' }, history);
    expect(replaced).toEqual(['/?view=queue#top']);
    expect([...storage.items.values()]).toEqual(['K3y-1']);
    expect(sessionKeyHeader(store)).toEqual({ 'X-Media-Sync-Key': 'K3y-1' });
    // an address without a key (a reload, a link inside the app) leaves the kept one as it is
    takeKeyFromAddress(store, { href: 'http://127.0.0.1:8790/' }, history);
    expect(replaced).toHaveLength(1);
    expect(store.get()).toBe('K3y-1');
    // a browser that refuses storage: the key lives as long as the page
    const refusing = storedSessionKey(() => {
      throw new Error('SecurityError');
    });
    refusing.set('in-memory');
    expect(refusing.get()).toBe('in-memory');
  });

  it('offers the key as a subprotocol, read anew at each try: the key another tab stored lets a refused page in', async () => {
    vi.useFakeTimers();
    try {
      FakeSocket.all = [];
      const storage = memoryStorage();
      const store = storedSessionKey(() => storage);
      const offered: string[][] = [];
      const bridge = new WsBridge(
        'ws://127.0.0.1:1/ipc',
        (url, protocols) => {
          offered.push(protocols);
          return new FakeSocket(url);
        },
        async () => 'refused',
        store,
      );
      FakeSocket.all[0]!.close();
      await vi.advanceTimersByTimeAsync(250);
      expect(bridge.connection()).toBe('refused');
      // the new address opened in another tab stores its key: the next try offers it
      store.set('new-key');
      FakeSocket.all.at(-1)!.close();
      await vi.advanceTimersByTimeAsync(500);
      FakeSocket.all.at(-1)!.open();
      expect(offered).toEqual([['media-sync'], ['media-sync'], ['media-sync', 'media-sync.key.new-key']]);
      expect(bridge.connection()).toBe('open');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the Electron bridge', () => {
  it('unwraps the preload result, raises refusals, and filters events by name', async () => {
    const listeners: Array<(event: unknown) => void> = [];
    const bridge = electronBridge({
      commands: {
        'account:list': async () => ({ ok: true, value: [ACCOUNT] }),
        'settings:get': async () => ({ ok: false, error: { code: 'FORBIDDEN', message: 'No.', requestId: null } }),
      },
      onEvent: (listener) => {
        listeners.push(listener);
        return () => undefined;
      },
      onConnection: () => () => undefined,
    });
    expect(bridge.connection()).toBe('open');
    expect(await bridge.invoke('account:list', {})).toEqual([ACCOUNT]);
    await expect(bridge.invoke('settings:get', {})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const seen: unknown[] = [];
    bridge.on('account:changed', (accounts) => seen.push(accounts));
    for (const listener of listeners) {
      listener({ name: 'folders:changed', payload: [] });
      listener({ name: 'account:changed', payload: [ACCOUNT] });
    }
    expect(seen).toEqual([[ACCOUNT]]);
    expect(bridge.pathForFile({} as File)).toBeNull();
  });

  it('is paused while the window is hidden and open again when shown, telling its listeners of each change once', () => {
    let tell: (state: 'open' | 'paused') => void = () => undefined;
    const bridge = electronBridge({
      commands: {},
      onEvent: () => () => undefined,
      onConnection: (listener) => {
        tell = listener;
        return () => undefined;
      },
    });
    const changes: string[] = [];
    const stop = bridge.onConnectionChange((state) => changes.push(state));
    tell('paused');
    tell('paused');
    expect(bridge.connection()).toBe('paused');
    tell('open');
    expect(bridge.connection()).toBe('open');
    stop();
    tell('paused');
    expect(changes).toEqual(['paused', 'open']);
  });
});
