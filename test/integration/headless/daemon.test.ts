import { networkInterfaces } from 'node:os';
import { join, sep } from 'node:path';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { startDaemon, type Daemon } from '../../../src-main/headless/daemon.js';
import { IPC_COMMANDS } from '../../../src-shared/ipc/ipc-contract.js';
import { WsResultSchema } from '../../../src-shared/ipc/ws-protocol.js';
import { requestForEveryCommand, VOLATILE_COMMANDS, withoutRequestId } from '../../helpers/contract-requests.js';
import { callCore, createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { rawRequest } from '../../helpers/raw-http.js';
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
    // the daemon writes dropped files where the core knows them as the page's
    const dropDir = join(data.path, 'dropped');
    core = createAppCore(engine, data.path, { droppedFilesDir: dropDir });
    await core.start();
    daemon = await startDaemon({ core, port: 0, sessionKey: KEY, dropDir });
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
  const wsUrl = () => `ws://127.0.0.1:${daemon.port}/ipc`;
  /** the cookie of earlier versions, which held the key and went to every port of 127.0.0.1 */
  const oldCookie = { cookie: `media_sync_session=${KEY}` };

  it('serves the page to anyone and sets no cookie; the socket opens only for the key in its handshake', async () => {
    expect(daemon.url).toBe(`${origin()}/?key=${KEY}`);
    for (const address of [daemon.url, `${origin()}/`, `${origin()}/?key=${'x'.repeat(32)}`]) {
      const loaded = await fetch(address);
      expect(loaded.status, address).toBe(200);
      // a browser sends a cookie to every port of the host: none is set, so none can carry the key elsewhere
      expect(loaded.headers.get('set-cookie'), address).toBeNull();
      expect(loaded.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|unsafe-eval/);
    }
    // a browser that visited an earlier version still sends its cookie: the page makes it forget it
    expect((await fetch(`${origin()}/`, { headers: oldCookie })).headers.get('set-cookie')).toBe(
      'media_sync_session=; Max-Age=0; HttpOnly; SameSite=Strict; Path=/',
    );

    await expect(connectContract(wsUrl(), null)).rejects.toThrow('HTTP 401');
    await expect(connectContract(wsUrl(), 'w'.repeat(32))).rejects.toThrow('HTTP 401');
    // nothing a browser sends by itself opens it: not the old cookie, not the key in the address
    await expect(connectContract(wsUrl(), null, oldCookie)).rejects.toThrow('HTTP 401');
    await expect(connectContract(`${wsUrl()}?key=${KEY}`, null)).rejects.toThrow('HTTP 401');
    // a page of another site does not get in even with the key
    await expect(connectContract(wsUrl(), KEY, { Origin: 'http://evil.example' })).rejects.toThrow('HTTP 401');
    client = await connectContract(wsUrl(), KEY, { Origin: origin() });
    expect(await client.invoke('app:info', {})).toMatchObject({ ok: true, value: { shell: 'headless' } });
  });

  it('serves the page uncached and its hashed assets as immutable', async () => {
    const ui = join(data.path, 'ui');
    await mkdir(join(ui, 'assets'), { recursive: true });
    await writeFile(join(ui, 'index.html'), '<!doctype html><title>Media Sync</title>');
    await writeFile(join(ui, 'assets', 'index-Ab12Cd34.js'), 'export {};');
    const withUi = await startDaemon({ core, port: 0, sessionKey: KEY, staticDir: ui });
    try {
      const at = (path: string) => fetch(`http://127.0.0.1:${withUi.port}${path}`);
      expect((await at(`/?key=${KEY}`)).headers.get('cache-control')).toBe('no-store');
      const asset = await at('/assets/index-Ab12Cd34.js');
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/javascript/);
      expect(asset.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect((await at('/assets/missing.js')).headers.get('cache-control')).toBe('no-store');
    } finally {
      await withUi.close();
    }
  });

  it('serves the page as built, for a signed-in account with a queue too, with nothing inline allowed', async () => {
    const ui = join(data.path, 'ui');
    await mkdir(join(ui, 'assets'), { recursive: true });
    await mkdir(join(ui, '.private'));
    await writeFile(join(ui, '.private', 'notes.txt'), 'not for the page');
    const built =
      '<!doctype html><title>Media Sync</title><script type="module" src="./assets/index-A1.js"></script><div id="root"></div>';
    await writeFile(join(ui, 'index.html'), built);
    const withUi = await startDaemon({ core, port: 0, sessionKey: KEY, staticDir: ui });
    try {
      const { account } = await engine.signIn(server.baseUrl, server.token);
      await engine.queue.pauseAll(null);
      const path = join(data.path, 'holiday.mp4');
      await writeFile(path, 'a paused upload');
      await callCore(core, 'uploads:addPaths', { accountId: account.id, paths: [path] });
      const page = await fetch(withUi.url);
      // the app draws its rows itself, from the socket: the page is the build's, byte for byte
      expect(await page.text()).toBe(built);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toMatch(/style-src|unsafe-inline|unsafe-eval|sha256-/);
      for (const asked of ['/.private/notes.txt', '/assets/../.private/notes.txt']) {
        expect((await fetch(`http://127.0.0.1:${withUi.port}${asked}`)).status, asked).toBe(404);
      }
    } finally {
      await withUi.close();
    }
  });

  it('answers 421 to a request for any other host, even with the key (DNS rebinding), and serves its own names', async () => {
    const port = daemon.port;
    const foreign = [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `localhost.:${port}`,
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      `[::2]:${port}`,
      `0.0.0.0:${port}`,
    ];
    for (const host of foreign) {
      for (const path of ['/', `/?key=${KEY}`, `/drop?name=a.mp4&account=x`, '/session']) {
        const answer = await rawRequest(`${origin()}${path}`, {
          method: path.startsWith('/drop') ? 'POST' : 'GET',
          headers: { Host: host, 'X-Media-Sync-Key': KEY, Origin: `http://${host}` },
          body: path.startsWith('/drop') ? 'bytes' : undefined,
        });
        expect({ host, path, status: answer.status, body: answer.text }).toEqual({
          host,
          path,
          status: 421,
          body: 'Misdirected Request',
        });
        // nothing of the app leaks to a page of another site: no policy, no page
        expect(answer.headers['content-security-policy'], host).toBeUndefined();
      }
      await expect(connectContract(wsUrl(), KEY, { Host: host, Origin: `http://${host}` }), host).rejects.toThrow(
        'HTTP 421',
      );
      await expect(connectContract(wsUrl(), KEY, { Host: host }), host).rejects.toThrow('HTTP 421');
    }

    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`, `[::1]:${port}`]) {
      const loaded = await rawRequest(daemon.url, { headers: { Host: host } });
      expect(loaded.status, host).toBe(200);
      // the page's own origin is the host it was opened with
      const own = `http://${host.toLowerCase()}`;
      const socket = await connectContract(wsUrl(), KEY, { Host: host, Origin: own });
      expect(await socket.invoke('app:info', {}), host).toMatchObject({ ok: true, value: { shell: 'headless' } });
      socket.close();
      const drop = await rawRequest(`${origin()}/drop?name=&account=x`, {
        method: 'POST',
        headers: { Host: host, Origin: own, 'X-Media-Sync-Key': KEY },
        body: 'bytes',
      });
      // past the host and origin checks: refused for its empty name, not as another site
      expect(drop.status, host).toBe(400);
    }
    // HTTP/1.0 may leave Host out: no name is not the daemon's name either
    const noHost = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => socket.end(`GET /?key=${KEY} HTTP/1.0\r\n\r\n`));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(noHost).toMatch(/^HTTP\/1\.1 421 Misdirected Request\r\n/);
    expect(noHost.endsWith('\r\n\r\nMisdirected Request')).toBe(true);

    // another of the daemon's names is still another origin
    await expect(
      connectContract(wsUrl(), KEY, { Host: `127.0.0.1:${port}`, Origin: `http://localhost:${port}` }),
    ).rejects.toThrow('HTTP 401');
    const crossName = await rawRequest(`${origin()}/drop?name=a.mp4&account=x`, {
      method: 'POST',
      headers: { Host: `localhost:${port}`, Origin: origin(), 'X-Media-Sync-Key': KEY },
      body: 'bytes',
    });
    expect(crossName.status).toBe(403);
  });

  it('tells a page whether its key still opens the daemon (GET /session), the same way either way, and nothing more', async () => {
    const ask = (headers: Record<string, string> = {}, path = '/session', method = 'GET') =>
      rawRequest(`${origin()}${path}`, { method, headers });
    const answers = [
      await ask({ 'X-Media-Sync-Key': KEY }),
      // a key made anew since (`media-sync serve --new-key`)
      await ask({ 'X-Media-Sync-Key': 's'.repeat(32) }),
      await ask(),
      // neither the key of the address nor a cookie is the page's key
      await ask({}, `/session?key=${KEY}`),
      await ask(oldCookie),
    ];
    expect(answers.map((answer) => answer.json)).toEqual([
      { session: 'valid' },
      { session: 'refused' },
      { session: 'refused' },
      { session: 'refused' },
      { session: 'refused' },
    ]);
    for (const answer of answers) {
      // one status and one set of headers whatever the answer; no CORS, and another origin cannot embed it
      expect(answer.status).toBe(200);
      expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    expect((await ask({ 'X-Media-Sync-Key': KEY }, '/session', 'POST')).status).toBe(405);
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
    client = await connectContract(wsUrl(), KEY);
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
    expect(await client.invoke('uploads:pauseAll', { until: 'forever' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    });
  });

  it('pushes events: a file added through the socket is seen going from queued to done', async () => {
    client = await connectContract(wsUrl(), KEY);
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
    // no details to PATCH: from the last answer to done in one event, no `finalizing` in between
    expect(kinds).toEqual(['queued', 'uploading', 'done']);
    expect(JSON.stringify(client.events)).not.toContain(server.token);
  });

  it('queues a file dropped on the page: key header and same origin required, the name reduced to a file name', async () => {
    client = await connectContract(wsUrl(), KEY);
    const signedIn = (await client.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token })) as {
      value: { id: string };
    };
    const accountId = signedIn.value.id;
    const drop = (name: string, body: string, headers: Record<string, string>) =>
      fetch(`${origin()}/drop?name=${encodeURIComponent(name)}&account=${accountId}`, {
        method: 'POST',
        body,
        headers,
      });
    const page = { 'X-Media-Sync-Key': KEY, Origin: origin() };

    expect((await drop('clip.mp4', 'bytes', { Origin: origin() })).status).toBe(401);
    // what a browser sends to every port by itself opens no drop: the old cookie, the key in the address
    expect((await drop('clip.mp4', 'bytes', { ...oldCookie, Origin: origin() })).status).toBe(401);
    const inAddress = await fetch(`${origin()}/drop?name=a.mp4&account=${accountId}&key=${KEY}`, {
      method: 'POST',
      body: 'bytes',
      headers: { Origin: origin() },
    });
    expect(inAddress.status).toBe(401);
    const crossSite = await drop('clip.mp4', 'bytes', { ...page, Origin: 'http://evil.example' });
    expect(crossSite.status).toBe(403);
    expect((await drop('clip.mp4', 'bytes', { 'X-Media-Sync-Key': KEY })).status).toBe(403);
    const noName = await drop('', 'bytes', page);
    expect(noName.status).toBe(400);
    expect(await noName.json()).toMatchObject({
      ok: false,
      error: { message: 'The dropped file has no usable name.' },
    });
    expect((await drop('..', 'bytes', page)).status).toBe(400);
    const empty = await drop('empty.mp4', '', page);
    expect(await empty.json()).toMatchObject({ ok: false, error: { message: expect.stringContaining('is empty') } });
    const unknownAccount = await fetch(`${origin()}/drop?name=a.mp4&account=nobody`, {
      method: 'POST',
      body: 'x',
      headers: page,
    });
    expect(unknownAccount.status).toBe(400);

    // a body over the plan's limit is refused from its Content-Length, before anything is written
    const tooLarge = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${origin()}/drop?name=huge.mp4&account=${accountId}`, {
        method: 'POST',
        headers: { ...page, 'Content-Length': String(5 * 1024 ** 3) },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          resolve({ status: response.statusCode!, body });
          request.destroy();
        });
      });
      request.on('error', reject);
      request.write('a start');
    });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body)).toMatchObject({ error: { message: expect.stringContaining('4 GiB') } });

    const dropped = await drop('../../outside/evil\u0000.mp4', 'dropped on the page', page);
    expect(dropped.status).toBe(200);
    const { value } = (await dropped.json()) as { value: { id: number; path: string; fileName: string }[] };
    expect(value).toMatchObject([{ fileName: 'evil.mp4', state: { kind: 'queued' } }]);
    expect(value[0]!.path.startsWith(join(data.path, 'dropped') + sep)).toBe(true);
    expect(await readFile(value[0]!.path, 'utf8')).toBe('dropped on the page');

    await waitFor(
      () =>
        client!.events.some(
          (e) => e.event === 'uploads:itemChanged' && JSON.stringify(e.payload).includes('"kind":"done"'),
        )
          ? true
          : undefined,
      15_000,
      'the dropped file uploaded',
    );
    // the daemon's copy goes once the file is on the service
    await waitFor(
      () =>
        access(value[0]!.path).then(
          () => undefined,
          () => true,
        ),
      5_000,
      'the copy removed',
    );
  });

  it('listens to the core only while a page is open; with none, a dropped file is still uploaded and its copy removed', async () => {
    // how many of the daemon's subscriptions to the core's events are open now
    let listening = 0;
    const onDidEmit = core.onDidEmit;
    Object.defineProperty(core, 'onDidEmit', {
      value: (listener: Parameters<typeof onDidEmit>[0]) => {
        listening++;
        const subscription = onDidEmit(listener);
        return { dispose: () => (listening--, subscription.dispose()) };
      },
    });
    const { id: accountId } = await callCore(core, 'account:signIn', { baseUrl: server.baseUrl, token: server.token });
    const drop = async (name: string) => {
      const response = await fetch(`${origin()}/drop?name=${name}&account=${accountId}`, {
        method: 'POST',
        body: `dropped ${name}`,
        headers: { 'X-Media-Sync-Key': KEY, Origin: origin() },
      });
      const { value } = (await response.json()) as { value: { path: string }[] };
      return value[0]!.path;
    };
    const gone = (path: string) =>
      waitFor(
        () =>
          access(path).then(
            () => undefined,
            () => true,
          ),
        15_000,
        `${path} uploaded and removed`,
      );

    // no page was ever open: nothing listens, and the upload and its clean-up happen all the same
    const alone = await drop('alone.mp4');
    await gone(alone);
    expect(listening).toBe(0);
    expect((await server.api('/files?search=alone')).json).toMatchObject({ meta: { total: 1 } });

    // a page that opens hears the next upload; once the last page closed, one that opens again does too
    for (const name of ['first-page.mp4', 'page-again.mp4']) {
      client = await connectContract(wsUrl(), KEY);
      await gone(await drop(name));
      expect(
        client.events.some(
          (e) =>
            e.event === 'uploads:itemChanged' &&
            JSON.stringify(e.payload).includes(`"fileName":"${name}"`) &&
            JSON.stringify(e.payload).includes('"kind":"done"'),
        ),
        name,
      ).toBe(true);
      expect(listening).toBe(1);
      client.close();
      client = undefined;
      await waitFor(() => (listening === 0 ? true : undefined), 5_000, 'the daemon no longer listening');
    }
  });
});
