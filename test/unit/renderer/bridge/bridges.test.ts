import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractError } from '../../../../src-shared/ipc/contract-client.js';
import { electronBridge } from '../../../../src-renderer/bridge/electron-bridge.js';
import type { SessionAnswer } from '../../../../src-renderer/bridge/session-check.js';
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
});
