import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { contractClient } from '../../src-shared/ipc/contract-client.js';
import type { MediaSyncBridge } from '../../src-shared/ipc/ipc-contract.js';
import type { AppCore } from '../../src-main/core/app-core.js';
import type { AppCoreOptions } from '../../src-main/core/app-core-options.js';
import { coreTransport } from '../../src-main/core/core-transport.js';
import { Engine, type EngineOptions } from '../../src-main/core/engine.js';
import { serveOwnerSocket } from '../../src-main/core/owner-socket.js';
import { tryLockDataFolder } from '../../src-main/storage/data-folder-lock.js';
import { createAppCore } from './app-core-fixture.js';
import { NO_SESSION_BUS } from './private-dbus.js';

/** `bin/media-sync.js`, as a person runs it (the bundle the integration set-up built). */
export const MEDIA_SYNC_BIN = join(import.meta.dirname, '../../bin/media-sync.js');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** the data folder (MEDIA_SYNC_HOME) */
  home: string;
  /** stdin, then closed */
  input?: string;
  env?: Record<string, string>;
  cwd?: string;
}

/** Commands started and not ended yet: a test that fails half-way stops them (stopRunningClis). */
const running = new Set<ChildProcess>();

/** Kills (SIGKILL) every command a test started that still runs, and waits for each to end. */
export async function stopRunningClis(): Promise<void> {
  await Promise.all(
    [...running]
      .filter((child) => child.exitCode === null && child.signalCode === null)
      .map(async (child) => {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }),
  );
}

/** `media-sync ARGS` as a child process, with no token in its environment unless given, and no session bus (no keyring). */
export function startCli(args: string[], options: CliOptions) {
  const child = spawn(process.execPath, [MEDIA_SYNC_BIN, ...args], {
    cwd: options.cwd,
    env: {
      ...process.env,
      MEDIA_SYNC_HOME: options.home,
      MEDIA_SYNC_TOKEN: '',
      DBUS_SESSION_BUS_ADDRESS: NO_SESSION_BUS,
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (piece: Buffer) => (stdout += piece.toString()));
  child.stderr.on('data', (piece: Buffer) => (stderr += piece.toString()));
  child.stdin.end(options.input ?? '');
  running.add(child);
  const done = once(child, 'exit').then(([code, signal]) => {
    running.delete(child);
    return { code, signal, stdout, stderr } as CliRun;
  });
  return { child, done, stdout: () => stdout, stderr: () => stderr, output: () => stdout + stderr };
}

export const runCli = (args: string[], options: CliOptions): Promise<CliRun> => startCli(args, options).done;

/**
 * An owner of `dataDir` in this process, as `media-sync serve` is one: the
 * folder's lock, a started core on it and its owner socket, so a CLI run
 * beside it goes through the socket. `contract` is the test's own line to the
 * same core; `options` what the test changes of the engine and the core.
 */
export async function startInProcessOwner(
  dataDir: string,
  options: { engine?: Partial<EngineOptions>; core?: Partial<AppCoreOptions> } = {},
): Promise<{
  engine: Engine;
  core: AppCore;
  contract: MediaSyncBridge;
  close(): Promise<void>;
}> {
  const attempt = tryLockDataFolder(dataDir, { kind: 'daemon', url: null });
  if (!attempt.ok) throw new Error(`${dataDir} is owned already`);
  const engine = await Engine.open({ dataDir, settleMs: 300, ...options.engine });
  const core = createAppCore(engine, dataDir, options.core);
  await core.start();
  const socket = await serveOwnerSocket(core, dataDir);
  return {
    engine,
    core,
    contract: contractClient(coreTransport(core)),
    async close() {
      await socket.close();
      await core.dispose();
      await engine.close();
      attempt.lock.release();
    },
  };
}
