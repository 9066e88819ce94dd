import { get } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Shutdown } from '../../../src-main/common/shutdown.js';
import { localDemoServer } from '../../../src-main/demo/local-demo-server.js';
import { Engine } from '../../../src-main/core/engine.js';
import { ownerSocketPath } from '../../../src-main/core/owner-socket-path.js';
import { serveOwnerSocket } from '../../../src-main/core/owner-socket.js';
import { callCore, createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';

/** Whether something listens at the Unix socket `path`. */
function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Whether an HTTP server answers at `url` (any status), on a connection of its own. */
function httpAnswers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    get(url, { agent: false }, (response) => {
      response.resume();
      resolve(true);
    }).on('error', () => resolve(false));
  });
}

/**
 * The engine, the core, the owner socket and the demo server each join the
 * stop where they start (no shell's teardown names them), and the stop keeps
 * the order that matters: no command reaches a core that is gone, and the
 * demo server answers the engine until the engine has closed.
 */
describe('the stop, as the parts of the app join it', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;

  beforeEach(async () => {
    data = await tempDir('media-sync-shutdown-');
  });

  afterEach(async () => {
    await data.remove();
  });

  it('closes the owner socket before the core, and stops the demo server after the engine closed its database', async () => {
    const shutdown = new Shutdown();
    const engine = await Engine.open({ dataDir: data.path, shutdown });
    const seen: Record<string, boolean> = {};
    let demoUrl = '';
    // a look at the parts as each phase begins
    shutdown.onWillShutdown('core', (event) =>
      event.join(
        socketAnswers(ownerSocketPath(data.path)).then((answers) => (seen.ownerSocketAsTheCoreStops = answers)),
        'a look at the owner socket',
      ),
    );
    shutdown.onWillShutdown('engine', (event) => {
      seen.databaseOpenAsTheEngineStops = engine.db.open;
      event.join(
        httpAnswers(demoUrl).then((answers) => (seen.demoServerAsTheEngineStops = answers)),
        'a look at the demo server',
      );
    });
    shutdown.onWillShutdown('servers', () => (seen.databaseOpenAsTheDemoServerStops = engine.db.open));
    shutdown.onWillShutdown('release', (event) =>
      event.join(
        httpAnswers(demoUrl).then((answers) => (seen.demoServerAtTheEnd = answers)),
        'a look at the demo server',
      ),
    );

    const demo = localDemoServer(data.path, undefined, shutdown);
    const core = createAppCore(engine, data.path, { demo, shutdown });
    await core.start();
    demoUrl = (await callCore(core, 'account:startDemo', {})).baseUrl;
    await serveOwnerSocket(core, data.path, undefined, shutdown);
    expect(await socketAnswers(ownerSocketPath(data.path))).toBe(true);
    expect(await httpAnswers(demoUrl)).toBe(true);

    expect(await shutdown.run()).toEqual({ timedOut: false });
    expect(seen).toEqual({
      ownerSocketAsTheCoreStops: false,
      databaseOpenAsTheEngineStops: true,
      demoServerAsTheEngineStops: true,
      databaseOpenAsTheDemoServerStops: false,
      demoServerAtTheEnd: false,
    });
  });
});
