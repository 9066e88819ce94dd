import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupportFilePreview } from '../../../src-shared/ipc/ipc-contract.js';
import { runCli, stopRunningClis } from '../../helpers/cli-process.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startServe, type ServeProcess } from '../../helpers/serve-process.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import type { WsContractClient } from '../../helpers/ws-client.js';

/** Every entry of the zip at `path` as `unzip` (not the app's own writer) reads it: name → text. */
function unzipAll(path: string): Map<string, string> {
  const names = execFileSync('unzip', ['-Z1', path], { encoding: 'utf8' }).split('\n').filter(Boolean);
  return new Map(names.map((name) => [name, execFileSync('unzip', ['-p', path, name], { encoding: 'utf8' })]));
}

/** The entries of `entries` that contain `secret`, as a list a failure shows. */
function holding(entries: Map<string, string>, secret: string): string[] {
  return [...entries].filter(([, text]) => text.includes(secret)).map(([name]) => name);
}

/**
 * A support file of `media-sync serve` that uploaded a file of a watched
 * folder and failed another, with every secret it holds planted where it
 * could leak: signed in with the token, the daemon's session key, a file
 * password set with files:update, and a log line carrying all of them with a cookie and a URL with
 * a query string. The zip is read by `unzip` and searched entry by entry.
 */
