import type * as Chokidar from 'chokidar';
import type * as Fs from 'node:fs/promises';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { FolderWatcher, type StableFile } from '../../../src-main/sync/folder-watcher.js';
import { waitFor } from '../../helpers/local-http-server.js';

/**
 * A busy libuv pool (2 shared cores, other test files beside this one) can let
 * chokidar say 'ready' before the watcher's own stat of a folder comes back. The
 * watcher's stat is held here until the chokidar instance made just before it is
 * ready, so that order happens every time rather than once in many CI runs.
 */
const pendingReady = vi.hoisted(() => ({ current: undefined as Promise<void> | undefined }));

vi.mock('chokidar', async (importOriginal) => {
  const chokidar = await importOriginal<typeof Chokidar>();
  class FSWatcher extends chokidar.FSWatcher {
    constructor(...args: ConstructorParameters<typeof chokidar.FSWatcher>) {
      super(...args);
      // listened for as the instance is made, before it watches anything: this one cannot miss it
      pendingReady.current = new Promise<void>((resolve) => this.once('ready', () => resolve()));
    }
  }
  return { ...chokidar, FSWatcher };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  const stat = (async (...args: Parameters<typeof fs.stat>) => {
    const ready = pendingReady.current;
    if (ready) await ready;
    return fs.stat(...args);
  }) as typeof fs.stat;
  return { ...fs, default: { ...fs, stat }, stat };
});

let root: string;
let watcher: FolderWatcher | undefined;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'media-sync-ready-'));
});

afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  pendingReady.current = undefined;
  await rm(root, { recursive: true, force: true });
});

it('starts and finds what is in every folder when chokidar is ready before the watcher has looked at its folders', async () => {
  await writeFile(path.join(root, 'top.mp4'), 'top');
  await mkdir(path.join(root, 'sub'));
  await writeFile(path.join(root, 'sub', 'deep.mp4'), 'deep');
  watcher = new FolderWatcher({ root, includeSubfolders: true, settleMs: 100 });
  const found: StableFile[] = [];
  watcher.onDidFindFile((file) => found.push(file));
  const started = await Promise.race([
    watcher.start().then(() => 'started'),
    new Promise((resolve) => setTimeout(() => resolve('still starting after 5 s'), 5_000)),
  ]);
  expect(started).toBe('started');
  await waitFor(() => (found.length === 2 ? true : undefined), 5_000, 'both files');
  expect(found.map((file) => file.relPath).sort()).toEqual(['sub/deep.mp4', 'top.mp4']);
});
