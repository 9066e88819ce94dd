import { access, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, stopRunningClis, type CliRun } from '../../helpers/cli-process.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { startPrivateKeyring, type PrivateKeyring } from '../../helpers/private-keyring.js';
import { startServe } from '../../helpers/serve-process.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const IN_KEYRING = 'encrypted with the desktop keyring (Secret Service)';
const IN_FILE = 'a file only your user can read (0600)';

/**
 * `media-sync` keeps the token where a Linux desktop keeps its secrets: a
 * real GNOME Keyring (gnome-keyring-daemon, installed by .ci/run) on a
 * session bus of the test's own, never the machine's. Where none answers
 * (no session bus, a locked keyring) it keeps the 0600 file, and a token in
 * such a file moves into the keyring once one answers.
 */
describe('the token of serve and the CLI in the desktop keyring', () => {
  let server: TestServer;
  let home: Awaited<ReturnType<typeof tempDir>>;
  let keyring: PrivateKeyring;
  const runs: CliRun[] = [];

  beforeEach(async () => {
    server = await startTestServer({ conversions: false });
    home = await tempDir('media-sync-keyring-');
    keyring = await startPrivateKeyring();
    runs.length = 0;
  });

  afterEach(async () => {
    await stopRunningClis();
    // the token appears in nothing a command printed, on any path
    for (const run of runs) expect(run.stdout + run.stderr).not.toContain(server.token);
    await keyring.close();
    await server.close();
    await home.remove();
  });

  /** `media-sync ARGS` on the test's data folder; `withKeyring` false: no session bus at all. */
  async function cli(args: string[], { withKeyring = true, input }: { withKeyring?: boolean; input?: string } = {}) {
    const env = withKeyring ? keyring.env : {};
    const run = await runCli(args, { home: home.path, input, env });
    runs.push(run);
    return run;
  }

  const login = async (options: { withKeyring?: boolean } = {}) => {
    const run = await cli(['login', '--base-url', server.baseUrl, '--json'], { ...options, input: server.token });
    expect([run.code, run.stderr]).toEqual([0, '']);
    return (JSON.parse(run.stdout) as { account: { id: string } }).account.id;
  };
  const tokenFile = (accountId: string) => join(home.path, 'credentials', `${accountId}.token`);
  const exists = (path: string) =>
    access(path).then(
      () => true,
      () => false,
    );
  const itemOf = (accountId: string) => keyring.lookup({ application: 'media-sync', account: accountId });

  it('login keeps it in the keyring and no file; a new process finds it there; logout deletes it', async () => {
    const accountId = await login();
    expect(await itemOf(accountId)).toBe(server.token);
    expect(await exists(tokenFile(accountId))).toBe(false);

    // another process: the account answers with the token it found in the keyring, and says where it is kept
    const account = await cli(['account']);
    expect(account.code).toBe(0);
    expect(account.stdout).toMatch(/Username\s+demo/);
    expect(account.stdout).toMatch(new RegExp(`Token\\s+${IN_KEYRING.replace(/[()]/g, '\\$&')}`));

    expect((await cli(['logout'])).code).toBe(0);
    expect(await itemOf(accountId)).toBeNull();
    expect(await exists(tokenFile(accountId))).toBe(false);
  });

  it('without a session bus it keeps the 0600 file; the next start with a keyring moves the token there', async () => {
    const accountId = await login({ withKeyring: false });
    expect((await stat(tokenFile(accountId))).mode & 0o777).toBe(0o600);
    expect((await readFile(tokenFile(accountId), 'utf8')).trim()).toBe(server.token);
    const inFile = await cli(['account', '--json'], { withKeyring: false });
    expect(JSON.parse(inFile.stdout)).toMatchObject({ username: 'demo', tokenStorage: IN_FILE });

    const moved = await cli(['account', '--json']);
    expect(JSON.parse(moved.stdout)).toMatchObject({ username: 'demo', tokenStorage: IN_KEYRING });
    expect(await itemOf(accountId)).toBe(server.token);
    expect(await exists(tokenFile(accountId))).toBe(false);
    // and is found there again
    expect((await cli(['account'])).code).toBe(0);
  });

  it('a locked keyring, which only its password opens, counts as none: the file is used', async () => {
    await keyring.lock();
    const accountId = await login();
    expect((await readFile(tokenFile(accountId), 'utf8')).trim()).toBe(server.token);
    const account = await cli(['account', '--json']);
    expect(JSON.parse(account.stdout)).toMatchObject({ tokenStorage: IN_FILE });
  });

  it('serve keeps the demo account’s token in the keyring, says so in its log, and never writes the token there', async () => {
    const serving = await startServe(['--port', '0', '--data-dir', home.path], keyring.env);
    const exited = new Promise<number | null>((resolve) => serving.child.once('exit', resolve));
    const contract = await serving.contract();
    const listed = await contract.invoke('account:list', {});
    const [account] = (listed.ok ? listed.value : []) as { id: string; tokenStorage: string }[];
    contract.close();
    serving.child.kill('SIGTERM');
    expect(await exited).toBe(0);

    expect(account!.tokenStorage).toBe(IN_KEYRING);
    const demoToken = (await readFile(join(home.path, 'demo-server', 'demo-token'), 'utf8')).trim();
    expect(await itemOf(account!.id)).toBe(demoToken);
    expect(await exists(tokenFile(account!.id))).toBe(false);
    const log = await readFile(join(home.path, 'logs', 'main.log'), 'utf8');
    expect(log).toContain('INFO  Tokens are kept in the desktop keyring (Secret Service).');
    expect(log).not.toContain(demoToken);
    expect(serving.output()).not.toContain(demoToken);
  });
});
