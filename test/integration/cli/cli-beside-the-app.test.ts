import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MediaSyncBridge } from '../../../src-shared/ipc/ipc-contract.js';
import { runCli, startInProcessOwner, stopRunningClis, type CliRun } from '../../helpers/cli-process.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { startLocalHttpServer } from '../../helpers/local-http-server.js';
import { fakeMp4, serve } from '../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

type Mode = 'own' | 'beside';

interface Scene {
  mode: Mode;
  server: TestServer;
  /** the data folder */
  home: string;
  /** a folder of the test's files */
  files: string;
  /** runs `media-sync ARGS` in `files` on `home` */
  cli(args: string[], input?: string): Promise<CliRun>;
  /** the owner's contract beside which the CLI runs (null when the CLI holds the data folder itself) */
  owner: MediaSyncBridge | null;
  /** file ids to mask that the server no longer lists at the end (deleted) */
  fileIds: string[];
}

/** A run as compared between the two ways: what differs by nature (ids, ports, folders, times) named instead. */
interface Shown {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `steps` twice on fresh data folders and servers: once with the CLI
 * holding the data folder itself, once beside an owner (the core and owner
 * socket `media-sync serve` runs) that holds it, and expects the same exit
 * codes, stdout and stderr both ways, ids, ports, folders and times masked
 * and progress lines (which depend on timing) left out. Returns the runs.
 */
async function bothWays(
  steps: (scene: Scene) => Promise<CliRun[]>,
  serverOptions: Parameters<typeof startTestServer>[0] = {},
): Promise<Shown[]> {
  const shown: Partial<Record<Mode, Shown[]>> = {};
  for (const mode of ['own', 'beside'] as const) {
    const server = await startTestServer({ conversions: false, ...serverOptions });
    const home = await tempDir('media-sync-both-home-');
    const files = await tempDir('media-sync-both-files-');
    const owner = mode === 'beside' ? await startInProcessOwner(home.path) : null;
    try {
      const cli = (args: string[], input?: string) =>
        runCli(args, { home: home.path, input, cwd: files.path, env: { MEDIA_SYNC_SETTLE_MS: '300' } });
      const scene = { mode, server, home: home.path, files: files.path, cli, owner: owner?.contract ?? null };
      const fileIds: string[] = [];
      const runs = await steps({ ...scene, fileIds });
      const mask = await masker(server, fileIds, { HOME: home.path, FILES: files.path });
      shown[mode] = runs.map((run) => ({
        code: run.code,
        stdout: mask(run.stdout),
        stderr: mask(withoutProgress(run)),
      }));
    } finally {
      await stopRunningClis();
      await owner?.close();
      await server.close();
      await home.remove();
      await files.remove();
    }
  }
  expect(shown.beside).toEqual(shown.own);
  return shown.own!;
}

/** Progress lines (`clip.mp4: 40%  1.2 MB/s`) come as fast as the bytes do: not part of what must match. */
function withoutProgress(run: CliRun): string {
  return run.stderr
    .split('\n')
    .filter((text) => !/^.+: \d+%/.test(text))
    .join('\n');
}

/** Replaces the server's file and job ids (numbered by first appearance), UUIDs, its origin, folders and times. */
async function masker(server: TestServer, known: string[], folders: Record<string, string>) {
  const files = JSON.parse((await server.api('/files?per_page=100')).body.toString()) as { data: { id: string }[] };
  const ids = [...new Set([...known, ...files.data.map((file) => file.id)])];
  const idPattern = ids.length > 0 ? new RegExp(ids.join('|'), 'g') : null;
  return (text: string) => {
    // numbered by kind, in the order they first appear in this text
    const seen = new Map<string, string>();
    const name = (kind: string) => (value: string) => {
      if (!seen.has(value))
        seen.set(value, `<${kind}${[...seen.values()].filter((v) => v.startsWith(`<${kind}`)).length + 1}>`);
      return seen.get(value)!;
    };
    let masked = text.replaceAll(new URL(server.baseUrl).origin, 'ORIGIN');
    for (const [label, path] of Object.entries(folders)) masked = masked.replaceAll(path, label);
    if (idPattern) masked = masked.replace(idPattern, name('file'));
    return masked
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, name('uuid'))
      .replace(/\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}:\d{2}\s?[AP]M/g, '<time>')
      .replace(/\b1\d{12}\b/g, '<ms>');
  };
}

