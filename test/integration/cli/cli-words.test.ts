import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, stopRunningClis } from '../../helpers/cli-process.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { startServe, type ServeProcess } from '../../helpers/serve-process.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import type { WsContractClient } from '../../helpers/ws-client.js';

/**
 * What `media-sync` says of a typing mistake: what was wrong, where (counted
 * from 1), and what to type instead, never a schema's path; counts in whole
 * sentences with their plural; and a request the contract refuses is no
 * error with a stack in the log of `serve`.
 */
describe('the words of media-sync', { timeout: 120_000 }, () => {
  let server: TestServer;
  let home: Awaited<ReturnType<typeof tempDir>>;
  let files: Awaited<ReturnType<typeof tempDir>>;
  let daemon: ServeProcess | undefined;
  let contract: WsContractClient | undefined;

  beforeEach(async () => {
    server = await startTestServer({ conversions: false });
    home = await tempDir('media-sync-cli-words-home-');
    files = await tempDir('media-sync-cli-words-files-');
  });

  afterEach(async () => {
    contract?.close();
    contract = undefined;
    if (daemon && daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    daemon = undefined;
    await stopRunningClis();
    await server.close();
    await home.remove();
    await files.remove();
  });

  const cli = (args: string[], input?: string) => runCli(args, { home: home.path, input, cwd: files.path });
  const hint = 'Run media-sync --help for the commands.\n';

  it('a job id, links and a name mistyped: what is wrong, where, and what to type instead', async () => {
    expect((await cli(['login', '--base-url', server.baseUrl], server.token)).code).toBe(0);

    expect(await cli(['jobs', 'show', 'bogus'])).toMatchObject({
      code: 2,
      stderr: `Error: "bogus" is not a job ID: a job ID looks like 3f2b6c1e-8a4d-4f0e-9c7a-1b2c3d4e5f60 (media-sync jobs ls lists them).\n${hint}`,
    });

    const links = await cli(['import', 'not a url', 'https://videos.example.com/a.mp4', 'ftp://example.com/b.mp4']);
    expect(links).toMatchObject({
      code: 2,
      stderr: [
        'Error: Cannot import these links:',
        '  link 1 of 3, not a url: is not a web address (it should start with https://)',
        '  link 3 of 3, ftp://example.com/b.mp4: uses ftp; only http and https links can be imported',
        'Type each link in full, e.g. https://videos.example.com/holiday.mp4',
        hint,
      ].join('\n'),
    });

    const countries = await cli(['import', 'https://videos.example.com/a.mp4', '--blocked-countries', 'DE,Germany']);
    expect(countries.stderr).toBe(
      `Error: Cannot import:\nEntry 2 of --blocked-countries (Germany) must be a two-letter country code.\n${hint}`,
    );

    const clip = join(files.path, 'clip.mp4');
    await writeFile(clip, 'a clip');
    const named = await cli(['upload', clip, '--name', 'n'.repeat(300)]);
    expect(named).toMatchObject({
      code: 2,
      stderr: `Error: Cannot upload:\n--name must be at most 255 characters (300 now); shorten it.\n${hint}`,
    });
    for (const run of [links, countries, named]) expect(run.stderr).not.toMatch(/\[\d+\]|✖|→ at/);
  });

  it('counts in whole sentences, one file or many, and --help lists serve', async () => {
    expect((await cli(['login', '--base-url', server.baseUrl], server.token)).code).toBe(0);
    const clip = join(files.path, 'clip.mp4');
    await writeFile(clip, 'a clip');
    expect((await cli(['upload', clip])).code).toBe(0);
    expect((await cli(['files', 'ls'])).stdout).toMatch(/\nPage 1 of 1 \(1 file\)\n$/);
    const other = join(files.path, 'other.mp4');
    await writeFile(other, 'another clip');
    expect((await cli(['upload', other])).code).toBe(0);
    expect((await cli(['files', 'ls'])).stdout).toMatch(/\nPage 1 of 1 \(2 files\)\n$/);
    expect((await cli(['queue', 'clear'])).stdout).toBe('Removed 2 finished items.\n');

    const help = await cli(['--help']);
    expect(help.stdout).toContain(
      '  serve [--port N] [--open] [--data-dir DIR] [--no-demo] [--new-key]\n' +
        '                                               the whole app in your browser, on 127.0.0.1 (media-sync serve --help)\n',
    );
  });

  it('a request the contract refuses (a name too long) is no error with a stack in the log of serve', async () => {
    daemon = await startServe(['--port', '0', '--data-dir', home.path, '--no-demo']);
    contract = await daemon.contract();
    const signedIn = await contract.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    const accountId = (signedIn as { ok: true; value: { id: string } }).value.id;
    const clip = join(files.path, 'clip.mp4');
    await writeFile(clip, 'a clip');
    const refused = await contract.invoke('uploads:addPaths', {
      accountId,
      paths: [clip],
      metadata: { name: 'n'.repeat(300) },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
    const log = await readFile(join(home.path, 'logs', 'main.log'), 'utf8');
    expect(log).toContain('Signed in: demo at');
    expect(log).not.toMatch(/ERROR|\n\s+at /);
  });
});
