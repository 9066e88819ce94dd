import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import type { ConnectionLimits } from '../../../src-main/headless/connection-guard.js';
import { startDaemon, type Daemon } from '../../../src-main/headless/daemon.js';
import { createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { connectContract } from '../../helpers/ws-client.js';

const KEY = 'f'.repeat(32);
const FLOOD = 1_000;

/**
 * Another local process: opens `count` connections to `port`, sends each a
 * request line and one header but never the blank line that ends them, and
 * says on stdout (one JSON line per change) how many it connected and how
 * many the daemon closed. A process of its own, as an attacker's is: its
 * descriptors are not the daemon's.
 */
function flood(
  port: number,
  count: number,
): { child: ChildProcess; state: () => { connected: number; closed: number } } {
  const script = `
    const net = require('node:net');
    const [port, count] = process.argv.slice(1).map(Number);
    let connected = 0, closed = 0;
    const say = () => process.stdout.write(JSON.stringify({ connected, closed }) + '\\n');
    for (let i = 0; i < count; i++) {
      const socket = net.connect(port, '127.0.0.1', () => {
        connected++;
        socket.write('GET / HTTP/1.1\\r\\nHost: 127.0.0.1:' + port + '\\r\\n');
        say();
      });
      // read what the daemon answers (a 408), so its close is seen
      socket.resume();
      socket.on('error', () => undefined);
      socket.on('close', () => { closed++; say(); });
    }`;
  const child = spawn(process.execPath, ['-e', script, String(port), String(count)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let state = { connected: 0, closed: 0 };
  createInterface({ input: child.stdout! }).on('line', (line) => (state = JSON.parse(line)));
  return { child, state: () => state };
}

describe('the headless daemon under a flood of connections that never finish their headers', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let engine: Engine;
  let core: AppCore;
  let daemon: Daemon | undefined;
  let attacker: ChildProcess | undefined;

  beforeEach(async () => {
    data = await tempDir('media-sync-flood-');
    engine = await Engine.open({ dataDir: data.path });
    core = createAppCore(engine, data.path);
    await core.start();
  });

  afterEach(async () => {
    attacker?.kill('SIGKILL');
    attacker = undefined;
    await daemon?.close();
    await core.dispose();
    await engine.close();
    await data.remove();
  });

  async function underFlood(limits: ConnectionLimits, count: number) {
    daemon = await startDaemon({ core, port: 0, sessionKey: KEY, connectionLimits: limits });
    const attack = flood(daemon.port, count);
    attacker = attack.child;
    await waitFor(() => (attack.state().connected === count ? true : undefined), 30_000, 'the flood connected');
    return { port: daemon.port, open: () => attack.state().connected - attack.state().closed };
  }

  it(`holds at most its cap of connections: ${FLOOD} half-open ones push out only their own, and the page's requests are answered`, async () => {
    // headers are given all the time they need here: only the cap can close anything
    const { port, open } = await underFlood({ headersTimeoutMs: 120_000, maxConnections: 100 }, FLOOD);
    await waitFor(() => (open() <= 100 ? true : undefined), 10_000, 'the flood cut down to the cap');

    const socket = await connectContract(`ws://127.0.0.1:${port}/ipc`, KEY);
    expect(await socket.invoke('app:info', {})).toMatchObject({ ok: true, value: { shell: 'headless' } });
    socket.close();
    const session = await rawRequest(`http://127.0.0.1:${port}/session`, { headers: { 'X-Media-Sync-Key': KEY } });
    expect(session.json).toEqual({ session: 'valid' });
    // a connection that finished its request is no longer among the oldest half-open ones: the flood is still held
    expect(open()).toBeGreaterThan(0);
  });

  it('closes a connection whose headers are not all in after the headers timeout', async () => {
    // fewer than the cap: only the timeout can close them
    const { open } = await underFlood({ headersTimeoutMs: 1_000, maxConnections: 256 }, 200);
    await waitFor(() => (open() === 0 ? true : undefined), 15_000, 'every half-open connection closed');
  });
});
