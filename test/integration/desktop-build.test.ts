import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDesktop } from '../../scripts/build-desktop.js';
import { tempDir } from '../helpers/engine-fixture.js';
import { packagesImportedBy } from '../helpers/bundle-imports.js';

describe('the desktop build (Electron cannot start here: the bundles are checked instead)', () => {
  let out: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    out = await tempDir('media-sync-desktop-build-');
  });
  afterEach(async () => {
    await out.remove();
  });

  it('bundles a sandbox-ready preload that requires nothing but electron, and a main process', async () => {
    await buildDesktop(out.path);
    const preload = await readFile(join(out.path, 'preload.cjs'), 'utf8');
    expect([...new Set(preload.match(/require\("[^"]+"\)/g))]).toEqual(['require("electron")']);
    expect(preload).toContain('exposeInMainWorld');
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer\)/);
    const main = await readFile(join(out.path, 'main.js'), 'utf8');
    expect(main).toMatch(/from "electron"/);
    expect(main).toContain('requestSingleInstanceLock');
  });

  it('the main bundle needs only production dependencies, and has the files it reads beside it', async () => {
    await buildDesktop(out.path);
    // main.js and the chunks it imports (the demo server's, loaded when it starts)
    const names = (await readdir(out.path)).filter((name) => name.endsWith('.js'));
    const main = (await Promise.all(names.map((name) => readFile(join(out.path, name), 'utf8')))).join('\n');
    const { dependencies } = JSON.parse(await readFile(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    // electron-builder packs `dependencies` only: a devDependency here would be missing in the installed app
    const external = packagesImportedBy(main);
    expect(external).toContain('better-sqlite3');
    expect([...external].filter((name) => !(name in dependencies))).toEqual([]);
    // the bundled demo server opens files relative to its module, now main.js (its player page's script and style)
    const relative = [...main.matchAll(/new URL\("(\.\/[^"]+)", import\.meta\.url\)/g)].map(([, path]) => path!);
    expect(relative).toEqual(expect.arrayContaining(['./assets/player.js', './assets/player.css']));
    for (const path of relative) expect(existsSync(join(out.path, path)), path).toBe(true);
  });

  it('loads the demo server (and fastify) only when it starts: main.js does not import it', async () => {
    await buildDesktop(out.path);
    const main = await readFile(join(out.path, 'main.js'), 'utf8');
    expect([...packagesImportedBy(main)].filter((name) => name.includes('fastify'))).toEqual([]);
    const lazy = /import\("\.\/(server-[\w-]+\.js)"\)/.exec(main)?.[1];
    expect(lazy).toBeDefined();
    expect(packagesImportedBy(await readFile(join(out.path, lazy!), 'utf8'))).toContain('fastify');
  });
});
