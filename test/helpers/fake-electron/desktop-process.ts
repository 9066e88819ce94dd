import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { IpcResult } from '../../../src-shared/ipc/ipc-contract.js';
import { waitFor } from '../local-http-server.js';
import { NO_SYSTEM_BUS } from '../private-dbus.js';
import type { ControlMessage, ControlReply, ControlRequest, DesktopSnapshot } from './control-protocol.js';

const REGISTER = fileURLToPath(new URL('./register.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface DesktopProcessOptions {
  /** the bundled main process: `<app>/dist/electron/main.js` */
  mainJs: string;
  /** the fake Electron's folder: userData, logs, home (FAKE_ELECTRON_HOME) */
  home: string;
  args?: string[];
  env?: Record<string, string>;
}

/**
 * The desktop app as shipped (the bundled main.js) in its own Node process,
 * with `electron` mapped to the fake (register.mjs), driven over Node's IPC
 * channel: what the OS and the window's page would do, and a look at what a
 * person would see.
 */
export class DesktopProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: ControlReply) => void>();
  private text = '';
  /** resolves with the exit code (or the signal's name) */
  readonly exited: Promise<number | string>;

  private constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => (this.text += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.text += chunk.toString()));
    child.on('message', (reply: ControlReply) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
    this.exited = new Promise((resolveExit) =>
      child.once('exit', (code, signal) => {
        for (const settle of this.waiting.values()) settle({ id: 0, ok: false, error: 'the app exited' });
        this.waiting.clear();
        resolveExit(code ?? signal ?? 'unknown');
      }),
    );
  }

  static start(options: DesktopProcessOptions): DesktopProcess {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', REGISTER, options.mainJs, ...(options.args ?? [])],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          MEDIA_SYNC_TOKEN: '',
          DBUS_SYSTEM_BUS_ADDRESS: NO_SYSTEM_BUS,
          ...options.env,
          FAKE_ELECTRON_HOME: options.home,
        },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      },
    );
    return new DesktopProcess(child);
  }

  /** stdout and stderr so far */
  output(): string {
    return this.text;
  }

  async request(request: ControlRequest): Promise<unknown> {
    const id = this.nextId++;
    const reply = await new Promise<ControlReply>((resolveReply) => {
      this.waiting.set(id, resolveReply);
      this.child.send({ id, request } satisfies ControlMessage);
    });
    if (!reply.ok) throw new Error(`${request.type}: ${reply.error}`);
    return reply.value;
  }

  snapshot(): Promise<DesktopSnapshot> {
    return this.request({ type: 'snapshot' }) as Promise<DesktopSnapshot>;
  }

  /** A contract command as the window's page sends it (through the preload's channel). */
  invoke(name: string, request: unknown = {}): Promise<IpcResult<unknown>> {
    return this.request({ type: 'invoke', channel: `ipc:${name}`, request }) as Promise<IpcResult<unknown>>;
  }

  /** Waits (at most `timeoutMs`) until the snapshot satisfies `check`, and returns it. */
  async until(check: (snapshot: DesktopSnapshot) => boolean, timeoutMs = 15_000): Promise<DesktopSnapshot> {
    let last: DesktopSnapshot | undefined;
    try {
      return await waitFor(async () => {
        last = await this.snapshot();
        return check(last) ? last : undefined;
      }, timeoutMs);
    } catch (error) {
      throw new Error(`${String(error)}; last state: ${JSON.stringify(last)}; output: ${this.text}`, { cause: error });
    }
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }
}
