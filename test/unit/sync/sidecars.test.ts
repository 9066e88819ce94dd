import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasMediaFile, isSidecar, sidecarsOf } from '../../../src-main/sync/sidecars.js';

describe('sidecars of a media file, on real files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'media-sync-sidecars-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const touch = (...names: string[]) => Promise.all(names.map((name) => writeFile(join(dir, name), name)));

  it('finds each sidecar by its stem or its whole name, in the spellings it is written in, and nothing else', async () => {
    await touch('IMG_1.JPG', 'IMG_1.xmp', 'IMG_1.AAE', 'IMG_1.JPG.Xmp', 'IMG_1.Srt', 'IMG_1.xMp', 'IMG_10.xmp');
    await touch('IMG_1.mov', 'IMG_1.txt');
    const found = (await sidecarsOf(join(dir, 'IMG_1.JPG'))).map((path) => path.slice(dir.length + 1)).sort();
    expect(found).toEqual(['IMG_1.AAE', 'IMG_1.JPG.Xmp', 'IMG_1.Srt', 'IMG_1.xmp']);
    // a sidecar has no sidecars of its own
    expect(await sidecarsOf(join(dir, 'IMG_1.xmp'))).toEqual([]);
    // a spelling the media file would not find is no sidecar: it is never left waiting for it
    expect(isSidecar('IMG_1.xMp')).toBe(false);
    expect(['a.LRV', 'a.thm', 'a.Vtt'].map(isSidecar)).toEqual([true, true, true]);
  });

  it('knows whether a sidecar’s media file is beside it', async () => {
    await touch('GX01.MP4.srt', 'GX02.LRV', 'GX02.THM', 'clip.vtt', 'clip.mkv');
    expect(await hasMediaFile(join(dir, 'GX01.MP4.srt'))).toBe(false);
    await touch('GX01.MP4');
    expect(await hasMediaFile(join(dir, 'GX01.MP4.srt'))).toBe(true);
    // only other sidecars beside it: no media file
    expect(await hasMediaFile(join(dir, 'GX02.LRV'))).toBe(false);
    expect(await hasMediaFile(join(dir, 'clip.vtt'))).toBe(true);
  });
});
