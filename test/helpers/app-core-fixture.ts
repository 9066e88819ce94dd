import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppCore, type CoreEvent } from '../../src-main/core/app-core.js';
import type { AppCoreOptions } from '../../src-main/core/app-core-options.js';
import { Engine } from '../../src-main/core/engine.js';
import { MemorySettingsStore, NO_DESKTOP } from '../../src-main/core/ports.js';
import { contractClient } from '../../src-shared/ipc/contract-client.js';
import type {
  IpcCommandName,
  IpcRequest,
  IpcResponse,
  IpcResult,
  UploadItemView,
} from '../../src-shared/ipc/ipc-contract.js';
import type { FolderStatus } from '../../src-shared/model/folder-status.js';
import { coreTransport } from '../../src-main/core/core-transport.js';
import { tempDir } from './engine-fixture.js';
import { waitFor } from './local-http-server.js';
import { startTestServer } from './test-server.js';

/** AppCore on `engine` as the headless daemon builds it (settings in memory, no desktop), with a test's changes. */
export function createAppCore(engine: Engine, dataDir: string, options: Partial<AppCoreOptions> = {}): AppCore {
  return new AppCore({
    engine,
    settings: new MemorySettingsStore(),
    shell: NO_DESKTOP,
    info: { version: '0.1.0', shell: 'headless', dataDir },
    tokenStorage: 'a file only your user can read (0600)',
    ...options,
  });
}

/** A command's answer from `core` through the typed contract, as a page gets it; a refusal rejects with its ContractError. */
export function callCore<N extends IpcCommandName>(
  core: AppCore,
  name: N,
  request: IpcRequest<N>,
): Promise<IpcResponse<N>> {
  return contractClient(coreTransport(core)).invoke(name, request);
}

/** A command's result as it crosses the boundary (`{ ok, value }` or `{ ok: false, error }`), for tests of refusals. */
export function resultOf<N extends IpcCommandName>(
  core: AppCore,
  name: N,
  request: IpcRequest<N>,
): Promise<IpcResult<unknown>> {
  return coreTransport(core).send(name, request);
}

/**
 * Waits until the status of watched folder `id` passes `check` (30 s at
 * most); the last status seen is in the error otherwise.
 */
export async function untilFolder(
  core: AppCore,
  id: number,
  what: string,
  check: (status: FolderStatus) => boolean,
): Promise<FolderStatus> {
  let last: FolderStatus | undefined;
  try {
    return await waitFor(
      async () => {
        last = (await callCore(core, 'folders:status', {})).find((status) => status.id === id);
        return last && check(last) ? last : undefined;
      },
      30_000,
      what,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; last status: ${JSON.stringify(last)}`, { cause: error });
  }
}

/** A small file `name` written in `dir` and queued for `accountId` (uploads:addPaths): its item. */
export async function addFileToQueue(
  core: AppCore,
  accountId: string,
  dir: string,
  name: string,
): Promise<UploadItemView> {
  const path = join(dir, name);
  await writeFile(path, `the content of ${name}`);
  const [item] = await callCore(core, 'uploads:addPaths', { accountId, paths: [path] });
  return item!;
}

/**
 * The real core as the integration tests use it: the reference server, a
 * data folder and a folder of the test's files (both temporary), an Engine
 * on real SQLite, and AppCore on it, started, with every event it emits.
 */
export async function openCoreFixture(prefix: string) {
  const server = await startTestServer({ conversions: false });
  const data = await tempDir(`${prefix}data-`);
  const files = await tempDir(`${prefix}files-`);
  const engine = await Engine.open({ dataDir: data.path });
  const core = createAppCore(engine, data.path);
  const events: CoreEvent[] = [];
  core.onDidEmit((event) => events.push(event));
  await core.start();
  return {
    server,
    data,
    files,
    engine,
    core,
    events,
    /** signs in to the reference server; the new account's id */
    async signIn(): Promise<string> {
      return (await callCore(core, 'account:signIn', { baseUrl: server.baseUrl, token: server.token })).id;
    },
    async close(): Promise<void> {
      await core.dispose();
      await engine.close();
      await server.close();
      await data.remove();
      await files.remove();
    },
  };
}
export type CoreFixture = Awaited<ReturnType<typeof openCoreFixture>>;
