import { readdirSync } from 'node:fs';
import { appendFile, chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderWatcher, type FolderWatcherOptions, type StableFile } from '../../../src-main/sync/folder-watcher.js';
import { waitFor } from '../../helpers/local-http-server.js';

const SETTLE_MS = 300;
/** Long enough for any file that was going to be reported to have been: two windows and some sweeps. */
const QUIET_MS = 3 * SETTLE_MS + 400;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let root: string;
let outside: string;
const watchers: FolderWatcher[] = [];

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'media-sync-watch-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'media-sync-outside-'));
});

afterEach(async () => {
  await Promise.all(watchers.splice(0).map((watcher) => watcher.close()));
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** A started watcher on `root` with everything it reports collected in order. */
async function watchRoot(options: Partial<FolderWatcherOptions> = {}) {
  const watcher = new FolderWatcher({ root, includeSubfolders: true, settleMs: SETTLE_MS, ...options });
  watchers.push(watcher);
  const found: StableFile[] = [];
  const removed: string[] = [];
  const errors: Error[] = [];
  watcher.onDidFindFile((file) => found.push(file));
  watcher.onDidRemoveFile((relPath) => removed.push(relPath));
  watcher.onDidError((error) => errors.push(error));
  await watcher.start();
  const foundPaths = () => found.map((file) => file.relPath).sort();
  const waitForFound = (relPath: string, timeoutMs = 10_000) =>
    waitFor(() => found.find((file) => file.relPath === relPath), timeoutMs, `${relPath} to be reported`);
  return { watcher, found, removed, errors, foundPaths, waitForFound };
}

/** The root with album/a.jpg and album/day 2/b.jpg, watched, both found. */
async function watchAlbum() {
  await put('album/a.jpg');
  await put('album/day 2/b.jpg');
  const watched = await watchRoot();
  await watched.waitForFound('album/a.jpg');
  await watched.waitForFound('album/day 2/b.jpg');
  return watched;
}

async function put(relPath: string, content: string | Buffer = 'media'): Promise<void> {
  const absPath = path.join(root, relPath);
  await mkdir(path.dirname(absPath), { recursive: true });
  await writeFile(absPath, content);
}

describe('FolderWatcher', () => {
  it('reports the files already in the folder once they settle, and never the folders', async () => {
    await put('a.mp4', 'aaaa');
    await put('2024/trip/b.jpg', 'bb');
    const { found, foundPaths } = await watchRoot();
    await waitFor(() => (found.length >= 2 ? true : undefined), 10_000, 'both files');
    await sleep(QUIET_MS);
    expect(foundPaths()).toEqual(['2024/trip/b.jpg', 'a.mp4']);
    expect(found.find((file) => file.relPath === 'a.mp4')).toMatchObject({
      absPath: path.join(root, 'a.mp4'),
      size: 4,
      mtimeMs: expect.any(Number),
    });
  });

  it('reports a slowly written file once, after the writer stops, with its final size', async () => {
    // A wider window than the other tests so a busy machine's late timer cannot pass for the writer stopping.
    const settleMs = 800;
    const { found, foundPaths, waitForFound } = await watchRoot({ settleMs });
    const started = Date.now();
    await put('slow.mov', Buffer.alloc(1000));
    for (let piece = 0; piece < 15; piece++) {
      await sleep(150);
      await appendFile(path.join(root, 'slow.mov'), Buffer.alloc(1000));
      expect(found, `reported while still being written (piece ${piece})`).toEqual([]);
    }
    expect(Date.now() - started).toBeGreaterThan(2 * settleMs);
    const file = await waitForFound('slow.mov');
    expect(file.size).toBe(16_000);
    await sleep(3 * settleMs);
    expect(foundPaths()).toEqual(['slow.mov']);
  });

  it('reports a download under its final name once it is renamed from .part, never the .part', async () => {
    const { foundPaths, waitForFound } = await watchRoot();
    await put('movie.mp4.part', Buffer.alloc(5000));
    await appendFile(path.join(root, 'movie.mp4.part'), Buffer.alloc(5000));
    await sleep(QUIET_MS);
    expect(foundPaths()).toEqual([]);
    await rename(path.join(root, 'movie.mp4.part'), path.join(root, 'movie.mp4'));
    const file = await waitForFound('movie.mp4');
    expect(file.size).toBe(10_000);
    await sleep(QUIET_MS);
    expect(foundPaths()).toEqual(['movie.mp4']);
  });

  it('reports each of 2,000 files dropped at once exactly once, without holding a descriptor per file', async () => {
    const { found, errors } = await watchRoot();
    const openDescriptors = () => (process.platform === 'linux' ? readdirSync('/proc/self/fd').length : 0);
    const baseline = openDescriptors();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, openDescriptors())), 10);
    try {
      const names = Array.from({ length: 2_000 }, (_, i) => `drop/${String(i).padStart(4, '0')}.jpg`);
      await mkdir(path.join(root, 'drop'));
      // 50 writers at a time, like a file manager's copy; the watcher sees an event storm either way.
      for (let i = 0; i < names.length; i += 50) await Promise.all(names.slice(i, i + 50).map((name) => put(name)));
      await waitFor(() => (found.length >= 2_000 ? true : undefined), 40_000, 'all 2,000 files');
      await sleep(QUIET_MS);
      expect(found).toHaveLength(2_000);
      expect(new Set(found.map((file) => file.relPath))).toEqual(new Set(names));
      expect(errors).toEqual([]);
    } finally {
      clearInterval(sampler);
    }
    // The test's own 50 writers plus the watcher's bounded checks, far below one per file.
    expect(peak - baseline).toBeLessThan(200);
  });

  it('leaves files in subfolders alone when subfolders are not included', async () => {
    await put('old-root.mp4');
    await put('sub/old-nested.mp4');
    const { foundPaths, waitForFound } = await watchRoot({ includeSubfolders: false });
    await put('sub/new-nested.mp4');
    await put('sub/deeper/new.mp4');
    await put('new-root.mp4');
    await waitForFound('new-root.mp4');
    await sleep(QUIET_MS);
    expect(foundPaths()).toEqual(['new-root.mp4', 'old-root.mp4']);
  });

  it('includes files in new and moved-in subfolders when subfolders are included', async () => {
    const { foundPaths, waitForFound } = await watchRoot({ includeSubfolders: true });
    await put('fresh/a.mp4');
    await mkdir(path.join(outside, 'album/day 2'), { recursive: true });
    await writeFile(path.join(outside, 'album/cover.jpg'), 'c');
    await writeFile(path.join(outside, 'album/day 2/clip.mov'), 'm');
    await rename(path.join(outside, 'album'), path.join(root, 'album'));
    await waitForFound('fresh/a.mp4');
    await waitForFound('album/cover.jpg');
    await waitForFound('album/day 2/clip.mov');
    await sleep(QUIET_MS);
    expect(foundPaths()).toEqual(['album/cover.jpg', 'album/day 2/clip.mov', 'fresh/a.mp4']);
  });

  it('catches every file written into a subfolder from the moment the subfolder is created', async () => {
    const { foundPaths, found } = await watchRoot();
    // Writes keep coming while the watcher lists the new folder and starts watching it.
    const names: string[] = [];
    for (const folder of ['burst-1', 'burst-2', 'burst-3']) {
      await mkdir(path.join(root, folder));
      for (let i = 0; i < 40; i++) {
        names.push(`${folder}/${String(i).padStart(2, '0')}.jpg`);
        await put(names.at(-1)!);
        await sleep(2);
      }
    }
    await waitFor(() => (found.length >= names.length ? true : undefined), 15_000, 'every burst file');
    await sleep(QUIET_MS);
    expect(foundPaths()).toEqual(names);
  });

  it('never reports hidden, temporary, user-ignored or after-upload files, nor anything in ignored folders', async () => {
    await put('.hidden.mp4');
    await put('Uploaded/done.mp4');
    const { foundPaths, waitForFound } = await watchRoot({
      ignoreGlobs: ['*.mov', 'drafts/**'],
      ignorePrefixes: ['Uploaded'],
    });
    await put('.secret/clip.mp4');
    await put('render.tmp');
    await put('Thumbs.db');
    await put('~$notes.docx');
    await put('DCIM/CLIP.MOV');
    await put('drafts/cut.mp4');
    await put('Uploaded/later.mp4');
    await put('keep.mp4');
    await waitForFound('keep.mp4');
    await sleep(QUIET_MS);
    expect(foundPaths()).toEqual(['keep.mp4']);
  });

  it('does not report a file deleted before it settled', async () => {
    const settleMs = 1_000;
    const { foundPaths, waitForFound } = await watchRoot({ settleMs });
    await put('oops.mp4', Buffer.alloc(2000));
    await sleep(100);
    await rm(path.join(root, 'oops.mp4'));
    await put('sentinel.mp4');
    await waitForFound('sentinel.mp4');
    await sleep(2 * settleMs);
    expect(foundPaths()).toEqual(['sentinel.mp4']);
  });

  it('reports a changed file again once it settles, but not one whose permissions alone changed', async () => {
    const { found, waitForFound } = await watchRoot();
    await put('edit.mp4', 'v1');
    await waitForFound('edit.mp4');
    await chmod(path.join(root, 'edit.mp4'), 0o600);
    await sleep(QUIET_MS);
    expect(found.map((file) => file.size)).toEqual([2]);
    await appendFile(path.join(root, 'edit.mp4'), ' and v2');
    await waitFor(() => (found.length >= 2 ? true : undefined), 10_000, 'the second report');
    await sleep(QUIET_MS);
    expect(found.map((file) => [file.relPath, file.size])).toEqual([
      ['edit.mp4', 2],
      ['edit.mp4', 9],
    ]);
  });

  it('says when a reported file is deleted or moved into the after-upload folder', async () => {
    const { removed, waitForFound } = await watchRoot({ ignorePrefixes: ['Uploaded'] });
    await put('a.mp4');
    await put('b.mp4');
    await waitForFound('a.mp4');
    await waitForFound('b.mp4');
    await rm(path.join(root, 'a.mp4'));
    await mkdir(path.join(root, 'Uploaded'));
    await rename(path.join(root, 'b.mp4'), path.join(root, 'Uploaded', 'b.mp4'));
    await waitFor(() => (removed.length >= 2 ? true : undefined), 10_000, 'two removals');
    expect(removed.sort()).toEqual(['a.mp4', 'b.mp4']);
  });

  it('says when a folder with its subfolders is deleted, and watches a folder created again under that name', async () => {
    const { removed, waitForFound, foundPaths } = await watchAlbum();
    await rm(path.join(root, 'album'), { recursive: true });
    await waitFor(() => (removed.length >= 2 ? true : undefined), 10_000, 'two removals');
    expect(removed.sort()).toEqual(['album/a.jpg', 'album/day 2/b.jpg']);
    // The new folder's watch is a new one: the old one went with the folder.
    await mkdir(path.join(root, 'album'));
    await put('album/c.jpg');
    await waitForFound('album/c.jpg');
    await put('album/d.jpg');
    await waitForFound('album/d.jpg');
    await sleep(QUIET_MS);
    expect(foundPaths()).toEqual(['album/a.jpg', 'album/c.jpg', 'album/d.jpg', 'album/day 2/b.jpg']);
  });

  it('watches a folder deleted and created again at once, before its removal was heard', async () => {
    const { removed, waitForFound, foundPaths } = await watchAlbum();
    // no wait between: the old folder's removal and the new one's creation reach the watcher in any order
    await rm(path.join(root, 'album'), { recursive: true });
    await mkdir(path.join(root, 'album'));
    await put('album/c.jpg');
    await waitForFound('album/c.jpg');
    await waitFor(() => (removed.length >= 2 ? true : undefined), 10_000, 'two removals');
    await put('album/d.jpg');
    await waitForFound('album/d.jpg');
    await sleep(QUIET_MS);
    expect(removed.sort()).toEqual(['album/a.jpg', 'album/day 2/b.jpg']);
    expect(foundPaths()).toEqual(['album/a.jpg', 'album/c.jpg', 'album/d.jpg', 'album/day 2/b.jpg']);
  });

  it('finds, on start, a file that arrived while no watcher was running', async () => {
    await put('before.mp4');
    const first = await watchRoot();
    await first.waitForFound('before.mp4');
    await first.watcher.close();
    await put('while-closed.mp4');
    const second = await watchRoot();
    await second.waitForFound('while-closed.mp4');
    await sleep(QUIET_MS);
    expect(first.foundPaths()).toEqual(['before.mp4']);
    expect(second.foundPaths()).toEqual(['before.mp4', 'while-closed.mp4']);
  });

  it('rescan reports every eligible file once more and counts them', async () => {
    await put('a.mp4');
    await put('sub/b.jpg');
    await put('skip.tmp');
    const { watcher, found, foundPaths } = await watchRoot();
    await waitFor(() => (found.length >= 2 ? true : undefined), 10_000, 'the first reports');
    await sleep(QUIET_MS);
    expect(await watcher.rescan()).toBe(2);
    await waitFor(() => (found.length >= 4 ? true : undefined), 10_000, 'the rescan reports');
    await sleep(QUIET_MS);
    expect(foundPaths()).toEqual(['a.mp4', 'a.mp4', 'sub/b.jpg', 'sub/b.jpg']);
  });

  it('stops reporting once closed', async () => {
    const { watcher, found } = await watchRoot();
    await watcher.close();
    await put('late.mp4');
    await sleep(QUIET_MS);
    expect(found).toEqual([]);
  });

  it('refuses to start on a folder that does not exist', async () => {
    const watcher = new FolderWatcher({ root: path.join(root, 'missing'), includeSubfolders: true });
    watchers.push(watcher);
    await expect(watcher.start()).rejects.toThrow(/ENOENT/);
  });

  it('lists the eligible files of a folder with their size and mtime, for a baseline', async () => {
    await put('a.mp4', 'aaa');
    await put('sub/b.jpg', 'b');
    await put('sub/skip.part');
    await put('Uploaded/c.mp4');
    const listed = await FolderWatcher.list({ root, includeSubfolders: true, ignorePrefixes: ['Uploaded'] });
    expect(
      listed.map(({ relPath, size }) => ({ relPath, size })).sort((x, y) => x.relPath.localeCompare(y.relPath)),
    ).toEqual([
      { relPath: 'a.mp4', size: 3 },
      { relPath: 'sub/b.jpg', size: 1 },
    ]);
    const flat = await FolderWatcher.list({ root, includeSubfolders: false });
    expect(flat.map((file) => file.relPath)).toEqual(['a.mp4']);
  });
});
