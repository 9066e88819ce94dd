import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { appendFile, open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadState } from '../../../src-shared/model/upload-state.js';
import { Engine } from '../../../src-main/core/engine.js';
import {
  openEngine,
  sha256File,
  sha256Url,
  tempDir,
  writeRandomFile,
  type EngineFixture,
} from '../../helpers/engine-fixture.js';
import { nthRequestTo, startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const MiB = 1024 * 1024;
const SETTLE_MS = 300;
const UPLOAD = '/api/v1/files/upload';

interface ListedFile {
  id: string;
  filename: string;
  size_bytes: number;
}

/**
 * A file of a watched folder that changes while it is being uploaded (issue
 * 30, item 1): a recorder appending, an editor saving in place. Whatever the
 * moment of the change, the service ends with exactly one copy, holding the
 * file's final bytes, and the queue says what happened.
 */
describe('a file that changes while it uploads', () => {
  let server: TestServer;
  let proxy: FaultProxy | undefined;
  let fixture: EngineFixture | undefined;
  let folder: Awaited<ReturnType<typeof tempDir>>;

  beforeEach(async () => {
    server = await startTestServer({ rateLimit: 100_000 });
    folder = await tempDir('media-sync-changing-');
  });

  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
    await proxy?.close();
    proxy = undefined;
    await server.close();
    await folder.remove();
  });

  async function serverFiles(): Promise<ListedFile[]> {
    const body = JSON.parse((await server.api('/files?per_page=100')).body.toString()) as { data: ListedFile[] };
    return body.data;
  }

  /** The engine watching the folder, each state its items pass through recorded. */
  async function watch(options: { bandwidth?: number; baseUrl?: string } = {}) {
    fixture = await openEngine(options.baseUrl ?? server.baseUrl, server.token, {
      settleMs: SETTLE_MS,
      bandwidthBytesPerSecond: options.bandwidth ?? null,
    });
    const states: UploadState[] = [];
    fixture.engine.queue.onDidChangeItem((item) => states.push(item.state));
    fixture.engine.queue.start();
    await fixture.engine.sync.addFolder(fixture.accountId, folder.path);
    return { engine: fixture.engine, states };
  }

  /** Resolves once `bytes` of the running upload are on their way. */
  function sent(engine: Engine, bytes: number): Promise<void> {
    return new Promise((resolve) => {
      const subscription = engine.queue.onDidProgress(({ state }) => {
        if (state.kind !== 'uploading' || state.sentBytes < bytes) return;
        subscription.dispose();
        resolve();
      });
    });
  }

  async function uploadsDone(engine: Engine, timeoutMs = 120_000): Promise<void> {
    await waitFor(
      () => {
        const items = engine.uploads.list();
        return items.length > 0 && items.every((item) => item.state.kind === 'done') ? true : undefined;
      },
      timeoutMs,
      'the upload to end',
    );
    await engine.sync.whenSettled();
    await engine.queue.whenIdle();
  }

  /**
   * A 3 MiB recording.mp4 that grows by 1 MiB once the service has taken it,
   * before its answer reaches the app (the fault proxy in between): its path.
   */
  async function growsBeforeTheAnswer(seed: number): Promise<string> {
    proxy = await startFaultProxy(new URL(server.baseUrl).origin);
    const path = join(folder.path, 'recording.mp4');
    await writeRandomFile(path, 3 * MiB, seed);
    proxy.addRule({
      match: nthRequestTo(UPLOAD, 0),
      fault: {
        kind: 'rewrite-response',
        rewrite: (body) => {
          appendFileSync(path, randomBytes(MiB));
          return body;
        },
      },
    });
    return path;
  }

  /** The one copy the service holds is the file as it is on disk now. */
  async function expectOneFinalCopy(engine: Engine, path: string, size: number): Promise<void> {
    const listed = await serverFiles();
    expect(listed.map((file) => [file.filename, file.size_bytes])).toEqual([['recording.mp4', size]]);
    expect(await sha256Url(`${server.fileHost}/${listed[0]!.id}/file`)).toBe(await sha256File(path));
    expect(engine.uploads.list()).toHaveLength(1);
  }

  it('appended to 3 s into a 2 MB/s upload: the cut-off copy never lands, the final file lands once', async () => {
    const path = join(folder.path, 'recording.mp4');
    await writeRandomFile(path, 24 * MiB, 1);
    const { engine, states } = await watch({ bandwidth: 2 * MiB });
    await sent(engine, 6 * MiB);
    await appendFile(path, randomBytes(MiB));

    await uploadsDone(engine);
    await expectOneFinalCopy(engine, path, 25 * MiB);
    // the first request was cut off before its body ended; the second carried the final file
    expect(server.server.uploadLog.entries().map((entry) => entry.status)).toEqual([0, 201]);
    expect(states).toContainEqual(expect.objectContaining({ kind: 'retrying', changed: true, attempt: 0 }));
  }, 180_000);

  it('overwritten in the middle (same size, new mtime): no torn copy, the final bytes land once', async () => {
    const path = join(folder.path, 'recording.mp4');
    await writeRandomFile(path, 24 * MiB, 2);
    const { engine, states } = await watch({ bandwidth: 2 * MiB });
    await sent(engine, 6 * MiB);
    // an editor saving in place: bytes the upload already sent change
    const handle = await open(path, 'r+');
    await handle.write(randomBytes(MiB), 0, MiB, 2 * MiB);
    await handle.close();

    await uploadsDone(engine);
    await expectOneFinalCopy(engine, path, 24 * MiB);
    expect(server.server.uploadLog.entries().map((entry) => entry.status)).toEqual([0, 201]);
    expect(states).toContainEqual(expect.objectContaining({ kind: 'retrying', changed: true }));
  }, 180_000);

  it('changed after its last byte left but before the answer came: the stale copy is replaced, then deleted', async () => {
    const path = await growsBeforeTheAnswer(3);
    const { engine, states } = await watch({ baseUrl: `${proxy!.url}/api/v1` });
    const replaced: boolean[] = [];
    engine.queue.onDidUpload((uploaded) => replaced.push(uploaded.replacedStale));

    await uploadsDone(engine);
    await expectOneFinalCopy(engine, path, 4 * MiB);
    // two copies were made, the stale one deleted once the new one was there
    expect(server.server.uploadLog.entries().map((entry) => entry.status)).toEqual([201, 201]);
    const writes = proxy!.requests.filter((request) => request.method !== 'GET').map((r) => r.method);
    expect(writes).toEqual(['POST', 'POST', 'DELETE']);
    expect(replaced).toEqual([true]);
    expect(states).toContainEqual(expect.objectContaining({ kind: 'retrying', changed: true }));
  });

  it('a quit while the new version waits: after the restart the stale copy is still deleted, nothing twice', async () => {
    const path = await growsBeforeTheAnswer(4);
    const { engine } = await watch({ baseUrl: `${proxy!.url}/api/v1` });
    await waitFor(
      () => engine.uploads.list().find((item) => item.state.kind === 'retrying' && item.staleFileIds.length === 1),
      20_000,
      'the stale copy to be recorded',
    );
    const dataDir = fixture!.dataDir;
    await engine.close();
    expect(await serverFiles()).toHaveLength(1);

    const reopened = await Engine.open({ dataDir, settleMs: SETTLE_MS });
    fixture = { ...fixture!, engine: reopened };
    reopened.queue.start();
    await reopened.sync.start();
    await uploadsDone(reopened);
    await expectOneFinalCopy(reopened, path, 4 * MiB);
    expect(server.server.uploadLog.entries().map((entry) => entry.status)).toEqual([201, 201]);
    expect(reopened.uploads.list()[0]!.staleFileIds).toEqual([]);
  });
});
