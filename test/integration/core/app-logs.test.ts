import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLog, type FileLog } from '../../../src-main/common/file-log.js';
import { AppCore } from '../../../src-main/core/app-core.js';
import { Engine } from '../../../src-main/core/engine.js';
import { MemorySettingsStore, NO_DESKTOP, type ShellPorts } from '../../../src-main/core/ports.js';
import { FileTokenVault } from '../../../src-main/storage/token-vault.js';
import type { IpcCommandName, IpcRequest } from '../../../src-shared/ipc/ipc-contract.js';
import { callCore, resultOf } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/** A token of no known shape, refused by the server: only its registration keeps it out of the log. */
const WRONG_TOKEN = 'wrong-Canary/Zq93+kd=Xy';

describe('the log of the app, on the reference server', () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let log: FileLog;
  let engine: Engine;
  let core: AppCore;
  let canary: string;
  const opened: string[] = [];

  async function open(shell: ShellPorts = NO_DESKTOP, envToken?: string) {
    // small files: a few entries already rotate, so every rotated file is read too
    log = createFileLog({ dir: join(data.path, 'logs'), maxBytes: 512, keep: 5 });
    engine = await Engine.open({ dataDir: data.path, settleMs: 300, log, secrets: log, envToken });
    core = new AppCore({
      engine,
      settings: new MemorySettingsStore(),
      shell,
      info: { version: '0.1.0', shell: 'electron', dataDir: data.path },
      tokenStorage: 'a file only your user can read (0600)',
      log,
    });
    await core.start();
  }

  async function close() {
    await core.dispose();
    await engine.close();
    await log.close();
  }

  /** Every log file, the rotated ones too, oldest first, as one text. */
  async function logFiles(): Promise<string> {
    const dir = join(data.path, 'logs');
    const age = (name: string) => Number(/\.(\d+)\.log$/.exec(name)?.[1] ?? 0);
    const read = async () => {
      const names = (await readdir(dir)).sort((a, b) => age(b) - age(a));
      return (await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8').catch(() => '')))).join('');
    };
    // the core writes as it goes (a token checked at start): an entry that rotates the files between the listing
    // and the reads would hide the older ones, so read until two reads agree
    let last = await read();
    for (let attempt = 0; attempt < 20; attempt++) {
      const again = await read();
      if (again === last) return again;
      last = again;
    }
    throw new Error('the log files kept changing while read');
  }

  const call = <N extends IpcCommandName>(name: N, request: IpcRequest<N>) => resultOf(core, name, request);
  const invoke = <N extends IpcCommandName>(name: N, request: IpcRequest<N>) => callCore(core, name, request);

  beforeEach(async () => {
    server = await startTestServer({ conversions: false });
    canary = server.newAccount('canary');
    data = await tempDir('media-sync-logs-');
    opened.length = 0;
  });

  afterEach(async () => {
    await close();
    await server.close();
    await data.remove();
  });

  it('says what happened, sign-in to refused token, and the canary token is in no log file and not in the diagnostics', async () => {
    await open();
    expect(await call('account:signIn', { baseUrl: server.baseUrl, token: WRONG_TOKEN })).toMatchObject({
      ok: false,
      error: { code: 'UNAUTHENTICATED' },
    });
    const { id: accountId } = await invoke('account:signIn', { baseUrl: server.baseUrl, token: canary });

    const path = join(data.path, 'canary.mp4');
    await writeFile(path, 'a canary clip');
    await call('uploads:addPaths', { accountId, paths: [path] });
    await waitFor(() => engine.uploads.list().find((item) => item.state.kind === 'done'), 15_000, 'the upload');
    // finished uploads are said once a second at most (UPLOADED_SUMMARY_MS), as one line
    await waitFor(async () => ((await logFiles()).includes(`Uploaded ${path}`) ? true : undefined), 5_000, 'its line');

    server.admin(['token', 'disable'], { token: canary });
    expect(await call('account:summary', { accountId })).toMatchObject({
      ok: false,
      error: { code: 'TOKEN_DISABLED' },
    });
    server.admin(['token', 'enable'], { token: canary });
    expect((await call('account:signIn', { baseUrl: server.baseUrl, token: canary })).ok).toBe(true);

    const { json } = await invoke('app:diagnostics', {});
    const files = await logFiles();
    expect((await readdir(log.dir)).length).toBeGreaterThan(1);
    for (const secret of [canary, encodeURIComponent(canary), canary.slice(4), WRONG_TOKEN]) {
      expect(files).not.toContain(secret);
      expect(json).not.toContain(secret);
    }
    expect(files).not.toContain(encodeURIComponent(WRONG_TOKEN));

    const who = `canary at ${server.baseUrl}`;
    const entries = files.split('\n').filter(Boolean);
    const expected = [
      /WARN {2}Signing in to .* failed: Unauthenticated\. \(UNAUTHENTICATED, request id [0-9a-f-]{36}\)$/,
      new RegExp(`INFO {2}Signed in: ${who}\\.$`),
      new RegExp(`INFO {2}Uploaded ${path} \\(file id [\\w-]+\\)\\.$`),
      new RegExp(
        `WARN {2}The server refused the token of ${who}: .* \\(TOKEN_DISABLED, request id [0-9a-f-]{36}\\) Its uploads wait until it signs in again\\.$`,
      ),
      new RegExp(`INFO {2}The token of ${who} is accepted again; its uploads go on\\.$`),
    ];
    for (const pattern of expected) expect(entries.some((line) => pattern.test(line))).toBe(true);
    for (const line of entries) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (INFO |WARN |ERROR) \S/);

    const report = JSON.parse(json) as { logs: { folder: string; recent: string[] } };
    expect(report.logs.folder).toBe(join(data.path, 'logs'));
    expect(report.logs.recent).toEqual(entries.slice(-200));
  });

  it('registers each token given to sign in, and those of the vault and the environment when it opens', async () => {
    await open();
    // refused, yet registered: it was sent, so an answer or an error may quote it
    expect((await call('account:signIn', { baseUrl: server.baseUrl, token: WRONG_TOKEN })).ok).toBe(false);
    log.warn(`a server echoed ${WRONG_TOKEN}`);
    expect(await logFiles()).toContain('a server echoed [redacted]');
    const { id: accountId } = await invoke('account:signIn', { baseUrl: server.baseUrl, token: canary });
    await close();

    // a new start: the account's token comes from the vault (replaced by one of no known shape), another from the environment
    const vaultToken = 'vault-Token_of/any+shape';
    await new FileTokenVault(join(data.path, 'credentials')).set(accountId, vaultToken);
    const envToken = 'env-Token_of/any+shape';
    await open(NO_DESKTOP, envToken);
    log.warn(`a server echoed ${vaultToken} and ${encodeURIComponent(envToken)}`);
    const files = await logFiles();
    expect(files).toContain('a server echoed [redacted] and [redacted]');
    expect(files).not.toContain('vault-Token');
    expect(files).not.toContain('env-Token');
  });

  it('gives the UI the log folder, opens it through the shell, and says so when the shell cannot', async () => {
    const shell: ShellPorts = { ...NO_DESKTOP, openLogsFolder: async () => void opened.push(log.dir) };
    await open(shell);
    expect(await call('app:info', {})).toEqual({
      ok: true,
      value: { version: '0.1.0', shell: 'electron', dataDir: data.path, logsDir: join(data.path, 'logs') },
    });
    expect(await call('app:openLogsFolder', {})).toEqual({ ok: true, value: { ok: true } });
    expect(opened).toEqual([join(data.path, 'logs')]);
    await close();

    await open(NO_DESKTOP);
    expect(await call('app:openLogsFolder', {})).toEqual({
      ok: false,
      error: {
        code: 'UNAVAILABLE',
        message: 'Media Sync cannot open folders from here; the log folder is shown in Settings, under Support.',
        requestId: null,
        text: { key: 'core.errors.noLogsFolder' },
      },
    });
  });

  it('writes down a command that failed for a reason of its own, with its stack', async () => {
    // a desktop without a file manager: the OS call fails in a way the core does not know
    const shell: ShellPorts = {
      ...NO_DESKTOP,
      openLogsFolder: () => Promise.reject(new Error('spawn xdg-open ENOENT')),
    };
    await open(shell);
    expect(await call('app:openLogsFolder', {})).toMatchObject({
      ok: false,
      error: { code: 'INTERNAL_ERROR', message: 'spawn xdg-open ENOENT' },
    });
    const failure = (await logFiles()).split('\n').find((line) => line.includes('app:openLogsFolder'));
    expect(failure).toMatch(/ERROR The command app:openLogsFolder failed\. \(Error: spawn xdg-open ENOENT\\n {4}at /);
  });
});
