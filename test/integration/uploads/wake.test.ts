import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueRunState } from '../../../src-main/uploads/upload-queue.js';
import { openEngine, tempDir, type EngineFixture } from '../../helpers/engine-fixture.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

describe('waking the engine (the machine resumed, the network came back)', () => {
  let server: TestServer;
  let fixture: EngineFixture;
  let files: Awaited<ReturnType<typeof tempDir>>;

  beforeEach(async () => {
    server = await startTestServer();
    files = await tempDir('media-sync-wake-');
    fixture = await openEngine(server.baseUrl, server.token);
  });

  afterEach(async () => {
    await fixture.close();
    await server.close();
    await files.remove();
  });

  it('sends a file waiting an hour for its retry at once', async () => {
    const path = join(files.path, 'clip.mp4');
    await writeFile(path, 'x'.repeat(4096));
    const { queue, uploads } = fixture.engine;
    const { item } = await queue.enqueue({ accountId: fixture.accountId, path });
    const lastError = { message: 'The connection was reset.', code: 'NETWORK_ERROR', requestId: null };
    uploads.saveState(item.id, { kind: 'retrying', attempt: 3, retryAt: Date.now() + 3_600_000, lastError });
    queue.start();
    expect(queue.hasWork()).toBe(true);
    await queue.whenIdle();
    expect(queue.get(item.id)!.state.kind).toBe('retrying');
    expect(server.server.uploadLog.entries()).toEqual([]);

    fixture.engine.wake();
    await waitFor(() => (queue.get(item.id)!.state.kind === 'done' ? true : undefined));
    expect(server.server.uploadLog.entries()).toHaveLength(1);
    expect(queue.hasWork()).toBe(false);
  });

  it('counts a paused queue as no work: an update may restart the app then', async () => {
    const path = join(files.path, 'clip.mp4');
    await writeFile(path, 'y'.repeat(4096));
    const { queue } = fixture.engine;
    await queue.pauseAll(null);
    await queue.enqueue({ accountId: fixture.accountId, path });
    queue.start();
    expect(queue.hasWork()).toBe(false);
    queue.resumeAll();
    expect(queue.hasWork()).toBe(true);
    await queue.whenIdle();
    expect(queue.hasWork()).toBe(false);
  });

  it('ends a timed pause in the runner at its time; asking for the status meanwhile changes nothing', async () => {
    await fixture.close();
    const clock = new FakeClock({ wallStart: Date.UTC(2026, 0, 1, 12) });
    fixture = await openEngine(server.baseUrl, server.token, { clock });
    const { queue } = fixture.engine;
    const told: Array<QueueRunState['pause']> = [];
    queue.onDidChangeStatus((status) => told.push(status.pause));
    const until = clock.wall() + 2 * 3_600_000;
    queue.start();
    await queue.pauseAll(until);
    // stopped, the runner sleeps no more: the time passes with nobody to end the pause
    await queue.stop();
    await clock.advance(3 * 3_600_000);
    expect(queue.status().pause).toEqual({ until });
    expect(queue.hasWork()).toBe(false);
    expect(told).toEqual([{ until }]);

    queue.start();
    expect(queue.status().pause).toBeNull();
    expect(told).toEqual([{ until }, null]);
  });
});
