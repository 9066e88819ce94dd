import { beforeEach, describe, expect, it } from 'vitest';
import type { IpcCommandName, Notification } from '../../../../src-shared/ipc/ipc-contract.js';
import type { ConversionFollow } from '../../../../src-shared/model/conversion-follow.js';
import type { FolderStatus } from '../../../../src-shared/model/folder-status.js';
import { DEFAULT_SETTINGS } from '../../../../src-shared/model/settings.js';
import { gateOpensAt } from '../../../../src-renderer/store/rate-limits-store.js';
import { createStores, type Stores } from '../../../../src-renderer/store/stores.js';
import { ACCOUNT } from '../../../helpers/fake-socket.js';
import { item, queueStatus } from '../../../helpers/queue-fixtures.js';
import { ScriptedBridge, settle } from '../../../helpers/scripted-bridge.js';

const RUNNING = queueStatus();
/** The stores that keep what the core says, each read and kept by events. */
const READ = [
  'accounts',
  'folders',
  'folderStatus',
  'queue',
  'queueStatus',
  'rateLimits',
  'settings',
  'updates',
  'notifications',
  'conversions',
] as const;
const LIMIT = { accountId: ACCOUNT.id, limit: 60, remaining: 59, gateOpensInMs: 0, gateReason: null };

function notification(id: number, title: string): Notification {
  const text = { key: 'core.notifications.uploaded' as const };
  return {
    id,
    kind: 'uploadsDone',
    title,
    body: '',
    text: { title: text, body: null },
    at: id,
    link: null,
    requestId: null,
  };
}

function follow(fileId: string, kind: 'uploaded' | 'ready'): ConversionFollow {
  const at = 1;
  const base = { accountId: ACCOUNT.id, fileId, name: `${fileId}.mp4`, uploadId: null, jobId: null, watchUrl: null };
  return { ...base, state: { kind, at }, startedAt: at, updatedAt: at };
}

function folderStatus(id: number, uploaded: number): FolderStatus {
  return {
    id,
    accountId: ACCOUNT.id,
    path: `/videos/${id}`,
    paused: false,
    state: { kind: 'watching', since: 1 },
    counts: { uploadedToday: uploaded, uploaded, failed: 0, skipped: 0 },
    lastScanAt: null,
    recent: [],
  };
}

/** What the core answers at start: one account, two queued items, the queue running. */
function core(name: IpcCommandName): unknown {
  switch (name) {
    case 'account:list':
      return [ACCOUNT];
    case 'uploads:list':
      return { items: [item(1), item(2)], total: 2 };
    case 'uploads:status':
      return RUNNING;
    case 'app:rateLimits':
      return [LIMIT];
    case 'settings:get':
      return DEFAULT_SETTINGS;
    case 'app:updateStatus':
      return { state: 'idle', checkedAt: null };
    case 'notifications:list':
      return [notification(1, 'Uploaded a.mp4')];
    case 'conversions:list':
      return [follow('f1', 'uploaded')];
    case 'folders:list':
      return [];
    case 'folders:status':
      return [folderStatus(1, 0), folderStatus(2, 0)];
    default:
      throw new Error(`not read at start: ${name}`);
  }
}

