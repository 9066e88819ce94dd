import { afterEach, beforeEach } from 'vitest';
import { runCli, stopRunningClis, type CliRun } from './cli-process.js';
import { tempDir } from './engine-fixture.js';
import { startTestServer, type TestServer } from './test-server.js';

type TempDir = Awaited<ReturnType<typeof tempDir>>;

/**
 * For each test of the describe it is called in: a reference server, a home
 * (the data folder) and a folder of files made before, and everything
 * stopped and removed after; `cli` runs the real bundle in them.
 */
export function cliSandbox(prefix: string) {
  let server: TestServer | undefined;
  let home: TempDir | undefined;
  let files: TempDir | undefined;
  const made = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the CLI sandbox is made in beforeEach');
    return value;
  };
  beforeEach(async () => {
    server = await startTestServer({ conversions: false });
    home = await tempDir(`${prefix}home-`);
    files = await tempDir(`${prefix}files-`);
  });
  afterEach(async () => {
    await stopRunningClis();
    await server?.close();
    await home?.remove();
    await files?.remove();
  });
  return {
    get server() {
      return made(server);
    },
    get home() {
      return made(home);
    },
    get files() {
      return made(files);
    },
    cli: (args: string[], input?: string): Promise<CliRun> =>
      runCli(args, { home: made(home).path, input, cwd: made(files).path }),
  };
}