const login = (scene: Scene) => scene.cli(['login', '--base-url', scene.server.baseUrl], scene.server.token);

/**
 * Every command works beside the app (issue 22 §5): through the owner socket
 * when the desktop app or `media-sync serve` holds the data folder, with the
 * same output and exit code as when the command holds it itself.
 */
describe('media-sync beside the app', { timeout: 180_000 }, () => {
  it('login, account and logout: the owner is signed in and out; a refused token is said, never printed', async () => {
    const runs = await bothWays(async (scene) => {
      const runs = [await scene.cli(['account'])];
      runs.push(await scene.cli(['login', '--base-url', scene.server.baseUrl], 'mfs_not-a-token'));
      runs.push(await login(scene));
      if (scene.owner) expect(await scene.owner.invoke('account:list', {})).toHaveLength(1);
      runs.push(await scene.cli(['account']));
      runs.push(await scene.cli(['login', '--base-url', scene.server.baseUrl, '--json'], scene.server.token));
      runs.push(await scene.cli(['logout']));
      if (scene.owner) expect(await scene.owner.invoke('account:list', {})).toEqual([]);
      runs.push(await scene.cli(['logout']));
      for (const run of runs) expect(run.stdout + run.stderr).not.toContain(scene.server.token);
      return runs;
    });
    expect(runs.map((run) => run.code)).toEqual([1, 1, 0, 0, 0, 0, 1]);
    expect(runs[0]!.stderr).toBe('Error: Not signed in. Run: media-sync login --base-url URL < token.txt\n');
    expect(runs[1]!.stderr).toBe('Error: Unauthenticated. (request id <uuid1>)\n');
    expect(runs[2]!.stdout).toBe('Signed in as demo at ORIGIN/api/v1 (free plan: files up to 4 GiB).\n');
    expect(runs[3]!.stdout).toMatch(/^Username\s+demo\nEmail\s+demo@/);
    expect(JSON.parse(runs[4]!.stdout)).toMatchObject({ account: { username: 'demo', plan: 'free' } });
    expect(runs[5]!.stdout).toBe(
      "Signed out of ORIGIN/api/v1. The token was deleted from this computer; the account's watched folders and queued files wait for it to sign in again (media-sync login), or move its folders to another account (media-sync folders move ID).\n",
    );
  });

  it('upload and queue: links at the end, missing paths and folders named, the queue paused, listed and changed', async () => {
    const runs = await bothWays(async (scene) => {
      await writeFile(join(scene.files, 'a.mp4'), fakeMp4(20_000));
      await writeFile(join(scene.files, 'b.txt'), 'notes');
      await writeFile(join(scene.files, 'c.mp4'), fakeMp4(5_000));
      // sparse: 4 GiB + 1 byte, over the free plan's limit, costs no disk
      await writeFile(join(scene.files, 'huge.mp4'), '');
      await truncate(join(scene.files, 'huge.mp4'), 4 * 1024 ** 3 + 1);
      await login(scene);
      const runs: CliRun[] = [];
      for (const args of [
        ['upload', 'a.mp4', 'b.txt'],
        ['upload', 'a.mp4'],
        ['upload', 'missing.mp4', 'a.mp4'],
        ['upload', '.'],
        ['queue', 'pause'],
        ['upload', 'c.mp4'],
        ['queue', 'ls'],
        ['queue', 'ls', '--json'],
        ['queue', 'cancel', '3'],
        ['queue', 'retry', '3'],
        ['queue', 'pause', '3', '--for', '2h'],
        ['queue', 'resume', '3'],
        ['queue', 'cancel', '3'],
        ['queue', 'clear'],
        ['queue', 'resume'],
        ['queue', 'ls'],
        ['queue', 'retry', '99'],
        ['queue', 'retry', 'x'],
        ['upload', 'huge.mp4'],
      ]) {
        runs.push(await scene.cli(args));
      }
      return runs;
    });
    expect(runs.map((run) => run.code)).toEqual([0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 1]);
    const [both, again, missing, folder, , paused, listed] = runs;
    expect(both!.stdout).toBe('a.mp4: done <file1> ORIGIN/<file1>/watch\nb.txt: done <file2> ORIGIN/<file2>/file\n');
    expect(again!.stderr).toBe('a.mp4: already uploaded as <file1> (use --force to upload it again)\n');
    expect(missing!.stderr).toBe(
      'Error: There is no file at “FILES/missing.mp4”. Check the spelling, and that the disk it is on is connected.\n',
    );
    expect(folder!.stderr).toBe(
      'Error: “FILES” is a folder; only files go to the queue. Watch the folder to upload what is in it.\n',
    );
    expect(paused!.stdout).toBe('c.mp4: queued\n');
    expect(paused!.stderr).toContain('The upload queue is paused; the files wait in it');
    expect(listed!.stdout).toMatch(
      /^Queue paused\.\n#1 +a\.mp4 +20\.0 KB +done <file1>\n#2 +b\.txt .*\n#3 +c\.mp4 .* queued\n$/,
    );
    // --json: the person's pause as the contract says it, {until: null} (until resumed)
    expect(runs[7]!.stdout).toMatch(/^\{"pause":\{"until":null\},"hold":null,"items":\[/);
    expect(runs[10]!.stdout).toBe('#3 c.mp4: paused until <time>\n');
    expect(runs[13]!.stdout).toBe('Removed 3 finished items.\n');
    expect(runs[15]!.stdout).toBe('The queue is empty.\n');
    expect(runs[16]!.stderr).toBe('Error: There is no upload #99.\n');
    // a failure is said once, on stdout, where the command's last word on each file is
    expect(runs[18]!.stdout).toBe(
      "huge.mp4: failed: This file is 4.00 GiB; the account's plan accepts files up to 4 GiB. Nothing was sent.\n",
    );
    expect(runs[18]!.stderr).toBe('');
  });

  it('watch --once: the folder joins the watched folders, what was there is uploaded, a file is refused', async () => {
    const runs = await bothWays(async (scene) => {
      await mkdir(join(scene.files, 'clips'));
      await writeFile(join(scene.files, 'clips', 'x.mp4'), fakeMp4(4_000));
      await writeFile(join(scene.files, 'clips', 'y.txt'), 'y');
      await login(scene);
      const runs = [await scene.cli(['watch', 'clips', '--once'])];
      runs.push(await scene.cli(['watch', 'clips', '--once', '--json']));
      runs.push(await scene.cli(['watch', 'clips/x.mp4', '--once']));
      if (scene.owner) {
        const folders = await scene.owner.invoke('folders:list', {});
        expect(folders.map((folder) => folder.path)).toEqual([join(scene.files, 'clips')]);
      }
      // the order two files settle in is the watcher's: sorted, the lines must match
      runs[0]!.stderr = runs[0]!.stderr.split('\n').sort().join('\n');
      return runs;
    });
    expect(runs.map((run) => run.code)).toEqual([0, 0, 1]);
    expect(runs[0]!.stdout).toBe('2 files uploaded.\n');
    expect(runs[0]!.stderr).toContain('uploaded FILES/clips/x.mp4 → ORIGIN/');
    expect(runs[0]!.stderr).toContain('watching FILES/clips');
    expect(JSON.parse(runs[1]!.stdout)).toEqual({ uploaded: [] });
    expect(runs[2]!.stderr).toBe(
      'Error: “FILES/clips/x.mp4” is a file, not a folder. Choose the folder that holds it instead.\n',
    );
  });

  it('files ls, show, status, edit and rm: the same answers, the same refusals', async () => {
    const runs = await bothWays(async (scene) => {
      await writeFile(join(scene.files, 'beach.mp4'), fakeMp4(10_000));
      await login(scene);
      const uploaded = await scene.cli(['upload', 'beach.mp4', '--public', '--json']);
      const fileId = (JSON.parse(uploaded.stdout) as { uploads: { fileId: string }[] }).uploads[0]!.fileId;
      scene.fileIds.push(fileId);
      const runs: CliRun[] = [];
      for (const args of [
        ['files', 'ls', '--search', 'beach'],
        ['files', 'show', fileId],
        ['files', 'status', fileId, '--json'],
        ['files', 'edit', fileId, '--name', 'Beach day', '--private'],
        ['files', 'edit', fileId, '--name', 'x'.repeat(256)],
        ['files', 'ls', '--per-page', '7'],
        ['files', 'rm', fileId],
        ['files', 'show', fileId],
      ]) {
        runs.push(await scene.cli(args));
      }
      return runs;
    });
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0, 2, 2, 0, 1]);
    expect(runs[0]!.stdout).toMatch(/^<file1> +beach\.mp4 +10\.0 KB +public/);
    expect(runs[1]!.stdout).toMatch(/File link +ORIGIN\/<file1>\/file\nWatch page +ORIGIN\/<file1>\/watch/);
    expect(runs[3]!.stdout).toBe('Updated <file1>: name, visibility.\n');
    expect(runs[4]!.stderr).toMatch(
      /^Error: Cannot edit:\n--name must be at most 255 characters \(256 now\); shorten it\.\n/,
    );
    expect(runs[6]!.stdout).toBe('Deleted <file1>.\n');
    expect(runs[7]!.stderr).toMatch(/not found/i);
  });

  it('import --wait and jobs ls, show, retry and cancel: the same jobs, the same refusals', async () => {
    const source = await startLocalHttpServer();
    source.route('/clip.mp4', serve(fakeMp4(50_000), 'video/mp4'));
    try {
      const runs = await bothWays(
        async (scene) => {
          await login(scene);
          const imported = await scene.cli(['import', `${source.origin}/clip.mp4`, '--name', 'Clip', '--wait']);
          const jobId = /^([0-9a-f-]{36}) +completed/.exec(imported.stdout)?.[1] ?? 'none';
          const runs = [imported];
          for (const args of [
            ['jobs', 'ls'],
            ['jobs', 'show', jobId],
            ['jobs', 'retry', jobId],
            ['jobs', 'cancel', jobId],
            ['import', 'https://user:pw@example.com/a.mp4'],
          ]) {
            runs.push(await scene.cli(args));
          }
          return runs;
        },
        { allowPrivateTargets: true },
      );
      expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 1, 1, 2]);
      expect(runs[0]!.stdout).toMatch(/^<uuid1> +completed +\S+ +100% +Clip +<file1>/);
      expect(runs[1]!.stdout).toContain('<uuid1>');
      expect(runs[2]!.stdout).toMatch(/^<uuid1> +completed/);
      expect(runs[5]!.stderr).toContain(
        '  link 1 of 1, https://…@example.com/a.mp4: contains a user name or password; remove them from the link\n',
      );
    } finally {
      await source.close();
    }
  });

  it('import names each link the service refused, with its place on the command line and the reason', async () => {
    const urls = ['https://media.example/a.mp4', 'http://127.0.0.1:9/b.mp4', 'http://10.1.2.3/c.mp4'];
    const runs = await bothWays(async (scene) => {
      await login(scene);
      return [await scene.cli(['import', ...urls]), await scene.cli(['import', ...urls, '--json'])];
    });
    expect(runs.map((run) => run.code)).toEqual([1, 1]);
    const lines = runs[0]!.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Error: The given data was invalid\. \(request id <uuid1>\)$/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^ {2}link 2 of 3, http:\/\/127\.0\.0\.1:9\/b\.mp4: This URL is not allowed: .+\.$/),
      expect.stringMatching(/^ {2}link 3 of 3, http:\/\/10\.1\.2\.3\/c\.mp4: This URL is not allowed: .+\.$/),
    ]);
    expect(runs[0]!.stdout).toBe('');
    expect(JSON.parse(runs[1]!.stdout)).toMatchObject({
      error: { code: 'VALIDATION_ERROR', requestId: '<uuid1>' },
      refused: [
        { position: 2, url: urls[1], reasons: [expect.stringContaining('not allowed')] },
        { position: 3, url: urls[2], reasons: [expect.stringContaining('not allowed')] },
      ],
    });
  });
});
