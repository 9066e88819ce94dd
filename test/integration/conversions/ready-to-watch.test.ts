import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore, CoreEvent } from '../../../src-main/core/app-core.js';
import type { AppCoreOptions } from '../../../src-main/core/app-core-options.js';
import { Engine } from '../../../src-main/core/engine.js';
import type { Notification, UploadItemView } from '../../../src-shared/ipc/ipc-contract.js';
import type { ConversionFollow } from '../../../src-shared/model/conversion-follow.js';
import { callCore, createAppCore } from '../../helpers/app-core-fixture.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { makeTestVideo } from '../../helpers/ffmpeg.js';
import { startLocalHttpServer, waitFor } from '../../helpers/local-http-server.js';
import { serve } from '../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/** Polls every 300 ms doubling to 1 s instead of 10 s to 2 min: a 2 s video converts in seconds here. */
const FAST_FOLLOW = { minDelayMs: 300, maxDelayMs: 1_000 };
const RATE_LIMIT = 10;
const RATE_WINDOW_MS = 3_000;

/**
 * Issue 13 §1 against the real reference server (ffmpeg converts the uploads
 * to HLS), real SQLite and real temp folders: an uploaded video is followed
 * until its conversion is final, within the account's request budget.
 */
describe('Ready to watch', () => {
  let server: TestServer;
  let files: Awaited<ReturnType<typeof tempDir>>;
  let video: Buffer;

  beforeAll(async () => {
    // imports come from a local source: the server's guard lets loopback through for tests only
    server = await startTestServer({ rateLimit: RATE_LIMIT, rateWindowMs: RATE_WINDOW_MS, allowPrivateTargets: true });
    files = await tempDir('media-sync-rtw-files-');
    video = await makeTestVideo(files.path, 2);
  });

  afterAll(async () => {
    await server.close();
    await files.remove();
  });

  /** Engine and AppCore in `dataDir`, started; signed in unless the data folder has an account already. */
  async function openCore(
    dataDir: string,
    follow: { minDelayMs: number; maxDelayMs: number } = FAST_FOLLOW,
    options: Partial<AppCoreOptions> = {},
  ) {
    const engine = await Engine.open({ dataDir, followPolicy: follow });
    const core = createAppCore(engine, dataDir, { notificationMergeMs: 200, importPollMs: 300, ...options });
    const events: CoreEvent[] = [];
    core.onDidEmit((event) => events.push(event));
    await core.start();
    let accountId = engine.defaultAccount()?.id;
    if (!accountId) accountId = (await engine.signIn(server.baseUrl, server.token)).account.id;
    return {
      engine,
      core,
      events,
      accountId,
      notes: (kind: string) =>
        events
          .filter((e) => e.name === 'notifications:added')
          .map((e) => e.payload as Notification)
          .filter((n) => n.kind === kind),
      follows: () => events.filter((e) => e.name === 'conversions:changed').map((e) => e.payload as ConversionFollow),
      async close() {
        await core.dispose();
        await engine.close();
      },
    };
  }

  async function upload(core: AppCore, accountId: string, name: string, body: Buffer | string): Promise<number> {
    const path = join(files.path, name);
    await writeFile(path, body);
    return (await callCore(core, 'uploads:addPaths', { accountId, paths: [path] }))[0]!.id;
  }

  const statusRequests = (fileId: string) =>
    server.server.requestLog.entries().filter((e) => e.path === `/api/v1/files/${fileId}/status`);

  it('keeps a file a page sent as sent from the page, and unchanged, while its row follows the conversion', async () => {
    const data = await tempDir('media-sync-rtw-data-');
    // the test's folder stands for the daemon's folder of dropped files
    const app = await openCore(data.path, FAST_FOLLOW, { droppedFilesDir: files.path });
    try {
      const uploadId = await upload(app.core, app.accountId, 'dropped.mp4', video);
      const ready = () => app.follows().some((f) => f.uploadId === uploadId && f.state.kind === 'ready');
      await waitFor(() => ready() || undefined, 60_000, 'the conversion ready');
      const rows = app.events
        .filter((e) => e.name === 'uploads:itemChanged')
        .map((e) => e.payload as UploadItemView)
        .filter((row) => row.id === uploadId && row.afterUpload !== null);
      expect(rows.at(-1)).toMatchObject({ afterUpload: { state: { kind: 'ready' } } });
      for (const row of rows) expect(row).toMatchObject({ fromBrowser: true, changedSinceUpload: false });
      // only a dropped file's own folder under the drop folder is removed once it is uploaded: this one has none
      await access(join(files.path, 'dropped.mp4'));
    } finally {
      await app.close();
      await data.remove();
    }
  });

  it('ends a short MP4 with exactly one "Ready to watch" notification linking its watch page, within the budget', async () => {
    const data = await tempDir('media-sync-rtw-data-');
    const app = await openCore(data.path);
    try {
      const uploadId = await upload(app.core, app.accountId, 'clip.mp4', video);
      const following = await waitFor(() => app.follows().find((f) => f.uploadId === uploadId), 30_000, 'the follow');
      const fileId = following.fileId;

      // spend what is left of the window from outside the engine: its next poll meets a 429 and Retry-After
      let retryAfterEndsAt = 0;
      for (let i = 0; i < RATE_LIMIT + 2; i++) {
        const response = await server.api('/account');
        if (response.status === 429) {
          retryAfterEndsAt = Date.now() + Number(response.headers['retry-after']) * 1000;
          break;
        }
      }
      expect(retryAfterEndsAt).toBeGreaterThan(0);

      const ready = await waitFor(() => app.notes('readyToWatch')[0], 60_000, 'the Ready to watch notification');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(app.notes('readyToWatch')).toHaveLength(1);
      expect(ready).toMatchObject({ title: 'Ready to watch: clip.mp4', link: `${server.fileHost}/${fileId}/watch` });
      // the upload's answer carried urls.watch: no GET /files/{id} was needed at the end
      expect(server.server.requestLog.entries().filter((e) => e.path === `/api/v1/files/${fileId}`)).toEqual([]);
      const watchUrl = await callCore(app.core, 'files:copyLink', { accountId: app.accountId, fileId, kind: 'watch' });
      expect(watchUrl).toEqual({ url: ready.link });

      // the follow ended ready (a stage seen on the way depends on ffmpeg's speed), and the queue row says so
      const states = app.follows().filter((f) => f.fileId === fileId);
      expect(states[0]!.state).toMatchObject({ kind: 'following', conversion: null });
      expect(states.at(-1)!.state.kind).toBe('ready');
      const row = (await callCore(app.core, 'uploads:list', {})).items.find((i) => i.id === uploadId);
      expect(row?.afterUpload).toMatchObject({ fileId, watchUrl: ready.link, state: { kind: 'ready' } });

      // the server's own log: no status request inside the Retry-After, one per poll (at least the shortest wait apart)
      const polls = statusRequests(fileId);
      const refused = polls.filter((e) => e.status === 429);
      expect(refused.length).toBeLessThanOrEqual(1);
      if (refused.length === 1) {
        const after = polls.filter((e) => e.at > refused[0]!.at);
        expect(after.every((e) => e.at >= retryAfterEndsAt - 1_000)).toBe(true);
      }
      const answered = polls.filter((e) => e.status !== 429);
      for (let i = 1; i < answered.length; i++) {
        expect(answered[i]!.at - answered[i - 1]!.at).toBeGreaterThanOrEqual(FAST_FOLLOW.minDelayMs - 50);
      }
      expect(answered.at(-1)!.status).toBe(200);
    } finally {
      await app.close();
      await data.remove();
    }
  });

  it('ends a file that is not a video at "Uploaded": no status request and no Ready to watch notification', async () => {
    const data = await tempDir('media-sync-rtw-data-');
    const app = await openCore(data.path);
    try {
      const uploadId = await upload(app.core, app.accountId, 'notes.txt', 'not a video at all');
      const follow = await waitFor(() => app.follows().find((f) => f.uploadId === uploadId), 30_000, 'the follow');
      expect(follow.state.kind).toBe('uploaded');
      await waitFor(() => app.notes('uploadsDone')[0], 10_000, 'the Uploaded notification');
      await new Promise((resolve) => setTimeout(resolve, FAST_FOLLOW.maxDelayMs * 2));
      expect(app.notes('readyToWatch')).toEqual([]);
      expect(statusRequests(follow.fileId)).toEqual([]);
      const listed = await callCore(app.core, 'conversions:list', {});
      expect(listed).toMatchObject([{ fileId: follow.fileId, state: { kind: 'uploaded' } }]);
    } finally {
      await app.close();
      await data.remove();
    }
  });

  it('follows the file a server-side import made to one "Ready to watch" linking its watch page', async () => {
    const source = await startLocalHttpServer();
    source.route('/imported.mp4', serve(video, 'video/mp4'));
    const data = await tempDir('media-sync-rtw-data-');
    const app = await openCore(data.path);
    try {
      const created = await callCore(app.core, 'imports:create', {
        accountId: app.accountId,
        body: { urls: [`${source.origin}/imported.mp4`], name: 'Imported clip' },
      });
      const jobId = created[0]!.id;
      const ready = await waitFor(() => app.notes('readyToWatch')[0], 60_000, 'the Ready to watch notification');
      const follow = app.follows().find((f) => f.jobId === jobId)!;
      expect(ready).toMatchObject({
        title: 'Ready to watch: Imported clip',
        link: `${server.fileHost}/${follow.fileId}/watch`,
      });
      expect(app.notes('importCompleted')).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(app.notes('readyToWatch')).toHaveLength(1);
    } finally {
      await app.close();
      await data.remove();
      await source.close();
    }
  });

  it('goes on following a file after the engine restarts, and says once that it is ready', async () => {
    const data = await tempDir('media-sync-rtw-data-');
    // the first run never polls: its first poll would be an hour after the upload
    const first = await openCore(data.path, { minDelayMs: 3_600_000, maxDelayMs: 3_600_000 });
    let fileId: string;
    try {
      const uploadId = await upload(first.core, first.accountId, 'restart.mp4', video);
      fileId = (await waitFor(() => first.follows().find((f) => f.uploadId === uploadId), 30_000, 'the follow')).fileId;
    } finally {
      await first.close();
    }
    expect(statusRequests(fileId)).toEqual([]);

    // the restarted engine waits at most its own longest wait (1 s here) for the poll planned an hour away
    const second = await openCore(data.path);
    try {
      const saved = await callCore(second.core, 'conversions:list', {});
      expect(saved).toMatchObject([{ fileId, state: { kind: 'following' } }]);
      const ready = await waitFor(() => second.notes('readyToWatch')[0], 60_000, 'the Ready to watch notification');
      expect(ready).toMatchObject({ title: 'Ready to watch: restart.mp4', link: `${server.fileHost}/${fileId}/watch` });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(second.notes('readyToWatch')).toHaveLength(1);
    } finally {
      await second.close();
      await data.remove();
    }
  });
});
