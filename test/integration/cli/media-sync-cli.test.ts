import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCli, stopRunningClis } from '../../helpers/cli-process.js';
import { startLocalHttpServer, waitFor } from '../../helpers/local-http-server.js';
import { fakeMp4, serve } from '../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { sha256File, sha256Url, tempDir, writeRandomFile } from '../../helpers/engine-fixture.js';
import { afterResume, committedChunks, readSavedUploads, stopWith } from '../../helpers/saved-queue.js';

describe('media-sync CLI', () => {
  let server: TestServer;
  let home: Awaited<ReturnType<typeof tempDir>>;
  let files: Awaited<ReturnType<typeof tempDir>>;

  beforeEach(async () => {
    server = await startTestServer();
    home = await tempDir('media-sync-home-');
    files = await tempDir('media-sync-cli-files-');
  });

  afterEach(async () => {
    // a test that failed half-way leaves no command running
    await stopRunningClis();
    await server.close();
    await home.remove();
    await files.remove();
  });

  const start = (args: string[], input?: string, env?: Record<string, string>, cwd?: string) =>
    startCli(args, { home: home.path, input, env, cwd });

  const cli = (args: string[], input?: string, env?: Record<string, string>) => start(args, input, env).done;

  it('signs in with a token on stdin, and a bad token or URL gets a clear message and exit code', async () => {
    const bad = await cli(['login', '--base-url', server.baseUrl], 'not-a-token');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Error: Unauthenticated\. \(request id [0-9a-f-]{36}\)\n$/);
    expect(bad.stderr).not.toContain('not-a-token');

    const wrongUrl = await cli(['login', '--base-url', 'ftp://example.com'], server.token);
    expect(wrongUrl.code).toBe(1);
    expect(wrongUrl.stderr).toContain('must start with http:// or https://');

    const usage = await cli(['upload']);
    expect(usage.code).toBe(2);

    const good = await cli(['login', '--base-url', server.baseUrl, '--json'], server.token);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ account: { username: 'demo', plan: 'free' } });
    const account = await cli(['account']);
    expect(account.stdout).toMatch(/Username\s+demo/);
  });

  it('killed with SIGKILL mid-upload, then run again, resumes the same upload with at most 3 chunks re-sent', async () => {
    expect((await cli(['login', '--base-url', server.baseUrl], server.token)).code).toBe(0);
    const path = join(files.path, 'long take.mp4');
    await writeRandomFile(path, 100_000_000, 3);
    const args = ['upload', path, '--chunk-size', '10MB', '--bandwidth', '25MB'];

    const first = start(args);
    await waitFor(
      () => (server.server.uploadLog.entries().filter((u) => u.status === 200).length >= 3 ? true : undefined),
      30_000,
      'three acknowledged chunks',
    );
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const beforeRestart = server.server.uploadLog.entries().length;
    expect(beforeRestart).toBeLessThan(10);

    const second = await cli(args);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('long take.mp4: resuming the upload started earlier');
    // a line per 10% (stderr is no terminal), with the speed and, measured two seconds, the time left
    expect(second.stderr).toMatch(/^long take\.mp4: \d+% {2}\d+(\.\d+)? MB\/s, \d+ s left$/m);
    expect(second.stdout).toMatch(/^long take\.mp4: done \S+ http:\/\/127\.0\.0\.1:\d+\/\S+\/watch\n$/);
    expect(second.stdout + second.stderr).not.toContain(server.token);

    const chunks = server.server.uploadLog.entries();
    expect(new Set(chunks.map((c) => c.dzuuid)).size).toBe(1);
    expect(new Set(chunks.map((c) => c.chunkIndex)).size).toBe(10);
    expect(chunks.length - 10).toBeLessThanOrEqual(3);
    const listed = JSON.parse((await server.api('/files')).body.toString()) as { data: { id: string }[] };
    expect(listed.data.length).toBe(1);
    expect(await sha256Url(`${server.fileHost}/${listed.data[0]!.id}/file`)).toBe(await sha256File(path));

    // once more: already uploaded, nothing sent
    const third = await cli(args);
    expect(third.code).toBe(0);
    expect(third.stderr).toContain('already uploaded');
    expect(server.server.uploadLog.entries().length).toBe(chunks.length);
  });

  /** The item the stop left: back in line, not done, with at least the chunks committed before the signal. */
  const expectKeptForResume = (before: number[]) => {
    const [saved] = readSavedUploads(home.path);
    expect(saved!.state.kind).toBe('queued');
    expect(saved!.acked_chunks).toEqual(expect.arrayContaining(before));
    return saved!;
  };

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    'upload stops on %s within 5 s, keeping the acknowledged chunks, and the same command resumes from them',
    async (signal, exitCode) => {
      expect((await cli(['login', '--base-url', server.baseUrl], server.token)).code).toBe(0);
      const path = join(files.path, 'evening.mp4');
      await writeRandomFile(path, 40_000_000, 21);
      const args = ['upload', path, '--chunk-size', '5MB', '--bandwidth', '8MB'];

      const first = start(args);
      const before = await committedChunks(home.path, 2);
      const stopped = await stopWith(first.child, signal);
      expect(stopped.code).toBe(exitCode);
      expect(stopped.ms).toBeLessThan(5_000);
      expect(first.stderr()).toContain(`Stopped on ${signal}: 1 upload kept; run the same command to resume.`);
      const saved = expectKeptForResume(before);
      const sentBefore = server.server.uploadLog.entries().length;

      const second = await cli(['upload', path, '--chunk-size', '5MB']);
      expect(second.code).toBe(0);
      expect(second.stderr).toContain('evening.mp4: resuming the upload started earlier');
      expect(await afterResume(server, saved, sentBefore)).toEqual({
        dzuuids: [saved.dzuuid],
        resentAcked: [],
        storedSha256: [await sha256File(path)],
      });
    },
  );

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'watch stops on %s within 5 s mid-upload with exit 0, and the next run resumes from the acknowledged chunks',
    async (signal) => {
      expect((await cli(['login', '--base-url', server.baseUrl], server.token)).code).toBe(0);
      const settle = { MEDIA_SYNC_SETTLE_MS: '300' };
      const path = join(files.path, 'arrivals.mp4');
      await writeRandomFile(path, 40_000_000, 22);

      const first = start(['watch', files.path, '--chunk-size', '5MB', '--bandwidth', '8MB'], undefined, settle);
      const before = await committedChunks(home.path, 2);
      const stopped = await stopWith(first.child, signal);
      expect(stopped.code).toBe(0);
      expect(stopped.ms).toBeLessThan(5_000);
      expect(first.stderr()).toContain(`Stopped on ${signal}`);
      const saved = expectKeptForResume(before);
      const sentBefore = server.server.uploadLog.entries().length;

      const again = await cli(['watch', files.path, '--once', '--chunk-size', '5MB'], undefined, settle);
      expect(again.code).toBe(0);
      expect(await afterResume(server, saved, sentBefore)).toEqual({
        dzuuids: [saved.dzuuid],
        resentAcked: [],
        storedSha256: [await sha256File(path)],
      });
    },
  );

  it('a file over the plan limit fails before any byte is sent, with a non-zero exit', async () => {
    expect((await cli(['login', '--base-url', server.baseUrl], server.token)).code).toBe(0);
    const path = join(files.path, 'huge.mp4');
    // sparse: 4 GiB + 1 byte costs no disk
    const { open } = await import('node:fs/promises');
    const handle = await open(path, 'w');
    await handle.truncate(4 * 1024 ** 3 + 1);
    await handle.close();
    const run = await cli(['upload', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "This file is 4.00 GiB; the account's plan accepts files up to 4 GiB. Nothing was sent.",
    );
    expect(server.server.uploadLog.entries()).toEqual([]);
  });

  it('watch uploads what lands in the folder, survives kill -9 and a restart without duplicates; --once exits', async () => {
    expect((await cli(['login', '--base-url', server.baseUrl], server.token)).code).toBe(0);
    const settle = { MEDIA_SYNC_SETTLE_MS: '300' };
    const args = ['watch', files.path, '--chunk-size', '5MB', '--bandwidth', '20MB'];
    const first = start(args, undefined, settle);
    await writeFile(join(files.path, 'small.mp4'), 'small clip');
    await writeRandomFile(join(files.path, 'large.mp4'), 30_000_000, 9);
    await waitFor(
      () =>
        server.server.uploadLog.entries().filter((u) => u.fileName === 'large.mp4').length >= 2 ? true : undefined,
      30_000,
      'the large file under way',
    );
    first.child.kill('SIGKILL');
    await first.done;

    const second = start(args, undefined, settle);
    await writeFile(join(files.path, 'later.mp4'), 'arrived while the second run watched');
    const names = async () =>
      (JSON.parse((await server.api('/files')).body.toString()) as { data: { filename: string }[] }).data
        .map((f) => f.filename)
        .sort();
    // once a second: the listing shares the token's 60 requests a minute with the uploads
    await waitFor(async () => ((await names()).length === 3 ? true : undefined), 30_000, 'three files', 1_000);
    // the server has them; stop once the watcher has also recorded them as done
    await waitFor(
      () =>
        /uploaded .*large\.mp4/.test(second.stderr()) && /uploaded .*later\.mp4/.test(second.stderr())
          ? true
          : undefined,
      30_000,
      'the watcher to report both uploads',
    );
    second.child.kill('SIGTERM');
    expect((await second.done).code).toBe(0);
    expect(await names()).toEqual(['large.mp4', 'later.mp4', 'small.mp4']);

    const once = await cli(['watch', files.path, '--once', '--json'], undefined, settle);
    expect(once.code).toBe(0);
    expect(JSON.parse(once.stdout)).toEqual({ uploaded: [] });
    expect(await names()).toEqual(['large.mp4', 'later.mp4', 'small.mp4']);
  });

  it('watch reads a relative DIR from where it runs, and names a DIR that is a file', async () => {
    expect((await cli(['login', '--base-url', server.baseUrl], server.token)).code).toBe(0);
    await mkdir(join(files.path, 'clips'));
    await writeFile(join(files.path, 'clips', 'beach.mp4'), 'a clip');
    const settle = { MEDIA_SYNC_SETTLE_MS: '300' };
    const relative = await start(['watch', 'clips', '--once', '--json'], undefined, settle, files.path).done;
    expect(relative.code).toBe(0);
    expect(JSON.parse(relative.stdout)).toMatchObject({ uploaded: [{ path: join(files.path, 'clips', 'beach.mp4') }] });

    const file = join(files.path, 'clips', 'beach.mp4');
    const refused = await start(['watch', 'clips/beach.mp4', '--once'], undefined, settle, files.path).done;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`Error: “${file}” is a file, not a folder. Choose the folder that holds it instead.\n`);
  });

  it('watch --after delete says first how many files will go to the Trash, then puts each there once uploaded', async () => {
    expect((await cli(['login', '--base-url', server.baseUrl], server.token)).code).toBe(0);
    const card = join(files.path, 'card');
    await mkdir(card);
    await writeFile(join(card, 'a.mp4'), 'a clip');
    await writeFile(join(card, 'b.mp4'), 'another clip');
    await writeFile(join(card, 'b.part'), 'a download, left out');
    const dataHome = join(home.path, 'share');
    const env = { MEDIA_SYNC_SETTLE_MS: '300', XDG_DATA_HOME: dataHome };
    const run = await cli(['watch', card, '--once', '--after', 'delete'], undefined, env);
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n')[0]).toBe(
      `${card} holds 2 file(s) that will go to the Trash, each once it is uploaded (--after delete).`,
    );
    await waitFor(async () => ((await readdir(card)).length === 1 ? true : undefined), 10_000, 'both in the Trash');
    expect(await readdir(card)).toEqual(['b.part']);
    expect((await readdir(join(dataHome, 'Trash', 'files'))).sort()).toEqual(['a.mp4', 'b.mp4']);
  });

  it('files ls/show/edit/rm and import --wait / jobs work against the server, with --json for scripts', async () => {
    await server.close();
    server = await startTestServer({ allowPrivateTargets: true, conversions: false });
    const source = await startLocalHttpServer();
    source.route('/clip.mp4', serve(fakeMp4(50_000), 'video/mp4'));
    try {
      expect((await cli(['login', '--base-url', server.baseUrl], server.token)).code).toBe(0);
      const path = join(files.path, 'beach.mp4');
      await writeFile(path, fakeMp4(10_000));
      const uploaded = await cli(['upload', path, '--public', '--json']);
      expect(uploaded.code).toBe(0);
      const fileId = (JSON.parse(uploaded.stdout) as { uploads: { fileId: string }[] }).uploads[0]!.fileId;

      const listed = await cli(['files', 'ls', '--search', 'beach']);
      expect(listed.stdout).toMatch(new RegExp(`${fileId}\\s+beach\\.mp4\\s+10\\.0 KB\\s+public`));
      const edited = await cli(['files', 'edit', fileId, '--name', 'Beach day', '--private']);
      expect(edited.stdout).toContain(`Updated ${fileId}: name, visibility.`);
      const shown = JSON.parse((await cli(['files', 'show', fileId, '--json'])).stdout) as Record<string, unknown>;
      expect(shown).toMatchObject({ id: fileId, name: 'Beach day', visibility: 'private' });
      // private is not "only you": the link opens it for anyone, which the command and the file's details say
      const privateMeans = 'Private: not listed publicly; anyone with the link can open it. Add a password';
      expect(edited.stderr).toContain(privateMeans);
      expect((await cli(['files', 'show', fileId])).stdout).toMatch(
        /Visibility +private: not listed publicly; anyone with the link can open it\n/,
      );
      // refused by the core's request schema (the API's limit) before anything reaches the service
      const tooLong = await cli(['files', 'edit', fileId, '--name', 'x'.repeat(256)]);
      expect(tooLong).toMatchObject({
        code: 2,
        stderr:
          'Error: Cannot edit:\n--name must be at most 255 characters (256 now); shorten it.\nRun media-sync --help for the commands.\n',
      });

      const badUrl = await cli(['import', 'https://user:pw@example.com/a.mp4']);
      expect(badUrl.code).toBe(2);
      // the link's place and what is wrong with it; the password typed into it is not echoed back
      expect(badUrl.stderr).toContain('  link 1 of 1, https://…@example.com/a.mp4: contains a user name or password');
      expect(badUrl.stderr).not.toContain('pw@');
      const imported = await cli([
        'import',
        `${source.origin}/clip.mp4`,
        '--name',
        'Clip',
        '--public',
        '--wait',
        '--json',
      ]);
      expect(imported.code).toBe(0);
      const job = (JSON.parse(imported.stdout) as { jobs: { id: string; status: string; file_id: string }[] }).jobs[0]!;
      expect(job.status).toBe('completed');
      // --public reached the service as its own `visibility: true`
      expect(JSON.parse((await cli(['files', 'show', job.file_id, '--json'])).stdout)).toMatchObject({
        visibility: 'public',
      });
      expect((await cli(['jobs', 'ls'])).stdout).toContain(job.id);
      const retried = await cli(['jobs', 'retry', job.id]);
      expect(retried.code).toBe(1);
      expect(retried.stderr).toContain('Error: ');

      expect((await cli(['files', 'rm', fileId])).stdout).toContain(`Deleted ${fileId}.`);
      const gone = await cli(['files', 'show', fileId]);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toMatch(/not found/i);
    } finally {
      await source.close();
    }
  });
});
