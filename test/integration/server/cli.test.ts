import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, rawRequest } from '../../helpers/raw-http.js';
import { notPrivate, openToOthers, openUpTree, readAsNobody, RUNS_AS_ROOT } from '../../helpers/unprivileged.js';

const exec = promisify(execFile);
const root = new URL('../../../', import.meta.url).pathname;

interface Started {
  child: ChildProcess;
  exited: Promise<void>;
  line: { base_url: string; file_host: string; token: string };
  stdoutLines: string[];
  stderr: () => string;
}

/** `npm run server -- ARGS` as a person would type it; resolves on the JSON line. */
async function startCli(args: string[]): Promise<Started> {
  // Its own process group, like a terminal job: npm, tsx and node all get the signal, as with Ctrl-C.
  const child = spawn('npm', ['run', '--silent', 'server', '--', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr!.on('data', (data: Buffer) => (stderr += data.toString()));
  const stdoutLines: string[] = [];
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no JSON line within 30 s; stderr: ${stderr}`)), 30_000);
    lines.on('line', (line) => {
      stdoutLines.push(line);
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  return { child, exited, line: JSON.parse(first), stdoutLines, stderr: () => stderr };
}

/** Ctrl-C and wait for the whole job: npm may exit before the server it started has closed (CI saw it answer after). */
async function stopCli(started: Started): Promise<void> {
  const group = -started.child.pid!;
  if (started.child.exitCode === null && started.child.signalCode === null) process.kill(group, 'SIGTERM');
  await started.exited;
  for (let tries = 0; groupAlive(group); tries++) {
    if (tries === 100) throw new Error('the server was still running 10 s after SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function groupAlive(group: number): boolean {
  try {
    process.kill(group, 0);
    return true;
  } catch {
    return false;
  }
}

function admin(dataDir: string, ...args: string[]) {
  return exec('npm', ['run', '--silent', 'server', '--', 'admin', '--data-dir', dataDir, ...args], { cwd: root }).then(
    ({ stdout }) => JSON.parse(stdout),
  );
}

describe('npm run server', () => {
  let dataDir: string;
  let server: Started;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'media-server-cli-'));
    server = await startCli(['--port', '0', '--data-dir', dataDir, '--rate-limit', '7', '--rate-window', '60']);
  });
  afterAll(async () => {
    await stopCli(server);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints exactly one JSON line with base_url, file_host and the demo token; logs go to stderr', async () => {
    expect(server.line).toEqual({
      base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/),
      file_host: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      token: expect.stringMatching(/^mfs_/),
    });
    expect(server.line.base_url).toBe(`${server.line.file_host}/api/v1`);
    const account = await rawRequest(`${server.line.base_url}/account`, {
      headers: { Authorization: `Bearer ${server.line.token}`, Accept: 'application/json' },
    });
    expect(account.json.data).toMatchObject({ username: 'demo' });
    expect(account.headers['x-ratelimit-limit']).toBe('7');
    expect(server.stdoutLines).toHaveLength(1);
    expect(server.stderr()).toContain('Server listening');
    expect(server.stderr()).not.toContain(server.line.token);
  });

  it('keeps the demo token in a file only its owner can read', async () => {
    expect((await stat(join(dataDir, 'demo-token'))).mode & 0o777).toBe(0o600);
  });

  it('admin commands work while it runs', async () => {
    const created = await admin(dataDir, 'account', 'create', 'bob', '--plan', 'premium');
    expect(created).toEqual({ account: 'bob', token: expect.stringMatching(/^mfs_/) });
    const api = (path: string, token: string, method = 'GET') =>
      rawRequest(`${server.line.base_url}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
    expect((await api('/account', created.token)).json.data.username).toBe('bob');

    const { token: readOnly } = await admin(
      dataDir,
      'token',
      'create',
      '--account',
      'bob',
      '--abilities',
      'files:read',
      '--ip',
      '127.0.0.0/8,::1/128',
    );
    expect((await api('/files', readOnly)).status).toBe(200);
    expect((await api('/files/x', readOnly, 'DELETE')).json.error.code).toBe('TOKEN_ABILITY_DENIED');

    const { token: disabled } = await admin(dataDir, 'token', 'create', '--account', 'bob', '--disabled');
    expect((await api('/account', disabled)).json.error.code).toBe('TOKEN_DISABLED');

    const { token: expiring } = await admin(dataDir, 'token', 'create', '--account', 'bob', '--expires-in', '3600');
    expect((await api('/account', expiring)).status).toBe(200);

    expect(await admin(dataDir, 'folder', 'create', '--account', 'bob')).toEqual({ folder_id: expect.any(Number) });

    expect(await admin(dataDir, 'api', 'disable')).toEqual({ api: 'disabled' });
    expect((await api('/account', created.token)).json.error.code).toBe('API_DISABLED');
    await admin(dataDir, 'api', 'enable');
    expect((await api('/account', created.token)).status).toBe(200);
  });

  it('admin mistakes exit 2 with a message and no stack trace', async () => {
    const failure = await exec(
      'npm',
      ['run', '--silent', 'server', '--', 'admin', '--data-dir', dataDir, 'token', 'create', '--account', 'nobody'],
      {
        cwd: root,
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect((failure as { code: number }).code).toBe(2);
    expect((failure as { stderr: string }).stderr).toContain('no account named nobody');
    expect((failure as { stderr: string }).stderr).not.toMatch(/\n\s+at /);
  });

  it('a bad flag value names the flag and exits 2', async () => {
    const failure = (await exec('npm', ['run', '--silent', 'server', '--', '--port', 'eighty', '--data-dir', dataDir], {
      cwd: root,
    }).catch((error: unknown) => error)) as { code: number; stderr: string };
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('--port:');
  });

  it('stops on SIGTERM and prints the same demo token on the next start', async () => {
    await stopCli(server);
    await expect(rawRequest(`${server.line.base_url}/account`)).rejects.toThrow(/ECONNREFUSED/);
    expect(server.stderr()).not.toMatch(/\n\s+at /);
    const again = await startCli(['--port', '0', '--data-dir', dataDir]);
    try {
      expect(again.line.token).toBe(server.line.token);
    } finally {
      await stopCli(again);
    }
  });
});

describe.skipIf(!RUNS_AS_ROOT)(
  'npm run server with a --data-dir other users could read (as root: `nobody` tries)',
  () => {
    let folder: string;
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'media-server-private-'));
      // only the data dir's own modes stand between it and `nobody`
      await openToOthers(folder);
    });
    afterAll(() => rm(folder, { recursive: true, force: true }));

    /** Uploads a small private file and answers its id: its bytes are kept as `files/<id>`. */
    async function upload(started: Started, name: string): Promise<string> {
      const { body, contentType } = multipart({ visibility: 0 }, { filename: name, content: Buffer.from(name) });
      const answer = await rawRequest(`${started.line.base_url}/files/upload`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${started.line.token}`,
          'Content-Type': contentType,
          Accept: 'application/json',
        },
        body,
      });
      expect(answer.status).toBe(201);
      return answer.json.data.id as string;
    }

    it('makes it private at the start (0700 folders, 0600 files, the umask for new ones) and says so', async () => {
      const dataDir = join(folder, 'server');
      const first = await startCli(['--port', '0', '--data-dir', dataDir]);
      const before = await upload(first, 'before.txt');
      await stopCli(first);
      await openUpTree(dataDir);
      expect(await readAsNobody(join(dataDir, 'server.sqlite'))).toBe('read');

      const second = await startCli(['--port', '0', '--data-dir', dataDir]);
      try {
        const after = await upload(second, 'after.txt');
        expect(await notPrivate(dataDir)).toEqual([]);
        for (const path of ['server.sqlite', `files/${before}`, `files/${after}`]) {
          expect({ path, read: await readAsNobody(join(dataDir, path)) }).toEqual({ path, read: 'EACCES' });
        }
        expect(second.stderr()).toContain(`Made ${dataDir} private (other users could read it): . 0755→0700`);
        expect(second.stderr()).toMatch(/server\.sqlite 0644→0600/);
      } finally {
        await stopCli(second);
      }
    });
  },
);
