import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { API_PREFIX } from '../../src-shared/api/index.js';
import type { ReferenceServer } from '../../src-server/server.js';
import type { Log } from '../common/file-log.js';
import type { ShutdownPort } from '../common/shutdown.js';
import type { DemoAccounts, DemoServerPort } from '../core/ports.js';

/**
 * "Try it locally": the bundled reference server, started in this process on
 * 127.0.0.1 at a free port, its data under `<data dir>/demo-server` (its
 * files, jobs and the demo token stay there for the next start). Its port is
 * kept in `<data dir>/demo-server/port`: an account whose base URL is
 * `http://127.0.0.1:<that port>/api/v1` is the demo account. Private targets
 * are allowed, so an import from a server on this machine works; that is why
 * it listens on loopback only. The server and its dependencies (fastify, …)
 * are loaded only when it starts (a dynamic `import()`): an app that never
 * uses the demo never loads them. Given the app's stop, it stops in its
 * `servers` phase, after the engine.
 */
export function localDemoServer(appDataDir: string, log?: Log, shutdown?: ShutdownPort): DemoServerPort {
  const dir = join(appDataDir, 'demo-server');
  const portFile = join(dir, 'port');
  let running: Promise<ReferenceServer> | undefined;

  const rememberedPort = async () => Number((await readFile(portFile, 'utf8').catch(() => '')).trim()) || 0;
  const remember = (server: ReferenceServer) => writeFile(portFile, String(new URL(server.baseUrl).port));
  /** one server per process: `afterStart` runs once it listens, before its port is remembered */
  const startOnce = (afterStart: (server: ReferenceServer) => Promise<void>) => {
    if (!running) {
      const starting = rememberedPort().then(async (port) => {
        const server = await startOnPort(dir, port);
        try {
          await afterStart(server);
          await remember(server);
        } catch (error) {
          await server.close();
          throw error;
        }
        return server;
      });
      running = starting;
      // a start that failed may be tried again
      starting.catch(() => {
        if (running === starting) running = undefined;
      });
    }
    return running;
  };

  /** The remembered port, and the accounts among `accounts` at its address: the demo's. */
  const demoAccounts = async (accounts: ReadonlyArray<{ id: string; baseUrl: string }>) => {
    const port = await rememberedPort();
    const address = port === 0 ? null : demoBaseUrl(port);
    return { port, address, demos: accounts.filter((account) => account.baseUrl === address) };
  };
  /**
   * Starts it; on another port, the demo's accounts move there before the
   * new port is remembered, so a stop in between leaves them found next time.
   */
  const startMoving = (engine: DemoAccounts, { port, address, demos }: Awaited<ReturnType<typeof demoAccounts>>) =>
    startOnce(async (started) => {
      if (demos.length === 0 || started.baseUrl === address) return;
      for (const account of demos) await engine.moveAccount(account.id, started.baseUrl);
      log?.warn(
        `The local demo server's port ${port} is taken by another program: it now runs at ${started.baseUrl}, and the demo account moved there.`,
      );
    });

  const demo: DemoServerPort = {
    async start(engine) {
      const server = await startMoving(engine, await demoAccounts(engine.accounts.all()));
      return { baseUrl: server.baseUrl, token: server.demoToken! };
    },
    async startIfSignedIn(engine) {
      const found = await demoAccounts(engine.accounts.list());
      if (found.demos.length === 0) return;
      try {
        const server = await startMoving(engine, found);
        if (server.baseUrl === found.address) {
          log?.info(`The local demo server is back at ${found.address} for the demo account.`);
        }
      } catch (error) {
        log?.error('The local demo server could not start: the demo account cannot be reached.', error);
      }
    },
    async stop() {
      const started = running;
      running = undefined;
      const server = await started?.catch(() => undefined);
      await server?.close();
    },
  };
  shutdown?.onWillShutdown('servers', (e) => e.join(demo.stop(), 'the local demo server'));
  return demo;
}

/** The demo server's base URL on `port`, as the reference server reports it (and the engine keeps it). */
function demoBaseUrl(port: number): string {
  return `http://127.0.0.1:${port}${API_PREFIX}`;
}

/**
 * On `port` (the one of last time) when it is free, so the signed-in demo
 * account's base URL stays valid across restarts; a free one otherwise.
 */
async function startOnPort(dataDir: string, port: number): Promise<ReferenceServer> {
  await mkdir(dataDir, { recursive: true });
  const { startReferenceServer } = await import('../../src-server/server.js');
  const start = (on: number) =>
    startReferenceServer({ host: '127.0.0.1', port: on, dataDir, allowPrivateTargets: true, logLevel: false });
  return start(port).catch((error: unknown) => {
    if (port !== 0 && (error as { code?: string }).code === 'EADDRINUSE') return start(0);
    throw error;
  });
}
