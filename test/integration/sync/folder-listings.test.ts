import type * as Fs from 'node:fs/promises';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { FolderWatcher, type StableFile } from '../../../src-main/sync/folder-watcher.js';
import { waitFor } from '../../helpers/local-http-server.js';

/**
 * The folders chokidar's lister read (folder-watches.ts lists with `readdir`;
 * the watcher's own walk uses `opendir`), one entry per listing.
 */
const listings = vi.hoisted(() => ({ paths: [] as string[] }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  const readdir = ((...args: Parameters<typeof fs.readdir>) => {
    listings.paths.push(String(args[0]));
    return fs.readdir(...args);
  }) as typeof fs.readdir;
  return { ...fs, default: { ...fs, readdir }, readdir };
});

let root: string;
let watcher: FolderWatcher | undefined;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'media-sync-listings-'));
  listings.paths = [];
});

afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  await rm(root, { recursive: true, force: true });
});

it('reads a folder about once a second while hundreds of files arrive in it, and still finds each file once', async () => {
  watcher = new FolderWatcher({ root, includeSubfolders: true, settleMs: 100 });
  const found: StableFile[] = [];
  watcher.onDidFindFile((file) => found.push(file));
  await watcher.start();
  const before = listings.paths.length;

  // a camera's card copied in: 400 photos over about two seconds
  const started = performance.now();
  for (let batch = 0; batch < 50; batch++) {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        writeFile(path.join(root, `IMG_${batch * 8 + i}.jpg`), `photo ${batch} ${i}`),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  const burstSeconds = (performance.now() - started) / 1000;
  await waitFor(() => (found.length >= 400 ? true : undefined), 20_000, 'the 400 photos');
  // the listing that follows the last change, a second after the one before it
  await new Promise((resolve) => setTimeout(resolve, 1_500));

  expect(new Set(found.map((file) => file.relPath)).size).toBe(400);
  expect(found).toHaveLength(400);
  const rootListings = listings.paths.slice(before).filter((listed) => path.resolve(listed) === root).length;
  // one a second during the burst, one after it (and one for a second that began just before it);
  // chokidar alone read the folder again each time a listing ended: hundreds of times
  expect(rootListings).toBeGreaterThan(0);
  expect(rootListings).toBeLessThanOrEqual(Math.ceil(burstSeconds) + 3);
});
