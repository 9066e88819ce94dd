import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedWith, specifiersOf } from '../../helpers/import-graph.js';

const ROOT = resolve(import.meta.dirname, '../../..');

/** A CLI command that holds the data folder runs a core of its own: `queue ls` pays for what that loads. */
describe("a CLI command's own core", () => {
  const loaded = loadedWith(ROOT, 'src-main/cli/local-core.ts');
  const packages = new Set(
    loaded.flatMap((file) => specifiersOf(readFileSync(resolve(ROOT, file), 'utf8'), 'loadedWithIt')),
  );

  it('loads D-Bus only once a session bus may answer, and no file watcher before it watches', () => {
    expect(packages).not.toContain('@jellybrick/dbus-next');
    expect(packages).not.toContain('chokidar');
    // what it is: the engine on the database, and the keyring's module when a session bus is there
    expect(loaded).toEqual(expect.arrayContaining(['src-main/core/engine.ts', 'src-main/storage/database.ts']));
    expect(specifiersOf(readFileSync(resolve(ROOT, 'src-main/storage/keyring-token-vault.ts'), 'utf8'))).toContain(
      '../system/secret-service.js',
    );
  });
});
