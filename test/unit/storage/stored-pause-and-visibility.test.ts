import { afterEach, expect, it } from 'vitest';
import { AppStateStore } from '../../../src-main/storage/app-state-store.js';
import { migrate, openDatabase, SCHEMA_VERSION, type Db } from '../../../src-main/storage/database.js';
import { UploadStore } from '../../../src-main/uploads/upload-store.js';
import { beforeQueuePause } from '../../helpers/older-database.js';

const NOW = Date.UTC(2026, 0, 1, 12);
let db: Db | undefined;
afterEach(() => db?.close());

it("an update finds the queue paused as the version before kept it: until resumed ('forever'), or until its time", () => {
  for (const [kept, pause] of [
    ['forever', { until: null }],
    [String(NOW + 7_200_000), { until: NOW + 7_200_000 }],
  ] as const) {
    db?.close();
    db = openDatabase(':memory:');
    beforeQueuePause(db);
    db.prepare("INSERT INTO app_state (key, value) VALUES ('uploads.pausedUntil', ?)").run(kept);
    migrate(db, SCHEMA_VERSION);
    const store = new AppStateStore(db);
    expect(store.queuePause()).toEqual(pause);
    store.setQueuePause(null);
    expect(store.queuePause()).toBeNull();
  }
});

it('reads the visibility of uploads the version before queued (1, 0, none) as public, private and the default', () => {
  db = openDatabase(':memory:');
  const store = new UploadStore(db, () => NOW);
  const identity = { size: 100, mtimeMs: 1, fingerprint: 'f' };
  const ids = [1, 0, null].map((stored, index) => {
    const { id } = store.insert({
      accountId: 'a1',
      path: `/videos/${index}.mp4`,
      fileName: `${index}.mp4`,
      identity,
      visibility: null,
      metadata: {},
      folderId: null,
      chunkSize: 90_000_000,
    });
    // the column as the version before wrote it, from its boolean
    db!.prepare('UPDATE upload_items SET visibility = ? WHERE id = ?').run(stored, id);
    return id;
  });
  expect(ids.map((id) => store.get(id)?.visibility)).toEqual(['public', 'private', null]);
});
