import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { waitFor } from './local-http-server.js';
import { NO_SESSION_BUS, NO_SYSTEM_BUS } from './private-dbus.js';
import { connectToPrinted, type WsContractClient } from './ws-client.js';

const BIN = resolve(import.meta.dirname, '../../bin/media-sync.js');

export interface ServeProcess {
  child: ChildProcess;
  /** the printed address, with the session key */
  url: URL;
  /** what it printed so far, stdout and stderr */
  output(): string;
  /** the contract over its socket, with the printed key */
  contract(): Promise<WsContractClient>;
}

/** `media-sync serve ARGS` run until it exits by itself (30 s at most): its exit code and what it printed. */
export async function runServeToExit(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawnServe(args, env);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, output };
}

function spawnServe(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [BIN, 'serve', ...args], {
    env: {
      ...process.env,
      MEDIA_SYNC_HOME: '',
      MEDIA_SYNC_TOKEN: '',
      DBUS_SYSTEM_BUS_ADDRESS: NO_SYSTEM_BUS,
      DBUS_SESSION_BUS_ADDRESS: NO_SESSION_BUS,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * `media-sync serve ARGS` as a person starts it, in a process of its own
 * (no MEDIA_SYNC_HOME or MEDIA_SYNC_TOKEN from the test's environment, no
 * system or session bus, `env` added); answers once it has printed its address (30 s at most).
 */
export async function startServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawnServe(args, env);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const address = await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`media-sync serve exited with ${child.exitCode}: ${output}`);
      return /running at (http:\/\/127\.0\.0\.1:\d+\/\?key=[\w-]+)/.exec(output)?.[1];
    },
    30_000,
    'the address',
  ).catch((error: unknown) => {
    // the caller never gets it to stop
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}; media-sync serve printed: ${output}`);
  });
  const url = new URL(address);
  return {
    child,
    url,
    output: () => output,
    contract: () => connectToPrinted(url),
  };
}
