import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLog } from '../../../src-main/common/file-log.js';
import { AppCore, type CoreEvent } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { MemorySettingsStore, NO_DESKTOP } from '../../../src-main/core/ports.js';
import type { IpcCommandName, IpcRequest } from '../../../src-shared/ipc/ipc-contract.js';
import { callCore } from '../../helpers/app-core-fixture.js';
import { startHttpProxy } from '../../helpers/http-proxy.js';
import { startLocalHttpServer, waitFor } from '../../helpers/local-http-server.js';
import { fakeMp4, serve } from '../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { tempDir } from '../../helpers/engine-fixture.js';

describe('AppCore against the reference server', () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let watched: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let core: AppCore;
  let events: CoreEvent[];
  const opened: string[] = [];
  const clipboard: string[] = [];

  beforeEach(async () => {
    server = await startTestServer({ allowPrivateTargets: true, conversions: false });
    data = await tempDir('media-sync-core-');
    watched = await tempDir('media-sync-core-watched-');
    engine = await Engine.open({ dataDir: data.path, settleMs: 300 });
    core = new AppCore({
      engine,
      settings: new MemorySettingsStore(),
      shell: {
        ...NO_DESKTOP,
        openExternal: async (url) => void opened.push(url),
        writeClipboard: async (text) => void clipboard.push(text),
      },
      info: { version: '0.1.0', shell: 'headless', dataDir: data.path },
      tokenStorage: 'a file only your user can read (0600)',
      notificationMergeMs: 200,
      // a watched folder's batch, a minute in the app
      notificationBatchMs: 200,
      importPollMs: 200,
    });
    events = [];
    core.onDidEmit((event) => events.push(event));
    await core.start();
  });

  afterEach(async () => {
    await core.dispose();
    await engine.close();
    await server.close();
    await data.remove();
    await watched.remove();
  });

  // the boundary itself: requests as any transport carries them, answers as they cross it
  const call = (name: string, request: unknown = {}) => core.handle(name, request);
  const invoke = <N extends IpcCommandName>(name: N, request: IpcRequest<N>) => callCore(core, name, request);
  const signIn = () => invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });

  it("signs in with a token and never hands it back; a bad token gets the server's reason and request id", async () => {
    const bad = await call('account:signIn', { baseUrl: server.baseUrl, token: 'mfs_wrong' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED', message: 'Unauthenticated.' } });
    expect(bad.ok ? null : bad.error.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const account = await signIn();
    expect(account).toEqual({
      id: account.id,
      baseUrl: server.baseUrl,
      username: 'demo',
      plan: 'free',
      blocked: null,
      tokenStorage: 'a file only your user can read (0600)',
    });
    expect(await call('account:summary', { accountId: account.id })).toMatchObject({
      ok: true,
      value: { username: 'demo', files: 0 },
    });
  });

  it('refuses malformed and unknown commands with a clear error, changing nothing', async () => {
    const account = await signIn();
    expect(await call('folders:add', { accountId: account.id })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('Invalid request for folders:add') },
    });
    expect(await call('uploads:pauseAll', { until: 'in 5 hours' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    });
    expect(await call('files:delete', { accountId: account.id, fileId: 'a/../b' })).toMatchObject({ ok: false });
    expect(await call('shell:exec', { command: 'rm -rf /' })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_COMMAND' },
    });
    expect(await call('folders:list')).toEqual({ ok: true, value: [] });
    expect(await call('uploads:status')).toMatchObject({ ok: true, value: { pause: null } });
  });

  it('a file dropped into a watched folder goes from queued to done in the events, with one merged notification', async () => {
    const account = await signIn();
    const added = await call('folders:add', {
      accountId: account.id,
      path: watched.path,
      options: { visibility: 'public' },
    });
    expect(added).toMatchObject({ ok: true, value: { path: watched.path, options: { visibility: 'public' } } });
    await writeFile(join(watched.path, 'clip.mp4'), 'a small clip');
    await waitFor(() => events.find((e) => e.name === 'notifications:added'), 15_000, 'the notification');

    const kinds = events
      .filter((e) => e.name === 'uploads:itemChanged')
      .map((e) => (e.payload as { state: { kind: string } }).state.kind);
    // no details to PATCH: from the last answer to done in one event, no `finalizing` in between
    expect(kinds).toEqual(['queued', 'uploading', 'done']);
    const notification = events.find((e) => e.name === 'notifications:added')!.payload as {
      title: string;
      link: string;
    };
    expect(notification).toMatchObject({ title: 'Uploaded', body: 'clip.mp4', kind: 'uploadsDone' });
    expect(notification.link).toMatch(new RegExp(`^${server.fileHost}/[A-Za-z0-9_-]+/file$`));

    const file = (await invoke('files:list', { accountId: account.id, perPage: 25 })).data[0]!;
    expect(file.visibility).toBe('public');
    expect(await call('files:copyLink', { accountId: account.id, fileId: file.id, kind: 'watch' })).toEqual({
      ok: true,
      value: { url: `${server.fileHost}/${file.id}/watch` },
    });
    expect(clipboard).toEqual([`${server.fileHost}/${file.id}/watch`]);
    const updated = await call('files:update', {
      accountId: account.id,
      fileId: file.id,
      changes: { name: 'Renamed' },
    });
    expect(updated).toMatchObject({ ok: true, value: { name: 'Renamed' } });
    expect(await call('files:delete', { accountId: account.id, fileId: file.id })).toEqual({
      ok: true,
      value: { ok: true },
    });
    // "Clear finished": the answer counts it, and every page hears it to read its rows again
    expect(await call('uploads:clearFinished')).toEqual({ ok: true, value: { removed: 1 } });
    expect(events.filter((e) => e.name === 'uploads:removed').map((e) => e.payload)).toEqual([{ removed: 1 }]);
  });

  it('files:update drops control and direction characters from a name, as the server does; a name of nothing else is refused unsent', async () => {
    const account = await signIn();
    const uploaded = await server.upload({}, { filename: 'clip.txt', content: Buffer.from('x') });
    const fileId = uploaded.json.data.id as string;
    const renamed = await call('files:update', {
      accountId: account.id,
      fileId,
      changes: { name: 'Holiday\u202e4pm.mp4\u0000' },
    });
    expect(renamed).toMatchObject({ ok: true, value: { name: 'Holiday4pm.mp4' } });
    const sent = () => server.server.requestLog.entries().filter((entry) => entry.method === 'PATCH').length;
    const before = sent();
    const refused = await call('files:update', { accountId: account.id, fileId, changes: { name: '\u202e\u0000' } });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('must not be blank') },
    });
    expect(sent()).toBe(before);
    expect((await server.api(`/files/${fileId}`)).json.data.name).toBe('Holiday4pm.mp4');
  });

  it('settings change the engine at once, and a canary token shows up in no event, setting, export or database', async () => {
    const account = await signIn();
    const changed = await call('settings:update', {
      bandwidthBytesPerSecond: 5_000_000,
      notifications: { uploadsDone: false },
    });
    expect(changed).toMatchObject({ ok: true, value: { bandwidthBytesPerSecond: 5_000_000, concurrency: 3 } });
    expect(engine.limiter.limit).toBe(5_000_000);
    expect(await call('uploads:status')).toMatchObject({ ok: true, value: { bandwidthBytesPerSecond: 5_000_000 } });

    const path = join(watched.path, 'canary.mp4');
    await writeFile(path, 'canary');
    await call('uploads:addPaths', { accountId: account.id, paths: [path] });
    await waitFor(
      () =>
        events.some((e) => e.name === 'uploads:itemChanged' && JSON.stringify(e.payload).includes('"done"'))
          ? true
          : undefined,
      15_000,
      'the upload',
    );
    const diagnostics = await call('app:diagnostics');
    const settings = await call('settings:get');
    const stored = await Promise.all(
      (await readdir(data.path))
        .filter((name) => name.startsWith('media-sync.db'))
        .map((name) => readFile(join(data.path, name))),
    );
    const everything =
      JSON.stringify([events, diagnostics, settings, await call('account:list')]) +
      Buffer.concat(stored).toString('latin1');
    expect(everything).not.toContain(server.token);
    expect((await invoke('app:diagnostics', {})).json).toContain('"done": 1');
  });

  it('a settings file with one bad field loses that field only, and the log names it', async () => {
    const log = createFileLog({ dir: join(data.path, 'logs') });
    const saved = { concurrency: 5, bandwidthBytesPerSecond: -3, language: 'de', pauseOnBattery: true };
    const other = new AppCore({
      engine,
      settings: { read: () => saved, write: () => undefined },
      shell: NO_DESKTOP,
      info: { version: '0.1.0', shell: 'headless', dataDir: data.path },
      tokenStorage: 'a file only your user can read (0600)',
      log,
    });
    try {
      expect(await callCore(other, 'settings:get', {})).toMatchObject({
        concurrency: 5,
        bandwidthBytesPerSecond: null,
        language: 'de',
        pauseOnBattery: true,
      });
      const lines = await log.recent(10);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('Settings that could not be read took their defaults: bandwidthBytesPerSecond.');
    } finally {
      await other.dispose();
      await log.close();
    }
  });

  it('follows imports with one list request per poll, notifies completed (with its link) and failed, then stops polling', async () => {
    const source = await startLocalHttpServer();
    source.route('/clip.mp4', serve(fakeMp4(40_000), 'video/mp4'));
    try {
      const account = await signIn();
      const created = await call('imports:create', {
        accountId: account.id,
        body: { urls: [`${source.origin}/clip.mp4`, `${source.origin}/missing.mp4`], name: 'Clip' },
      });
      expect(created).toMatchObject({ ok: true, value: [{ status: 'pending' }, { status: 'pending' }] });
      await waitFor(
        () => (events.filter((e) => e.name === 'notifications:added').length >= 2 ? true : undefined),
        15_000,
        'two notifications',
      );
      const notes = events
        .filter((e) => e.name === 'notifications:added')
        .map((e) => e.payload as Record<string, unknown>);
      const completed = notes.find((n) => n.kind === 'importCompleted')!;
      const failed = notes.find((n) => n.kind === 'importFailed')!;
      expect(completed).toMatchObject({ title: 'Import completed', body: 'Clip' });
      expect(completed.link).toMatch(new RegExp(`^${server.fileHost}/[A-Za-z0-9_-]+/file$`));
      expect(failed).toMatchObject({ title: 'Import failed: Clip', body: expect.stringMatching(/404/) });

      // all final: no more list requests
      const lists = () =>
        server.server.requestLog.entries().filter((r) => r.path === '/api/v1/remote-uploads' && r.method === 'GET');
      const settled = lists().length;
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(lists().length).toBe(settled);
      expect(events.some((e) => e.name === 'imports:changed')).toBe(true);
    } finally {
      await source.close();
    }
  });

  it("after Clear finished, a new upload gets a number of its own and its row shows its own file's conversion", async () => {
    const account = await signIn();
    const clip = join(watched.path, 'clip.mp4');
    await writeFile(clip, fakeMp4(20_000));
    const [first] = await invoke('uploads:addPaths', { accountId: account.id, paths: [clip] });
    await engine.queue.whenIdle();
    const followed = (await invoke('uploads:list', {})).items[0]!.afterUpload;
    expect(followed).toMatchObject({ name: 'clip.mp4', uploadId: first!.id });

    // a queue cleared of every item does not give its numbers again (the earlier upload's conversion names it)
    await invoke('uploads:clearFinished', {});
    const photo = join(watched.path, 'photo.jpg');
    await writeFile(photo, 'a photo');
    const [second] = await invoke('uploads:addPaths', { accountId: account.id, paths: [photo] });
    expect(second!.id).toBe(first!.id + 1);
    await engine.queue.whenIdle();
    const rows = events.flatMap(({ name, payload }) => {
      const row = payload as { id: number; fileName: string; afterUpload: { fileId: string } | null };
      return name === 'uploads:itemChanged' && row.fileName === 'photo.jpg' ? [row] : [];
    });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.afterUpload?.fileId === followed!.fileId)).toEqual([]);
    expect((await invoke('uploads:list', {})).items[0]!.afterUpload).not.toMatchObject({ fileId: followed!.fileId });
  });

  it('pages the queue: uploads:list answers one page in queue order and the length of the whole queue', async () => {
    const account = await signIn();
    await call('uploads:pauseAll', { until: null });
    const paths: string[] = [];
    for (let i = 0; i < 5; i++) {
      paths.push(join(watched.path, `page-${i}.mp4`));
      await writeFile(paths[i]!, `clip ${i}`);
    }
    const ids = (await invoke('uploads:addPaths', { accountId: account.id, paths })).map((item) => item.id);
    const page = await invoke('uploads:list', { offset: 1, limit: 2 });
    expect(page.total).toBe(5);
    expect(page.items.map((item) => [item.id, item.fileName])).toEqual([
      [ids[1], 'page-1.mp4'],
      [ids[2], 'page-2.mp4'],
    ]);
    expect(await call('uploads:list', { offset: 5, limit: 2 })).toEqual({ ok: true, value: { items: [], total: 5 } });
  });

  it("tells the UI of an account's rate limit and of a refused token as they happen", async () => {
    const account = await signIn();
    expect((await call('account:summary', { accountId: account.id })).ok).toBe(true);
    const budget = events.find((e) => e.name === 'app:rateLimitChanged')?.payload;
    expect(budget).toMatchObject({ accountId: account.id, limit: 60, gateOpensInMs: 0, gateReason: null });

    server.admin(['token', 'disable'], { token: server.token });
    expect(await call('account:summary', { accountId: account.id })).toMatchObject({
      ok: false,
      error: { code: 'TOKEN_DISABLED' },
    });
    const changed = events.filter((e) => e.name === 'account:changed').at(-1)?.payload as {
      blocked: { code: string } | null;
    }[];
    expect(changed[0]?.blocked).toMatchObject({ code: 'TOKEN_DISABLED' });

    server.admin(['token', 'enable'], { token: server.token });
    await signIn();
    const again = events.filter((e) => e.name === 'account:changed').at(-1)?.payload as { blocked: unknown }[];
    expect(again[0]?.blocked).toBeNull();
  });

  it('sends API traffic through the proxy named in settings, and directly again once it is cleared', async () => {
    const account = await signIn();
    const proxy = await startHttpProxy();
    try {
      const host = new URL(server.baseUrl).host;
      expect((await call('settings:update', { proxyUrl: proxy.url })).ok).toBe(true);
      const through = await call('account:summary', { accountId: account.id });
      expect(through.ok).toBe(true);
      expect(proxy.carried).toContain(host);

      const carriedBefore = proxy.carried.length;
      expect((await call('settings:update', { proxyUrl: null })).ok).toBe(true);
      expect((await call('account:summary', { accountId: account.id })).ok).toBe(true);
      expect(proxy.carried).toHaveLength(carriedBefore);
    } finally {
      await proxy.close();
    }
  });
});
