import { createServer, type Server } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Log } from '../../../src-main/common/file-log.js';
import type { DemoServerPort } from '../../../src-main/core/ports.js';
import { localDemoServer } from '../../../src-main/demo/local-demo-server.js';
import { Engine } from '../../../src-main/core/engine.js';
import { callCore, createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir, writeRandomFile } from '../../helpers/engine-fixture.js';
import { memoryLog } from '../../helpers/memory-log.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer } from '../../helpers/test-server.js';

describe('the local demo server ("Try it locally")', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  const demos: DemoServerPort[] = [];
  let blocker: Server | undefined;

  beforeEach(async () => {
    data = await tempDir('media-sync-demo-');
  });

  afterEach(async () => {
    for (const demo of demos.splice(0)) await demo.stop();
    await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
    blocker = undefined;
    await data.remove();
  });

  function demoServer(log?: Log): DemoServerPort {
    const demo = localDemoServer(data.path, log);
    demos.push(demo);
    return demo;
  }

  /** An app start on the data folder: the engine, then the core (which starts what it must), as the shells do. */
  async function openApp(demo: DemoServerPort) {
    const engine = await Engine.open({ dataDir: data.path });
    const core = createAppCore(engine, data.path, { demo });
    await core.start();
    return {
      engine,
      core,
      async close() {
        await core.dispose();
        await engine.close();
        await demo.stop();
      },
    };
  }

  async function signInToDemo(demo: DemoServerPort): Promise<{ id: string; baseUrl: string }> {
    const app = await openApp(demo);
    try {
      return await callCore(app.core, 'account:startDemo', {});
    } finally {
      await app.close();
    }
  }

  it('starts on 127.0.0.1, signs the app in, and comes back on the same port with the same account', async () => {
    const demo = demoServer();
    const engine = await Engine.open({ dataDir: data.path });
    const core = createAppCore(engine, data.path, { demo });
    try {
      const first = await callCore(core, 'account:startDemo', {});
      expect(first).toMatchObject({ username: 'demo', blocked: null });
      const { id, baseUrl } = first;
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect(await callCore(core, 'account:summary', { accountId: id })).toMatchObject({ username: 'demo' });

      await demo.stop();
      expect(await callCore(core, 'account:startDemo', {})).toMatchObject({ baseUrl, id });
      expect(await callCore(core, 'account:list', {})).toMatchObject([{ baseUrl }]);
    } finally {
      await core.dispose();
      await engine.close();
    }
  });

  it('comes back by itself, at the same address, when the app starts with the demo account signed in', async () => {
    const { id, baseUrl } = await signInToDemo(demoServer());
    const log = memoryLog();
    const app = await openApp(demoServer(log));
    try {
      expect(await callCore(app.core, 'account:summary', { accountId: id })).toMatchObject({ username: 'demo' });
      expect(log.lines).toEqual([`INFO The local demo server is back at ${baseUrl} for the demo account.`]);
    } finally {
      await app.close();
    }
  });

  it('moves the demo account to a free port when another program took its port, and its queue goes on', async () => {
    const { id, baseUrl } = await signInToDemo(demoServer());
    const port = Number(new URL(baseUrl).port);
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(port, '127.0.0.1', resolve));
    // an upload queued before the move goes to the new address
    const engine = await Engine.open({ dataDir: data.path });
    const path = join(data.path, 'clip.mp4');
    await writeRandomFile(path, 100_000, 7);
    await engine.queue.enqueue({ accountId: id, path, visibility: null });
    await engine.close();

    const log = memoryLog();
    const app = await openApp(demoServer(log));
    try {
      const [account] = app.engine.accounts.list();
      expect(account).toMatchObject({ id, baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/) });
      expect(account!.baseUrl).not.toBe(baseUrl);
      expect(log.lines).toEqual([
        `WARN The local demo server's port ${port} is taken by another program: it now runs at ${account!.baseUrl}, and the demo account moved there.`,
      ]);
      expect(await readFile(join(data.path, 'demo-server', 'port'), 'utf8')).toBe(new URL(account!.baseUrl).port);
      await callCore(app.core, 'account:summary', { accountId: id });
      await waitFor(() => (app.engine.uploads.list()[0]?.state.kind === 'done' ? true : undefined), 20_000, 'done');
    } finally {
      await app.close();
    }
  });

  it('is not started for an app without the demo account', async () => {
    const { id, baseUrl } = await signInToDemo(demoServer());
    const server = await startTestServer({ conversions: false });
    const log = memoryLog();
    try {
      const engine = await Engine.open({ dataDir: data.path });
      await engine.signOut(id);
      await engine.signIn(server.baseUrl, server.token);
      await engine.close();
      const app = await openApp(demoServer(log));
      try {
        await expect(fetch(`${baseUrl}/account`)).rejects.toThrow();
      } finally {
        await app.close();
      }
      expect(log.lines).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
