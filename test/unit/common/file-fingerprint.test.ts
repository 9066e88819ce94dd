import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FINGERPRINT_SAMPLE_BYTES, quickFingerprint } from '../../../src-main/common/file-fingerprint.js';

describe('quickFingerprint', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fingerprint-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const big = (fill: number) => Buffer.alloc(10 * FINGERPRINT_SAMPLE_BYTES, fill);

  it('is the same for the same content under another name (a rename is recognised)', async () => {
    await writeFile(join(dir, 'a.mp4'), big(1));
    const before = await quickFingerprint(join(dir, 'a.mp4'));
    await rename(join(dir, 'a.mp4'), join(dir, 'b.mp4'));
    const after = await quickFingerprint(join(dir, 'b.mp4'));
    expect(after).toEqual(before);
    expect(after.size).toBe(10 * FINGERPRINT_SAMPLE_BYTES);
  });

  it('changes when the start, the middle or the end of a large file is rewritten in place', async () => {
    const path = join(dir, 'clip.mp4');
    await writeFile(path, big(0));
    const original = (await quickFingerprint(path)).fingerprint;
    for (const offset of [0, 5 * FINGERPRINT_SAMPLE_BYTES, 10 * FINGERPRINT_SAMPLE_BYTES - 1]) {
      const changed = big(0);
      changed[offset] = 7;
      await writeFile(path, changed);
      expect((await quickFingerprint(path)).fingerprint).not.toBe(original);
    }
  });

  it('does not read between the samples of a large file, so size and mtime must back it up', async () => {
    const path = join(dir, 'clip.mp4');
    await writeFile(path, big(0));
    const original = (await quickFingerprint(path)).fingerprint;
    const changed = big(0);
    changed[2 * FINGERPRINT_SAMPLE_BYTES] = 7;
    await writeFile(path, changed);
    expect((await quickFingerprint(path)).fingerprint).toBe(original);
  });

  it('hashes a small file whole, and tells apart files that differ only in length', async () => {
    await writeFile(join(dir, 'one'), Buffer.alloc(1000));
    await writeFile(join(dir, 'two'), Buffer.alloc(1001));
    const small = Buffer.alloc(2 * FINGERPRINT_SAMPLE_BYTES);
    await writeFile(join(dir, 'three'), small);
    small[FINGERPRINT_SAMPLE_BYTES + 10] = 1;
    await writeFile(join(dir, 'four'), small);
    const [one, two, three, four] = await Promise.all(
      ['one', 'two', 'three', 'four'].map((name) => quickFingerprint(join(dir, name))),
    );
    expect(one!.fingerprint).not.toBe(two!.fingerprint);
    expect(three!.fingerprint).not.toBe(four!.fingerprint);
  });

  it('is sha256 of the size and the three samples, as the queue and the sync index stored it before', async () => {
    const content = randomBytes(10 * FINGERPRINT_SAMPLE_BYTES + 123);
    await writeFile(join(dir, 'clip.mp4'), content);
    const size = content.length;
    const middle = Math.floor(size / 2 - FINGERPRINT_SAMPLE_BYTES / 2);
    const expected = createHash('sha256').update(`${size}:`);
    for (const offset of [0, middle, size - FINGERPRINT_SAMPLE_BYTES]) {
      expected.update(content.subarray(offset, offset + FINGERPRINT_SAMPLE_BYTES));
    }
    expect((await quickFingerprint(join(dir, 'clip.mp4'))).fingerprint).toBe(expected.digest('hex'));
    const small = randomBytes(1_000);
    await writeFile(join(dir, 'small.jpg'), small);
    expect((await quickFingerprint(join(dir, 'small.jpg'))).fingerprint).toBe(
      createHash('sha256').update('1000:').update(small).digest('hex'),
    );
  });

  it('fingerprints an empty file and fails clearly for a missing one', async () => {
    await writeFile(join(dir, 'empty'), '');
    expect((await quickFingerprint(join(dir, 'empty'))).size).toBe(0);
    await expect(quickFingerprint(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
