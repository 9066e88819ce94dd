import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PLAN_FILE_SIZE_LIMIT_BYTES } from '../../../src-shared/api/index.js';
import type { Notification } from '../../../src-shared/ipc/ipc-contract.js';
import { Engine } from '../../../src-main/core/engine.js';
import {
  addFileToQueue,
  callCore,
  createAppCore,
  openCoreFixture,
  type CoreFixture,
} from '../../helpers/app-core-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';

/** How many files a storm drops into the watched folder. */
const STORM_FILES = 200;

/**
 * Notifications people keep on, on the real core: a watched folder on a
 * real temp folder, the reference server, real SQLite; what is counted is
 * what the shells are told to show (`notifications:added`, not quiet).
 */
describe('AppCore: notifications people keep on', () => {
  let fixture: CoreFixture;

  beforeEach(async () => {
    fixture = await openCoreFixture('media-sync-notify-');
  });

  afterEach(() => fixture.close());

  const shown = () =>
    fixture.events
      .filter((event) => event.name === 'notifications:added')
      .map((event) => event.payload as Notification)
      .filter((notification) => !notification.quiet);

  it('200 files over the account’s size limit dropped into a watched folder are one or two notifications with their count, not 200', async () => {
    const { core, files } = fixture;
    const accountId = await fixture.signIn();
    const [account] = await callCore(core, 'account:list', {});
    const limit = PLAN_FILE_SIZE_LIMIT_BYTES[account!.plan];
    await callCore(core, 'folders:add', { accountId, path: files.path });
    const started = Date.now();
    // sparse: each is a byte over the plan's limit and takes no room on the disk
    for (let i = 0; i < STORM_FILES; i++) {
      const handle = await open(join(files.path, `clip-${String(i).padStart(3, '0')}.mp4`), 'w');
      await handle.truncate(limit + 1);
      await handle.close();
    }
    await waitFor(
      async () => {
        const { failed } = await callCore(core, 'uploads:overview', {});
        return failed === STORM_FILES ? true : undefined;
      },
      90_000,
      `${STORM_FILES} failed uploads`,
    );
    const failedShown = () => shown().filter((notification) => notification.kind === 'uploadFailed');
    // the first is said once the 5 s of gathering are over
    await waitFor(() => (failedShown().length > 0 ? true : undefined), 30_000, 'the first notification');
    const elapsed = Date.now() - started;
    const shownBeforeQuit = failedShown();
    // what waits for the minute to end is said at quit: to the Activity panel, read here by the next core
    await core.dispose();
    const next = createAppCore(fixture.engine, fixture.data.path);
    const failures = (await callCore(next, 'notifications:list', {})).filter((n) => n.kind === 'uploadFailed');
    await next.dispose();

    // one a minute at most (the first within 5 s), and the rest at quit
    expect(shownBeforeQuit.length).toBeGreaterThanOrEqual(1);
    expect(failures.length).toBeLessThanOrEqual(2 + Math.floor(elapsed / 60_000));
    for (const notification of failures) {
      expect(notification.title).toMatch(/^\d+ files could not be uploaded$/);
    }
    const counts = failures.map((notification) => Number(notification.text.title.values?.count));
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(STORM_FILES);
  });

  it('keeps the Activity panel across a restart: a core on the same data folder lists what was said before', async () => {
    const { core, engine, data, files } = fixture;
    const accountId = await fixture.signIn();
    await addFileToQueue(core, accountId, files.path, 'holiday.mp4');
    await waitFor(() => (shown().length > 0 ? true : undefined), 30_000, 'the notification of the upload');
    const before = await callCore(core, 'notifications:list', {});
    expect(before.map((notification) => [notification.title, notification.body])).toEqual([
      ['Uploaded', 'holiday.mp4'],
    ]);
    await core.dispose();
    await engine.close();

    const reopened = await Engine.open({ dataDir: data.path });
    const restarted = createAppCore(reopened, data.path);
    try {
      await restarted.start();
      expect(await callCore(restarted, 'notifications:list', {})).toEqual(before);
      // Clear empties the history for good
      await callCore(restarted, 'notifications:clear', {});
      expect(await callCore(restarted, 'notifications:list', {})).toEqual([]);
    } finally {
      await restarted.dispose();
      await reopened.close();
    }
  });
});
