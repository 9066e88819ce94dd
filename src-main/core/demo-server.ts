import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReferenceServer } from '../../src-server/server.js';
import type { DemoServerStarter } from './ports.js';

/**
 * "Try it locally": the bundled reference server, started in this process on
 * 127.0.0.1 at a free port, its data under the app's data folder (so the demo
 * account and its files are there next time). Private targets are allowed, so
 * an import from a server on this machine works; that is why it listens on
 * loopback only. Returns the starter and a `stop` for quit.
 */
export function localDemoServer(appDataDir: string): { start: DemoServerStarter; stop(): Promise<void> } {
  let running: Promise<ReferenceServer> | undefined;
  return {
    start: async () => {
      running ??= startOnRememberedPort(join(appDataDir, 'demo-server'));
      const server = await running;
      return { baseUrl: server.baseUrl, token: server.demoToken! };
    },
    stop: async () => {
      if (!running) return;
      const server = await running;
      running = undefined;
      await server.close();
    },
  };
}

/**
 * The same port as last time when it is free, so the signed-in demo account's
 * base URL stays valid across restarts; a free one otherwise.
 */
async function startOnRememberedPort(dataDir: string): Promise<ReferenceServer> {
  await mkdir(dataDir, { recursive: true });
  const portFile = join(dataDir, 'port');
  const remembered = Number((await readFile(portFile, 'utf8').catch(() => '')).trim()) || 0;
  // the reference server (fastify) loads with the demo, not with every process that could start it
  const { startReferenceServer } = await import('../../src-server/server.js');
  const start = (port: number) =>
    startReferenceServer({ host: '127.0.0.1', port, dataDir, allowPrivateTargets: true, logLevel: false });
  const server = await start(remembered).catch((error: unknown) => {
    if (remembered !== 0 && (error as { code?: string }).code === 'EADDRINUSE') return start(0);
    throw error;
  });
  await writeFile(portFile, String(new URL(server.baseUrl).port));
  return server;
}
