import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callCore, openCoreFixture, type CoreFixture } from '../../helpers/app-core-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';

describe('uploads:overview (what the tray and the taskbar show of the queue)', () => {
  let fixture: CoreFixture;
  beforeEach(async () => (fixture = await openCoreFixture('overview-')));
  afterEach(() => fixture.close());

  it('sums up the unfinished uploads with their bytes, and looks up again those that ended', async () => {
    const accountId = await fixture.signIn();
    await callCore(fixture.core, 'uploads:pauseAll', { until: null });
    const paths = ['a.mp4', 'b.mp4'].map((name) => join(fixture.files.path, name));
    for (const [index, path] of paths.entries()) await writeFile(path, Buffer.alloc(1000 * (index + 1), index));
    const items = await callCore(fixture.core, 'uploads:addPaths', { accountId, paths });
    const ids = items.map((item) => item.id);

    const waiting = await callCore(fixture.core, 'uploads:overview', { ended: ids });
    expect(waiting.unfinished.map(({ fileName, size }) => ({ fileName, size }))).toEqual([
      { fileName: 'a.mp4', size: 1000 },
      { fileName: 'b.mp4', size: 2000 },
    ]);
    expect(waiting).toMatchObject({ running: [], waiting: 2, failed: 0, ended: [] });

    await callCore(fixture.core, 'uploads:resumeAll', {});
    const done = await waitFor(async () => {
      const overview = await callCore(fixture.core, 'uploads:overview', { ended: ids });
      return overview.ended.length === 2 ? overview : undefined;
    });
    expect(done).toMatchObject({ unfinished: [], running: [], waiting: 0, failed: 0 });
    expect(done.ended.map(({ id, state }) => ({ id, kind: state.kind }))).toEqual(
      ids.map((id) => ({ id, kind: 'done' })),
    );
  });
});
