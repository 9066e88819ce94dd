import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256File, tempDir, writeRandomFile } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { afterResume, committedChunks, readSavedUploads, stopWith } from '../../helpers/saved-queue.js';
import { startServe as startServeProcess, type ServeProcess } from '../../helpers/serve-process.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/**
 * `media-sync serve` stopped by a signal mid-upload (docs/ARCHITECTURE.md, Processes and ownership): it ends
 * within 5 s with exit 0, the queue keeps the acknowledged chunks, and the
 * next start resumes from them.
 */
describe('media-sync serve on SIGTERM and SIGINT', () => {
  let server: TestServer;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let files: Awaited<ReturnType<typeof tempDir>>;
  const daemons: ChildProcess[] = [];

  beforeEach(async () => {
    server = await startTestServer();
    data = await tempDir('media-sync-serve-stop-');
    files = await tempDir('media-sync-serve-stop-files-');
  });

  afterEach(async () => {
    for (const daemon of daemons.splice(0))
      if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
    await server.close();
    await data.remove();
    await files.remove();
  });

  async function startServe(): Promise<ServeProcess> {
    const daemon = await startServeProcess(['--port', '0', '--no-demo', '--data-dir', data.path]);
    daemons.push(daemon.child);
    return daemon;
  }

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops on %s within 5 s with exit 0 mid-upload; the next start resumes from the acknowledged chunks',
    async (signal) => {
      const path = join(files.path, 'harbour.mp4');
      await writeRandomFile(path, 40_000_000, 31);
      const first = await startServe();
      const contract = await first.contract();
      const signedIn = (await contract.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token })) as {
        ok: true;
        value: { id: string };
      };
      expect(signedIn.ok).toBe(true);
      // slow and small chunks, so the signal lands mid-file
      expect(
        await contract.invoke('settings:update', { bandwidthBytesPerSecond: 8_000_000, chunkSizeBytes: 5_000_000 }),
      ).toMatchObject({ ok: true });
      expect(await contract.invoke('uploads:addPaths', { accountId: signedIn.value.id, paths: [path] })).toMatchObject({
        ok: true,
      });
      const before = await committedChunks(data.path, 2);
      contract.close();

      const stopped = await stopWith(first.child, signal);
      expect(stopped.code).toBe(0);
      expect(stopped.ms).toBeLessThan(5_000);
      const log = await readFile(join(data.path, 'logs', 'main.log'), 'utf8');
      expect(log).toContain(`Stopping on ${signal}.`);
      expect(log).toMatch(/Stopped\.\n$/);
      expect(log).not.toContain(server.token);
      const [saved] = readSavedUploads(data.path);
      expect(saved!.state.kind).toBe('queued');
      expect(saved!.acked_chunks).toEqual(expect.arrayContaining(before));
      const sentBefore = server.server.uploadLog.entries().length;

      // the next start picks the item up by itself, from the chunks it kept
      const second = await startServe();
      await waitFor(
        () => (readSavedUploads(data.path)[0]!.state.kind === 'done' ? true : undefined),
        30_000,
        'the upload done',
      );
      expect((await stopWith(second.child, 'SIGTERM')).code).toBe(0);
      expect(await afterResume(server, saved!, sentBefore)).toEqual({
        dzuuids: [saved!.dzuuid],
        resentAcked: [],
        storedSha256: [await sha256File(path)],
      });
    },
  );
});
