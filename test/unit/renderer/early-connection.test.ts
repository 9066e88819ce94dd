import { beforeEach, describe, expect, it } from 'vitest';
import { EarlyAnswersBridge } from '../../../src-renderer/bridge/early-answers-bridge.js';
import {
  openEarlyConnection,
  takeEarlyConnection,
  type EarlyConnection,
} from '../../../src-renderer/bridge/early-connection.js';
import { earlyRequestsFor } from '../../../src-renderer/bridge/early-requests.js';
import { WsBridge } from '../../../src-renderer/bridge/ws-bridge.js';
import { ACCOUNT, FakeSocket } from './fake-socket.js';

const ACCOUNTS = [ACCOUNT];
const NO_UPDATES = { state: 'idle', checkedAt: null };

/** A page served by the daemon, its hash naming the start view. */
function page(hash = '', extra: Record<string, unknown> = {}) {
  return { location: { protocol: 'http:', host: '127.0.0.1:4000', hash }, ...extra };
}

/** The page's first script ran: the socket it opened, and what it left for the app. */
function firstScript(hash = '') {
  const scope = page(hash);
  openEarlyConnection(scope, (url) => new FakeSocket(url));
  return { scope, socket: FakeSocket.all[0]! };
}

describe("the page's early connection", () => {
  beforeEach(() => {
    FakeSocket.all = [];
  });

  it("opens the daemon's socket at once and sends the start view's reads when it opens", () => {
    const { scope, socket } = firstScript('#/files');
    expect(socket.url).toBe('ws://127.0.0.1:4000/ipc');
    expect(socket.sent).toEqual([]);
    socket.open();
    expect(socket.sent).toEqual([
      { id: 1, name: 'account:list', request: {} },
      { id: 2, name: 'app:updateStatus', request: {} },
    ]);
    socket.receive({ id: 1, result: { ok: true, value: ACCOUNTS } });
    const early = takeEarlyConnection(scope)!;
    expect(early.received).toHaveLength(1);
    expect(takeEarlyConnection(scope)).toBeNull();
  });

  it('does nothing in the Electron window, which talks over its preload, nor in a page from a file', () => {
    openEarlyConnection(page('', { mediaSync: {} }), (url) => new FakeSocket(url));
    openEarlyConnection({ location: { protocol: 'file:', host: '', hash: '' } }, (url) => new FakeSocket(url));
    expect(FakeSocket.all).toEqual([]);
  });

  it('opens nothing when the app has started first: it has a socket of its own', () => {
    const scope = page();
    expect(takeEarlyConnection(scope)).toBeNull();
    openEarlyConnection(scope, (url) => new FakeSocket(url));
    expect(FakeSocket.all).toEqual([]);
  });

  /** What main.tsx does with it. */
  function takeOver(early: EarlyConnection | null) {
    const ws = new WsBridge('ws://127.0.0.1:4000/ipc', (url) => new FakeSocket(url), early);
    const bridge = new EarlyAnswersBridge(ws, earlyRequestsFor('files'), ws.takeSentEarly());
    return { ws, bridge };
  }

  it('hands the app the answers that came before it loaded, without asking again, and numbers on from there', async () => {
    const { scope, socket } = firstScript('#/files');
    socket.open();
    socket.receive({ id: 2, result: { ok: true, value: NO_UPDATES } });

    const { ws, bridge } = takeOver(takeEarlyConnection(scope));
    expect(FakeSocket.all).toHaveLength(1);
    expect(ws.connection()).toBe('open');
    // the answer to come arrives over the socket the app now owns
    socket.receive({ id: 1, result: { ok: true, value: ACCOUNTS } });
    expect(await bridge.invoke('account:list', {})).toEqual(ACCOUNTS);
    expect(await bridge.invoke('app:updateStatus', {})).toEqual(NO_UPDATES);
    expect(socket.sent.map(({ id }) => id)).toEqual([1, 2]);

    void bridge.invoke('account:list', {});
    expect(socket.sent.at(-1)).toEqual({ id: 3, name: 'account:list', request: {} });
  });

  it('counts an event that came before the app loaded like one after: the answers it may have staled are not used', async () => {
    const { scope, socket } = firstScript('#/files');
    socket.open();
    socket.receive({ id: 1, result: { ok: true, value: ACCOUNTS } });
    socket.receive({ event: 'account:changed', payload: [] });

    const { bridge } = takeOver(takeEarlyConnection(scope));
    const seen: unknown[] = [];
    bridge.on('account:changed', (accounts) => seen.push(accounts));
    await Promise.resolve();
    expect(seen).toEqual([[]]);
    void bridge.invoke('account:list', {});
    expect(socket.sent.at(-1)).toMatchObject({ id: 3, name: 'account:list' });
  });

  it('takes over a socket still opening, and then sends the reads itself', () => {
    const { scope, socket } = firstScript('#/files');
    const { ws } = takeOver(takeEarlyConnection(scope));
    expect(ws.connection()).toBe('connecting');
    socket.open();
    expect(ws.connection()).toBe('open');
    expect(socket.sent.map(({ id, name }) => `${id} ${name}`)).toEqual(['1 account:list', '2 app:updateStatus']);
  });

  it('opens a socket of its own when the early one has closed, or there is none', () => {
    const { scope, socket } = firstScript('#/files');
    socket.open();
    socket.readyState = 3;
    takeOver(takeEarlyConnection(scope));
    expect(FakeSocket.all).toHaveLength(2);
    takeOver(null);
    expect(FakeSocket.all).toHaveLength(3);
  });
});
