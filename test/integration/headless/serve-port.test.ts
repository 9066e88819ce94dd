import { createServer, type Server } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/engine-fixture.js';
import { runServeToExit, startServe, type ServeProcess } from '../../helpers/serve-process.js';

/**
 * `media-sync serve` when another program has its port: words, not a stack
 * trace; a port given with --port is refused with how to choose another, the
 * default port (MEDIA_SYNC_PORT here, so the test does not need 8790 free)
 * gives way to the next free one.
 */
describe('media-sync serve on a port another program has', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let blocker: Server;
  let taken: number;
  let daemon: ServeProcess | undefined;

  beforeEach(async () => {
    data = await tempDir('media-sync-serve-port-');
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    taken = (blocker.address() as { port: number }).port;
  });

  afterEach(async () => {
    if (daemon && daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    daemon = undefined;
    await new Promise((resolve) => blocker.close(resolve));
    await data.remove();
  });

  it('--port N taken: says so and how to choose another, exit 1, nothing signed in', async () => {
    const run = await runServeToExit(['--port', String(taken), '--data-dir', data.path]);
    expect(run.code).toBe(1);
    expect(run.output).toBe(
      `Error: Port ${taken} on 127.0.0.1 is taken by another program. Stop that program, or choose another port: media-sync serve --port ${taken + 1} (--port 0 picks any free one).\n`,
    );
  });

  it('the default port taken: runs on the next free one and says so', async () => {
    daemon = await startServe(['--data-dir', data.path, '--no-demo'], { MEDIA_SYNC_PORT: String(taken) });
    const port = Number(daemon.url.port);
    expect(port).toBeGreaterThan(taken);
    expect(port).toBeLessThanOrEqual(taken + 20);
    expect(daemon.output()).toContain(
      `Port ${taken} on 127.0.0.1 is taken by another program: Media Sync runs on port ${port} instead (--port N chooses one).\n`,
    );
    expect(daemon.output()).not.toMatch(/\n\s+at /);
  });
});
