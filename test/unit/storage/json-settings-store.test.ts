import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src-shared/model/settings.js';
import { JsonSettingsStore } from '../../../src-main/storage/json-settings-store.js';
import { tempDir } from '../../helpers/engine-fixture.js';

describe('JsonSettingsStore', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir('media-sync-settings-');
  });
  afterEach(async () => {
    await dir.remove();
  });

  it('reads settings.json as conf wrote it, and writes it back keeping the keys it does not know', async () => {
    const path = join(dir.path, 'settings.json');
    await writeFile(
      path,
      JSON.stringify({ settings: { concurrency: 2 }, __internal__: { migrations: {} } }, null, '\t'),
    );
    const store = new JsonSettingsStore(dir.path);
    expect(store.read()).toEqual({ concurrency: 2 });
    store.write({ ...DEFAULT_SETTINGS, concurrency: 4 });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      settings: { ...DEFAULT_SETTINGS, concurrency: 4 },
      __internal__: { migrations: {} },
    });
    expect(new JsonSettingsStore(dir.path).read()).toMatchObject({ concurrency: 4 });
  });

  it('reads no settings from a missing or broken file, and the next write makes a good one', async () => {
    expect(new JsonSettingsStore(dir.path).read()).toEqual({});
    await writeFile(join(dir.path, 'settings.json'), '{"settings": {"concurrency"');
    const store = new JsonSettingsStore(dir.path);
    expect(store.read()).toEqual({});
    store.write(DEFAULT_SETTINGS);
    expect(store.read()).toEqual(DEFAULT_SETTINGS);
  });
});
