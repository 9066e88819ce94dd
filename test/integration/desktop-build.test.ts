import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDesktop } from '../../scripts/build-desktop.js';
import { tempDir } from '../helpers/engine-fixture.js';

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
});
