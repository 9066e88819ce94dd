import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLog } from '../../../src-main/common/file-log.js';
import { AppCore } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { MemorySettingsStore, NO_DESKTOP } from '../../../src-main/core/ports.js';
import { startDaemon } from '../../../src-main/headless/daemon.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { startServe } from '../../helpers/serve-process.js';

const ROOT = resolve(import.meta.dirname, '../../..');
/** A token of no known shape in the environment: only its registration keeps it out of the log. */
const ENV_TOKEN = 'env-Canary/of+any=shape';
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

describe("the headless shell's log", () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let daemon: ChildProcess | undefined;

  beforeEach(async () => {
    data = await tempDir('media-sync-serve-log-');
  });

  afterEach(async () => {
    if (daemon && daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
    daemon = undefined;
    await data.remove();
  });

  it('logs its start, the demo sign-in and its stop under <data dir>/logs, without the token or the session key', async () => {
    const serving = await startServe(['--port', '0', '--data-dir', data.path], { MEDIA_SYNC_TOKEN: ENV_TOKEN });
    daemon = serving.child;
    const url = serving.url.href;
    const exited = new Promise<number | null>((resolveExit) => daemon!.once('exit', resolveExit));
    daemon.kill('SIGTERM');
    expect(await exited).toBe(0);

    const dir = join(data.path, 'logs');
    expect(await readdir(dir)).toEqual(['main.log']);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'main.log'))).mode & 0o777).toBe(0o600);
    const log = await readFile(join(dir, 'main.log'), 'utf8');
    const messages = log
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/^\S+ (INFO |WARN |ERROR) /, '$1 ').trim());
    const port = new URL(url).port;
    // the tests' system bus is a path where nothing listens: said once (whenever the bus answers), never metered
    const noBus = (line: string) =>
      /^INFO {2}No system bus to ask NetworkManager .*never counts as metered\.$/.test(line);
    expect(messages.filter(noBus)).toHaveLength(1);
    expect(messages.filter((line) => !noBus(line))).toEqual([
      `INFO  Media Sync ${version} is starting without a desktop (media-sync serve), data folder ${data.path}.`,
      // the tests' session bus is a path where nothing listens too: no keyring
      `INFO  Tokens are kept in 0600 files in ${join(data.path, 'credentials')}, not in a desktop keyring: the session bus did not answer (connect ENOENT /nonexistent/media-sync-test-session-bus).`,
      expect.stringMatching(/^INFO {2}Signed in: demo at http:\/\/127\.0\.0\.1:\d+\/api\/v1\.$/),
      'INFO  No account yet: signed in to the local demo server.',
      `INFO  Serving the app on http://127.0.0.1:${port}/ (the session key is only in the printed address).`,
      'INFO  Stopping on SIGTERM.',
      'INFO  Stopped.',
    ]);

    const demoToken = (await readFile(join(data.path, 'demo-server', 'demo-token'), 'utf8')).trim();
    expect(demoToken).toMatch(/^mfs_/);
    const sessionKey = new URL(url).searchParams.get('key')!;
    for (const secret of [demoToken, sessionKey, ENV_TOKEN, encodeURIComponent(ENV_TOKEN)]) {
      expect(log).not.toContain(secret);
    }
  });

  it('writes a request the daemon could not answer to the log, and the session key stays out of it', async () => {
    const key = 'sessionKeyOfThisTest_0123456789a';
    const log = createFileLog({ dir: join(data.path, 'logs') });
    const engine = await Engine.open({ dataDir: data.path, log, secrets: log });
    const core = new AppCore({
      engine,
      settings: new MemorySettingsStore(),
      shell: NO_DESKTOP,
      info: { version, shell: 'headless', dataDir: data.path },
      tokenStorage: 'a file only your user can read (0600)',
      log,
    });
    const server = await startDaemon({ core, port: 0, sessionKey: key, staticDir: data.path, log, secrets: log });
    try {
      // a request target that is no URL at all: the daemon cannot read it and answers 500
      const response = await rawRequest(`http://127.0.0.1:${server.port}/?key=${key}`, {
        target: `//[${key}/x?key=${key}`,
      });
      expect(response.status).toBe(500);
    } finally {
      await server.close();
      await core.dispose();
      await engine.close();
      await log.close();
    }
    const text = await readFile(log.path, 'utf8');
    expect(text).toMatch(
      /ERROR The daemon could not answer GET \/\/\[\[redacted\]\/x\. \(TypeError: Invalid URL \[ERR_INVALID_URL\]\\n {4}at /,
    );
    expect(text).not.toContain(key);
  });
});