describe('support file (media-sync support-file beside media-sync serve)', () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let daemon: ServeProcess;
  let contract: WsContractClient;
  let home: string;
  let sessionKey: string;
  const EDIT_PASSWORD = 'edit-password-Quokka-7781';
  const COOKIE_VALUE = 'cookie-value-Numbat-9921';
  const QUERY_VALUE = 'query-value-Bilby-3310';
  const UPLOADED = 'holiday-at-grandmas-house.mp4';
  const FAILED = 'passport-scan-of-alice.mov';
  const FOLDER = 'alice-private-camera';

  async function value<T>(name: string, request: unknown = {}): Promise<T> {
    const result = await contract.invoke(name, request);
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    return result.value as T;
  }

  beforeAll(async () => {
    server = await startTestServer({ conversions: false });
    data = await tempDir('media-sync-support-');
    home = join(data.path, 'home');
    daemon = await startServe(['--port', '0', '--data-dir', home]);
    sessionKey = daemon.url.searchParams.get('key')!;
    contract = await daemon.contract();
    const { id: accountId } = await value<{ id: string }>('account:signIn', {
      baseUrl: server.baseUrl,
      token: server.token,
    });
    const folder = join(data.path, FOLDER);
    await mkdir(folder);
    await writeFile(join(folder, UPLOADED), 'a short clip');
    // over the free plan's 4 GiB (sparse: no disk used): it fails before a byte is sent
    await writeFile(join(folder, FAILED), '');
    await truncate(join(folder, FAILED), 4.5 * 1024 ** 3);
    await value('folders:add', { accountId, path: folder });
    type Item = { fileName: string; state: { kind: string; fileId?: string } };
    const items = await waitFor(
      async () => {
        const list = (await value<{ items: Item[] }>('uploads:list', { offset: 0, limit: 10 })).items;
        const kinds = list.map((item) => item.state.kind).sort();
        return kinds.join() === 'done,failed' ? list : undefined;
      },
      60_000,
      'one upload done and one failed',
      200,
    );
    const done = items.find((item) => item.state.kind === 'done')!;
    await value('files:update', { accountId, fileId: done.state.fileId, changes: { password: EDIT_PASSWORD } });
    // a line as an older version, a proxy or a library might have written it
    const line =
      `${new Date().toISOString()} WARN  planted: token ${server.token} key ${sessionKey} ` +
      `password ${EDIT_PASSWORD} Cookie: theme=dark; sid=${COOKIE_VALUE} ` +
      `GET ${server.baseUrl}/files?search=${FAILED}&sig=${QUERY_VALUE} failed for ${join(folder, UPLOADED)}\n`;
    await appendFile(join(home, 'logs', 'main.log'), line);
  }, 120_000);

  afterAll(async () => {
    contract?.close();
    await stopRunningClis();
    daemon?.child.kill('SIGKILL');
    await server?.close();
    await data?.remove();
  });

  it('holds the log, app, settings, accounts, folders, queue and requests, and not one secret or name', async () => {
    const out = join(data.path, 'support.zip');
    const run = await runCli(['support-file', '--out', out], { home, cwd: data.path });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const size = (await stat(out)).size;
    expect(run.stdout).toContain(out);
    expect(run.stdout).toContain('logs/main.log');

    const entries = unzipAll(out);
    expect([...entries.keys()].sort()).toEqual([
      'README.txt',
      'accounts.json',
      'app.json',
      'folders.json',
      'logs/main.log',
      'queue.json',
      'requests.json',
      'settings.json',
    ]);
    for (const secret of [server.token, sessionKey, EDIT_PASSWORD, COOKIE_VALUE, QUERY_VALUE]) {
      expect(holding(entries, secret), secret).toEqual([]);
    }
    for (const name of [UPLOADED, FAILED, FOLDER, 'holiday-at-grandmas-house', 'passport-scan-of-alice']) {
      expect(holding(entries, name), name).toEqual([]);
    }
    expect(entries.get('logs/main.log')).toContain('planted: token [redacted] key [redacted]');
    expect(entries.get('logs/main.log')).toMatch(/Cookie: \[redacted\]/);
    // the same name, the same stand-in, with its extension
    const standIns = entries.get('logs/main.log')!.match(/name-[0-9a-f]{6}\.mp4/g) ?? [];
    expect(standIns.length).toBeGreaterThan(1);
    expect(new Set(standIns).size).toBe(1);
    expect(entries.get('README.txt')).toContain('Removed from every entry');

    const accounts = JSON.parse(entries.get('accounts.json')!) as Array<{ baseUrl: string; plan: string }>;
    // the test server's, beside the demo account `serve` signs in to when it starts with none
    expect(accounts).toContainEqual(expect.objectContaining({ baseUrl: server.baseUrl, plan: 'free' }));
    const queue = JSON.parse(entries.get('queue.json')!) as {
      counts: Record<string, number>;
      failed: Array<{ fileName: string; state: { kind: string } }>;
    };
    expect(queue.counts).toMatchObject({ done: 1, failed: 1 });
    expect(queue.failed).toEqual([
      expect.objectContaining({ fileName: expect.stringMatching(/^name-[0-9a-f]{6}\.mov$/) }),
    ]);
    const requests = JSON.parse(entries.get('requests.json')!) as Array<{
      records: Array<{ method: string; path: string; status: number | null; requestId: string | null }>;
    }>;
    const records = requests.flatMap((account) => account.records);
    expect(records).toContainEqual(expect.objectContaining({ method: 'PATCH', status: 200 }));
    expect(records.every((record) => !record.path.includes('?'))).toBe(true);
    expect(records.filter((record) => record.requestId !== null).length).toBeGreaterThan(0);

    // the dialog's preview: the same entries, and a size close to the saved zip's (its log grew meanwhile)
    const preview = await value<SupportFilePreview>('support:preview', { days: 3, includeNames: false });
    expect(preview.entries.map((entry) => entry.name).sort()).toEqual([...entries.keys()].sort());
    expect(Math.abs(preview.size - size)).toBeLessThan(4096);
  });

  it('with --include-names keeps the file and folder names, and still no secret', async () => {
    const out = join(data.path, 'with-names.zip');
    const run = await runCli(['support-file', '--include-names', '--days', '1', '--out', out], {
      home,
      cwd: data.path,
    });
    expect(run.code).toBe(0);
    const entries = unzipAll(out);
    expect(holding(entries, FAILED)).toEqual(expect.arrayContaining(['queue.json', 'logs/main.log']));
    expect(holding(entries, FOLDER)).toEqual(expect.arrayContaining(['folders.json']));
    for (const secret of [server.token, sessionKey, EDIT_PASSWORD, COOKIE_VALUE, QUERY_VALUE]) {
      expect(holding(entries, secret), secret).toEqual([]);
    }
  });

  it('writes to the current folder under its dated name by default, and refuses a --days out of range', async () => {
    const run = await runCli(['support-file', '--json'], { home, cwd: data.path });
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as { path: string; size: number };
    expect(answer.path).toMatch(new RegExp(`^${data.path}/media-sync-support-\\d{4}-\\d{2}-\\d{2}-[\\d-]+\\.zip$`));
    expect((await stat(answer.path)).size).toBe(answer.size);

    const refused = await runCli(['support-file', '--days', '0'], { home, cwd: data.path });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--days must be a whole number from 1 to 30');
  });
});
