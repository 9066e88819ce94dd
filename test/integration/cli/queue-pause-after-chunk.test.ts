import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MediaSyncBridge, UploadItemView } from '../../../src-shared/ipc/ipc-contract.js';
import { runCli, startInProcessOwner, stopRunningClis } from '../../helpers/cli-process.js';
import { formatBytes } from '../../../src-shared/model/format.js';
import { tempDir, writeRandomFile } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { readSavedUploads } from '../../helpers/saved-queue.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/**
 * `media-sync queue pause ID --after-chunk` beside the app: the chunk on its
 * way is finished and confirmed, then the file waits, with nothing lost.
 */
describe('media-sync queue pause --after-chunk', () => {
  let server: TestServer;
  let home: Awaited<ReturnType<typeof tempDir>>;
  let files: Awaited<ReturnType<typeof tempDir>>;
  let owner: Awaited<ReturnType<typeof startInProcessOwner>>;

  beforeEach(async () => {
    server = await startTestServer({ conversions: false });
    home = await tempDir('media-sync-pause-home-');
    files = await tempDir('media-sync-pause-files-');
    owner = await startInProcessOwner(home.path);
  });

  afterEach(async () => {
    await stopRunningClis();
    await owner.close();
    await server.close();
    await home.remove();
    await files.remove();
  });

  const item = async (contract: MediaSyncBridge, id: number) =>
    (await contract.invoke('uploads:list', { offset: 0, limit: 10 })).items.find((candidate) => candidate.id === id)!;

  it('lets the chunk in flight finish and be confirmed, then the file waits; resume goes on from there', async () => {
    const { contract } = owner;
    const { id: accountId } = await contract.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    // 1 MB chunks at 1 MB/s: a chunk takes about a second, so the pause lands mid-chunk; 16 of them leave the CLI
    // time to start on a loaded machine before the file is done
    await contract.invoke('settings:update', { bandwidthBytesPerSecond: 1_000_000, chunkSizeBytes: 1_000_000 });
    const path = join(files.path, 'harbour.mp4');
    await writeRandomFile(path, 16_000_000, 7);
    const [queued] = await contract.invoke('uploads:addPaths', { accountId, paths: [path] });
    await waitFor(
      async () => {
        const state = (await item(contract, queued!.id)).state;
        return state.kind === 'uploading' && state.ackedBytes >= 1_000_000 && state.sentBytes > state.ackedBytes
          ? true
          : undefined;
      },
      30_000,
      'a chunk confirmed and the next on its way',
    );

    const paused = await runCli(['queue', 'pause', String(queued!.id), '--after-chunk'], { home: home.path });
    expect(paused.stderr).toBe('');
    expect(paused.code).toBe(0);
    expect(paused.stdout).toMatch(new RegExp(`^#${queued!.id} harbour\\.mp4: (pausing after this chunk|paused)`));

    const waiting: UploadItemView = await waitFor(
      async () => {
        const now = await item(contract, queued!.id);
        return now.state.kind === 'paused' ? now : undefined;
      },
      30_000,
      'the file paused',
    );
    expect(waiting.state).toEqual({ kind: 'paused', until: null });
    // the chunk that was on its way is confirmed, and nothing after it was started
    const saved = readSavedUploads(home.path).find((row) => row.file_name === 'harbour.mp4')!;
    expect(saved.acked_chunks.length).toBeGreaterThanOrEqual(2);
    const sentChunks = server.server.uploadLog.entries().length;
    expect(sentChunks).toBe(saved.acked_chunks.length);

    await contract.invoke('settings:update', { bandwidthBytesPerSecond: null });
    expect((await runCli(['queue', 'resume', String(queued!.id)], { home: home.path })).code).toBe(0);
    await waitFor(
      async () => ((await item(contract, queued!.id)).state.kind === 'done' ? true : undefined),
      30_000,
      'the upload done',
    );
    // sixteen chunks in all: none sent twice
    expect(server.server.uploadLog.entries()).toHaveLength(16);
  });

  it('a watched folder with a file paused halfway is not up to date: its card and media-sync folders say so', async () => {
    const { contract } = owner;
    const { id: accountId } = await contract.invoke('account:signIn', { baseUrl: server.baseUrl, token: server.token });
    await contract.invoke('settings:update', { bandwidthBytesPerSecond: 1_000_000, chunkSizeBytes: 1_000_000 });
    const folder = await contract.invoke('folders:add', { accountId, path: files.path });
    await writeRandomFile(join(files.path, 'ferry.mp4'), 8_000_000, 9);
    const running = await waitFor(
      async () => {
        const [row] = (await contract.invoke('uploads:list', {})).items;
        return row?.state.kind === 'uploading' && row.state.ackedBytes >= 1_000_000 ? row : undefined;
      },
      30_000,
      'a chunk of ferry.mp4 confirmed',
    );
    await contract.invoke('uploads:pause', { id: running.id, afterChunk: true });
    const paused = await waitFor(
      async () => {
        const now = await item(contract, running.id);
        return now.state.kind === 'paused' ? now : undefined;
      },
      30_000,
      'ferry.mp4 paused',
    );
    const sent = paused.ackedChunks.length * 1_000_000;
    const status = await waitFor(
      async () => {
        const [now] = await contract.invoke('folders:status', {});
        return now?.state.kind === 'filesPaused' ? now : undefined;
      },
      10_000,
      'the folder saying a file is paused',
    );
    expect(status.state).toEqual({ kind: 'filesPaused', files: 1, bytesDone: sent, bytesTotal: 8_000_000 });

    const listed = await runCli(['folders'], { home: home.path });
    expect(listed.stdout).toContain(
      `1 file paused in the queue, ${formatBytes(sent)} of ${formatBytes(8_000_000)} sent (media-sync queue resume ID goes on)`,
    );
    expect(listed.stdout).not.toContain('up to date');

    await contract.invoke('settings:update', { bandwidthBytesPerSecond: null });
    await contract.invoke('uploads:resume', { id: running.id });
    await waitFor(
      async () => {
        const [now] = await contract.invoke('folders:status', {});
        return (now?.id === folder.id && now.state.kind === 'watching' && now.counts.uploaded === 1) || undefined;
      },
      30_000,
      'the folder up to date once the file is uploaded',
    );
  });
});
