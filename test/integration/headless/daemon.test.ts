import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { MemorySettingsStore, NO_DESKTOP } from '../../../src-main/core/ports.js';
import { startDaemon, type Daemon } from '../../../src-main/headless/daemon.js';
import { IPC_COMMANDS } from '../../../src-shared/ipc/ipc-contract.js';
import { WsResultSchema } from '../../../src-shared/ipc/ws-protocol.js';
import { requestForEveryCommand, VOLATILE_COMMANDS, withoutRequestId } from '../../helpers/contract-requests.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { connectContract, type WsContractClient } from '../../helpers/ws-client.js';

const KEY = 'k'.repeat(32);

describe('the headless daemon', () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let core: AppCore;
  let daemon: Daemon;
  let client: WsContractClient | undefined;

  beforeEach(async () => {
    server = await startTestServer();
    data = await tempDir('media-sync-daemon-');
    engine = await Engine.open({ dataDir: data.path, settleMs: 300 });
    core = new AppCore({
      engine,
      settings: new MemorySettingsStore(),
      shell: NO_DESKTOP,
      info: { version: '0.1.0', shell: 'headless', dataDir: data.path },
      tokenStorage: 'a file only your user can read (0600)',
    });
    await core.start();
    daemon = await startDaemon({ core, port: 0, sessionKey: KEY });
  });

  afterEach(async () => {
    client?.close();
    client = undefined;
    await daemon.close();
    await core.dispose();
    await engine.close();
    await server.close();
    await data.remove();
  });

  const origin = () => `http://127.0.0.1:${daemon.port}`;
  const wsUrl = (key: string | null = KEY) => `ws://127.0.0.1:${daemon.port}/ipc${key ? `?key=${key}` : ''}`;

  it('answers 401 without the session key, and sets it as a strict cookie when the page is opened with it', async () => {
    expect(daemon.url).toBe(`${origin()}/?key=${KEY}`);
    expect((await fetch(`${origin()}/`)).status).toBe(401);
    expect((await fetch(`${origin()}/?key=${'x'.repeat(32)}`)).status).toBe(401);
    const page = await fetch(daemon.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBe(`media_sync_session=${KEY}; HttpOnly; SameSite=Strict; Path=/`);
    expect(page.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect((await fetch(`${origin()}/`, { headers: { cookie: `media_sync_session=${KEY}` } })).status).toBe(200);

    await expect(connectContract(wsUrl(null))).rejects.toThrow('HTTP 401');
    await expect(connectContract(wsUrl('wrong'))).rejects.toThrow('HTTP 401');
    // a page of another site must not drive the app with the person's cookie
    await expect(connectContract(wsUrl(), { Origin: 'http://evil.example' })).rejects.toThrow('HTTP 401');
  });

  it('listens on 127.0.0.1 only', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    if (!external) return expect(daemon.url.startsWith('http://127.0.0.1:')).toBe(true);
    const refused = await new Promise<string>((resolve) => {
      const socket = connect({ host: external.address, port: daemon.port });
      socket.once('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });

  it('carries every contract command over the WebSocket exactly as in process, and refuses malformed messages', async () => {
    client = await connectContract(wsUrl());
    const signedIn = await client.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    expect(signedIn.ok).toBe(true);
    const accountId = (signedIn as { value: { id: string } }).value.id;
    const requests = requestForEveryCommand({ accountId, baseUrl: server.baseUrl, dataDir: data.path });
    const file = requests['files:get'];
    expect(Object.keys(requests).sort()).toEqual(Object.keys(IPC_COMMANDS).sort());
    for (const [name, request] of Object.entries(requests)) {
      const overSocket = await client.invoke(name, request);
      expect(WsResultSchema.shape.result.safeParse(overSocket).success, name).toBe(true);
      if (!VOLATILE_COMMANDS.has(name))
        expect(withoutRequestId(overSocket), name).toEqual(withoutRequestId(await core.handle(name, request)));
    }
    expect(await client.invoke('files:get', file)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await client.invoke('imports:create', requests['imports:create'])).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    });

    expect(await client.sendRaw('not json')).toMatchObject({
      id: null,
      result: { ok: false, error: { code: 'VALIDATION_ERROR' } },
    });
    expect(await client.invoke('uploads:pauseAll', { hours: 'forever' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    });
  });

  it('pushes events: a file added through the socket is seen going from queued to done', async () => {
    client = await connectContract(wsUrl());
    const signedIn = (await client.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token })) as {
      value: { id: string };
    };
    const path = join(data.path, 'dropped.mp4');
    await writeFile(path, 'dropped on the window');
    expect(await client.invoke('uploads:addPaths', { accountId: signedIn.value.id, paths: [path] })).toMatchObject({
      ok: true,
      value: [{ fileName: 'dropped.mp4', state: { kind: 'queued' } }],
    });
    await waitFor(
      () =>
        client!.events.some((e) => e.event === 'uploads:itemChanged' && JSON.stringify(e.payload).includes('"done"'))
          ? true
          : undefined,
      15_000,
      'the done event',
    );
    const kinds = client.events
      .filter((e) => e.event === 'uploads:itemChanged')
      .map((e) => (e.payload as { state: { kind: string } }).state.kind);
    expect(kinds).toEqual(['queued', 'uploading', 'finalizing', 'done']);
    expect(JSON.stringify(client.events)).not.toContain(server.token);
  });
});
