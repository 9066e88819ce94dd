import type { Engine, EngineOptions } from '../../src-main/core/engine.js';
import type { FolderOptionsInput, WatchedFolder } from '../../src-shared/model/folder-options.js';
import { openEngine, tempDir, type EngineFixture } from './engine-fixture.js';
import { waitFor } from './local-http-server.js';
import { memoryLog } from './memory-log.js';
import { startTestServer, type TestServer } from './test-server.js';

/** A file as the reference server lists it. */
export interface ServerFile {
  id: string;
  name: string;
  filename: string;
  size_bytes: number;
}

/**
 * The reference server, an engine signed in to it with its queue running and
 * a log kept in memory, and a real temp folder to watch: what the tests of a
 * watched folder's real-file edges share.
 */
export interface WatchedFolderBench {
  server: TestServer;
  folder: { path: string; remove(): Promise<void> };
  /** the engine; `watch` opens it */
  fixture: EngineFixture | undefined;
  log: ReturnType<typeof memoryLog>;
  /** opens the engine (with `engineOptions`), starts its queue and watches `path` (the folder) with `options` */
  watch(
    options?: FolderOptionsInput,
    engineOptions?: Partial<EngineOptions>,
    path?: string,
  ): Promise<{ engine: Engine; watched: WatchedFolder }>;
  /** every file on the service, all pages */
  serverFiles(search?: string): Promise<ServerFile[]>;
  /** waits until `count` uploads are done and nothing else is in the queue */
  uploadsDone(engine: Engine, count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function openWatchedFolderBench(prefix: string): Promise<WatchedFolderBench> {
  const server = await startTestServer({ rateLimit: 100_000 });
  const folder = await tempDir(prefix);
  const log = memoryLog();
  const bench: WatchedFolderBench = {
    server,
    folder,
    fixture: undefined,
    log,
    async watch(options = {}, engineOptions = {}, path = folder.path) {
      bench.fixture = await openEngine(server.baseUrl, server.token, { settleMs: 300, log, ...engineOptions });
      const engine = bench.fixture.engine;
      engine.queue.start();
      const watched = await engine.sync.addFolder(bench.fixture.accountId, path, options);
      return { engine, watched };
    },
    serverFiles: (search) => serverFiles(server, search),
    uploadsDone,
    async close() {
      await bench.fixture?.close();
      bench.fixture = undefined;
      await server.close();
      await folder.remove();
    },
  };
  return bench;
}

/** Every file on the service, all pages (`search`: its search). */
export async function serverFiles(server: TestServer, search?: string): Promise<ServerFile[]> {
  const all: ServerFile[] = [];
  const query = search === undefined ? '' : `&search=${encodeURIComponent(search)}`;
  for (let page = 1; page <= 100; page++) {
    const body = JSON.parse((await server.api(`/files?per_page=100&page=${page}${query}`)).body.toString()) as {
      data: ServerFile[];
      meta: { last_page: number };
    };
    all.push(...body.data);
    if (page >= body.meta.last_page) break;
  }
  return all;
}

/** Waits until `count` uploads are done and nothing else is in the queue. */
export async function uploadsDone(engine: Engine, count: number, timeoutMs = 20_000): Promise<void> {
  await waitFor(
    () => {
      const items = engine.uploads.list();
      const done = items.filter((item) => item.state.kind === 'done').length;
      return done >= count && items.every((item) => item.state.kind === 'done') ? true : undefined;
    },
    timeoutMs,
    `${count} uploads`,
  );
}
