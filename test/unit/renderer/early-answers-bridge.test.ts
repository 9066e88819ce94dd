import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpcEventName } from '../../../src-shared/ipc/ipc-contract.js';
import type { AppBridge, ConnectionState } from '../../../src-renderer/bridge/app-bridge.js';
import { EarlyAnswersBridge } from '../../../src-renderer/bridge/early-answers-bridge.js';
import { earlyRequestsFor } from '../../../src-renderer/bridge/early-requests.js';
import { QUEUE_PAGE_SIZE } from '../../../src-renderer/model/queue-rows.js';

/** A scripted bridge: counts what is invoked, answers with the invocation's number, emits events on demand. */
class ScriptedBridge implements AppBridge {
  readonly shell = 'headless';
  invoked: string[] = [];
  state: ConnectionState = 'connecting';
  private readonly connectionListeners = new Set<(state: ConnectionState) => void>();
  private readonly listeners = new Map<string, Set<(payload: never) => void>>();

  invoke(name: string, request: unknown) {
    this.invoked.push(`${name} ${JSON.stringify(request)}`);
    return Promise.resolve(this.invoked.length) as never;
  }
  on(name: string, listener: (payload: never) => void) {
    const set = this.listeners.get(name) ?? new Set();
    this.listeners.set(name, set);
    set.add(listener);
    return () => set.delete(listener);
  }
  emit(name: IpcEventName) {
    for (const listener of this.listeners.get(name) ?? []) listener({} as never);
  }
  connection() {
    return this.state;
  }
  onConnectionChange(listener: (state: ConnectionState) => void) {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }
  setState(state: ConnectionState) {
    this.state = state;
    for (const listener of this.connectionListeners) listener(state);
  }
  pathForFile() {
    return null;
  }
}

const REQUESTS = earlyRequestsFor('queue');
const FIRST_PAGE = { offset: 0, limit: QUEUE_PAGE_SIZE };

describe('the early answers bridge', () => {
  let inner: ScriptedBridge;
  let bridge: EarlyAnswersBridge;
  beforeEach(() => {
    vi.useFakeTimers();
    inner = new ScriptedBridge();
    bridge = new EarlyAnswersBridge(inner, REQUESTS);
  });
  afterEach(() => vi.useRealTimers());

  it('sends the shell’s reads, and the Queue’s only when the window opens on it, never app:takeIntents', () => {
    expect(earlyRequestsFor('files').map(({ name }) => name)).toEqual(['account:list', 'app:updateStatus']);
    expect(REQUESTS.map(({ name }) => name)).toEqual([
      'account:list',
      'app:updateStatus',
      'uploads:list',
      'uploads:status',
      'app:rateLimits',
    ]);
  });

  it('sends them when the connection opens and hands each answer once to the same command and request', async () => {
    expect(inner.invoked).toEqual([]);
    inner.setState('open');
    expect(inner.invoked).toHaveLength(5);
    expect(await bridge.invoke('uploads:list', FIRST_PAGE)).toBe(3);
    // taken: the next one goes to the core
    expect(await bridge.invoke('uploads:list', FIRST_PAGE)).toBe(6);
    // another request is not the early one
    expect(await bridge.invoke('uploads:list', { offset: 200, limit: QUEUE_PAGE_SIZE })).toBe(7);
    expect(await bridge.invoke('account:list', {})).toBe(1);
  });

  it('drops what no view took when an event may have made it stale, except progress batches', async () => {
    inner.setState('open');
    inner.emit('uploads:progress');
    expect(await bridge.invoke('uploads:status', {})).toBe(4);
    inner.emit('uploads:itemChanged');
    expect(await bridge.invoke('uploads:list', FIRST_PAGE)).toBe(6);
  });

  it('drops them when the connection drops, asks again when it is back, and forgets them after 5 s', async () => {
    inner.setState('open');
    inner.setState('closed');
    inner.setState('open');
    expect(inner.invoked).toHaveLength(10);
    expect(await bridge.invoke('account:list', {})).toBe(6);
    vi.advanceTimersByTime(5_000);
    expect(await bridge.invoke('app:updateStatus', {})).toBe(11);
  });

  it('sends them at once over a bridge that is open from the start (Electron)', () => {
    const open = new ScriptedBridge();
    open.state = 'open';
    new EarlyAnswersBridge(open, REQUESTS);
    expect(open.invoked).toHaveLength(5);
  });

  it('hands an answer that has arrived to a first render, once, and not one an event may have staled', async () => {
    inner.setState('open');
    expect(bridge.takeArrived('uploads:list', FIRST_PAGE)).toBeUndefined();
    await bridge.whenAnswered(1_000);
    expect(bridge.takeArrived('uploads:list', FIRST_PAGE)).toEqual({ value: 3 });
    expect(bridge.takeArrived('uploads:list', FIRST_PAGE)).toBeUndefined();
    expect(await bridge.invoke('uploads:list', FIRST_PAGE)).toBe(6);
    inner.emit('account:changed');
    expect(bridge.takeArrived('account:list', {})).toBeUndefined();
  });

  it('lets the first render wait for the answers, but no longer than it says, nor past a lost connection', async () => {
    let waited = false;
    void bridge.whenAnswered(500).then(() => (waited = true));
    await vi.advanceTimersByTimeAsync(499);
    expect(waited).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(waited).toBe(true);

    let lost = false;
    void bridge.whenAnswered(500).then(() => (lost = true));
    inner.setState('closed');
    await Promise.resolve();
    expect(lost).toBe(true);
  });
});