describe('the stores', () => {
  let bridge: ScriptedBridge;
  let stores: Stores;

  beforeEach(() => {
    bridge = new ScriptedBridge();
    stores = createStores(bridge);
  });

  it('read what the window shows once the connection opens, the accounts and the first queue page first', async () => {
    expect(bridge.sent).toEqual([]);
    bridge.setConnection('open');
    expect(bridge.sent.map((command) => command.name)).toEqual([
      'account:list',
      'uploads:list',
      'uploads:status',
      'app:rateLimits',
      'settings:get',
      'app:updateStatus',
      'folders:list',
      'folders:status',
      'notifications:list',
      'conversions:list',
    ]);
    expect(stores.queue.get().ready).toBe(false);
    await bridge.answerAll(core);
    expect(stores.accounts.get()).toEqual({ data: [ACCOUNT], error: null });
    expect(stores.queue.get()).toMatchObject({ total: 2, ready: true });
    expect(stores.queue.at(1)?.fileName).toBe('clip-2.mp4');
    expect(stores.queueStatus.get().data).toEqual(RUNNING);
    expect(stores.rateLimits.get().get(ACCOUNT.id)?.view).toEqual(LIMIT);
    expect(stores.settings.get().data?.language).toBe('system');
    expect(stores.updates.get().data).toEqual({ state: 'idle', checkedAt: null });
    expect(stores.notifications.get().data?.map((shown) => shown.title)).toEqual(['Uploaded a.mp4']);
    expect(stores.conversions.get().data).toHaveLength(1);
  });

  it('keep what the events say: accounts, the queue, its status, rate limits, updates, the feeds', async () => {
    bridge.setConnection('open');
    await bridge.answerAll(core);
    const told: string[] = [];
    stores.notifications.onDidAdd((added) => told.push(added.title));
    const changes: string[] = [];
    stores.queue.subscribe(() => changes.push('queue'));

    bridge.fire('account:changed', [{ ...ACCOUNT, username: 'renamed' }]);
    bridge.fire('uploads:statusChanged', { ...RUNNING, pause: { until: null } });
    bridge.fire('app:rateLimitChanged', { ...LIMIT, remaining: 0, gateOpensInMs: 30_000, gateReason: 'rate-limited' });
    bridge.fire('app:updateChanged', { state: 'ready', version: '2.0.0' });
    bridge.fire('uploads:itemChanged', item(2, { kind: 'paused', until: null }));
    bridge.fire('uploads:progress', [
      { id: 1, state: { kind: 'uploading', attempt: 0, ackedBytes: 0, sentBytes: 10, totalBytes: 100 } },
    ]);
    bridge.fire('notifications:added', notification(2, 'Uploaded b.mp4'));
    bridge.fire('conversions:changed', follow('f1', 'ready'));
    bridge.fire('conversions:changed', follow('f2', 'uploaded'));

    expect(stores.accounts.get().data?.[0]?.username).toBe('renamed');
    expect(stores.queueStatus.get().data?.pause).toEqual({ until: null });
    expect(stores.rateLimits.get().get(ACCOUNT.id)?.view.gateReason).toBe('rate-limited');
    expect(stores.updates.get().data).toEqual({ state: 'ready', version: '2.0.0' });
    expect(stores.queue.at(1)?.state).toEqual({ kind: 'paused', until: null });
    expect(stores.queue.at(0)?.state.kind).toBe('uploading');
    expect(changes).toEqual(['queue', 'queue']);
    expect(stores.notifications.get().data?.map((shown) => shown.title)).toEqual(['Uploaded b.mp4', 'Uploaded a.mp4']);
    expect(told).toEqual(['Uploaded b.mp4']);
    // one line per file, the latest change on top
    expect(stores.conversions.get().data?.map((line) => [line.fileId, line.state.kind])).toEqual([
      ['f2', 'uploaded'],
      ['f1', 'ready'],
    ]);
  });

  it('give a queue row the same gate while only the budget moves (an event per request), and a new one when the gate closes', async () => {
    bridge.setConnection('open');
    await bridge.answerAll(core);
    // what QueueRow selects of its account's rate limit: it renders again only when this changes
    const rowGate = () => gateOpensAt(stores.rateLimits.get().get(ACCOUNT.id));
    const open = rowGate();
    for (const remaining of [58, 57, 56]) bridge.fire('app:rateLimitChanged', { ...LIMIT, remaining });
    expect(stores.rateLimits.get().get(ACCOUNT.id)?.view.remaining).toBe(56);
    expect(rowGate()).toBe(open);
    bridge.fire('app:rateLimitChanged', { ...LIMIT, remaining: 0, gateOpensInMs: 30_000, gateReason: 'rate-limited' });
    expect(rowGate()).toBeGreaterThan(Date.now() + 29_000);
  });

  it('keep an event that came while the first read was on its way', async () => {
    bridge.setConnection('open');
    bridge.fire('account:changed', [ACCOUNT, { ...ACCOUNT, id: 'acc-2' }]);
    bridge.fire('notifications:added', notification(2, 'Uploaded b.mp4'));
    // both reads were answered before the events were sent: their answers are older
    await bridge.answerAll(core);
    expect(stores.accounts.get().data?.map((account) => account.id)).toEqual([ACCOUNT.id, 'acc-2']);
    expect(stores.notifications.get().data?.map((shown) => shown.title)).toEqual(['Uploaded b.mp4', 'Uploaded a.mp4']);
  });

  it('keep each folder’s status from the events, a newer one over a read’s answer, and read again when folders change', async () => {
    bridge.setConnection('open');
    const counts = () => stores.folderStatus.get().data?.map((status) => status.counts.uploaded);
    // the event comes while the first read is on its way: it is newer than the answer
    bridge.fire('folders:statusChanged', [folderStatus(2, 3)]);
    await bridge.answerAll(core);
    expect(counts()).toEqual([0, 3]);

    bridge.fire('folders:statusChanged', [folderStatus(1, 1)]);
    expect(counts()).toEqual([1, 3]);
    // a folder added or removed: the statuses are read again, in the list's order
    bridge.fire('folders:changed', []);
    expect(bridge.sent.map((command) => command.name)).toEqual(['folders:status']);
    await bridge.answerAll(() => [folderStatus(2, 3)]);
    expect(stores.folderStatus.get().data?.map((status) => status.id)).toEqual([2]);
  });

  it('read everything again when the connection comes back, the rows the window shows included', async () => {
    bridge.setConnection('open');
    await bridge.answerAll(core);
    stores.queue.show(0, 2);
    bridge.setConnection('closed');
    expect(bridge.sent).toEqual([]);
    // the rows stay on screen while the connection is away
    expect(stores.queue.at(0)?.fileName).toBe('clip-1.mp4');

    bridge.setConnection('open');
    expect(bridge.sent.map((command) => command.name)).toContain('account:list');
    await bridge.answerAll((name) =>
      name === 'uploads:list' ? { items: [item(2, { kind: 'cancelled' })], total: 1 } : core(name),
    );
    expect(stores.queue.get()).toMatchObject({ total: 1, ready: true });
    expect(stores.queue.at(0)?.state).toEqual({ kind: 'cancelled' });
    expect(stores.queue.at(1)).toBeUndefined();
  });

  it('take the answer of an action in: a row, a folder, the queue’s status, the settings', async () => {
    bridge.setConnection('open');
    await bridge.answerAll(core);
    const paused = stores.queue.pause(2, { afterChunk: true });
    const folder = stores.folderStatus.pause(1);
    const status = stores.queueStatus.pauseAll({ until: null });
    const settings = stores.settings.update({ language: 'de' });
    expect(bridge.sent.map((command) => [command.name, command.request])).toEqual([
      ['uploads:pause', { id: 2, afterChunk: true }],
      ['folders:pause', { id: 1 }],
      ['uploads:pauseAll', { until: null }],
      ['settings:update', { language: 'de' }],
    ]);
    await bridge.answerAll((name) => {
      if (name === 'uploads:pause') return item(2, { kind: 'paused', until: null });
      if (name === 'folders:pause') return { ...folderStatus(1, 0), paused: true };
      if (name === 'uploads:pauseAll') return { ...RUNNING, pause: { until: null } };
      return { ...DEFAULT_SETTINGS, language: 'de' };
    });
    await Promise.all([paused, folder, status, settings]);
    expect(stores.queue.at(1)?.state).toEqual({ kind: 'paused', until: null });
    expect(stores.folderStatus.get().data?.map((one) => one.paused)).toEqual([true, false]);
    expect(stores.queueStatus.get().data?.pause).toEqual({ until: null });
    expect(stores.settings.get().data?.language).toBe('de');
  });

  it('once disposed, change no more: the core’s events and a reconnection leave them as they were', async () => {
    bridge.setConnection('open');
    await bridge.answerAll(core);
    const before = Object.fromEntries(READ.map((name) => [name, stores[name].get()]));
    const changed: string[] = [];
    for (const name of READ) stores[name].subscribe(() => changed.push(name));

    stores.dispose();
    bridge.fire('account:changed', [{ ...ACCOUNT, username: 'renamed' }]);
    bridge.fire('folders:changed', []);
    bridge.fire('folders:statusChanged', [folderStatus(1, 9)]);
    bridge.fire('uploads:statusChanged', { ...RUNNING, pause: { until: null } });
    bridge.fire('uploads:itemChanged', item(2, { kind: 'paused', until: null }));
    bridge.fire('uploads:removed', { removed: 1 });
    bridge.fire('app:rateLimitChanged', { ...LIMIT, remaining: 0 });
    bridge.fire('app:updateChanged', { state: 'ready', version: '2.0.0' });
    bridge.fire('notifications:added', notification(2, 'Uploaded b.mp4'));
    bridge.fire('conversions:changed', follow('f2', 'uploaded'));
    bridge.setConnection('closed');
    bridge.setConnection('open');

    expect(bridge.sent).toEqual([]);
    expect(changed).toEqual([]);
    expect(Object.fromEntries(READ.map((name) => [name, stores[name].get()]))).toEqual(before);
  });

  it('say why a read failed, and keep what they had', async () => {
    bridge.setConnection('open');
    for (const command of bridge.take()) {
      if (command.name === 'account:list') command.refuse('DISCONNECTED', 'The connection dropped.');
      else command.answer(core(command.name));
    }
    await settle();
    expect(stores.accounts.get()).toEqual({
      data: undefined,
      error: { code: 'DISCONNECTED', message: 'The connection dropped.', requestId: null },
    });
    expect(stores.queue.get().total).toBe(2);
  });
});
