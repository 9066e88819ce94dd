import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../../helpers/cli-sandbox.js';

const RULE_FLAGS = ['--types', 'videos', '--min-size', '100', '--modified-after', '2025-01-01', '--ignore', 'draft-*'];

/**
 * `media-sync watch DIR --dry-run` (issue 35, part 4): the preview of the
 * folder's rules in words, nothing added, watched or queued; the same
 * command without --dry-run then uploads as many files as it said.
 */
describe('media-sync watch --dry-run', { timeout: 120_000 }, () => {
  const sandbox = cliSandbox('media-sync-cli-dry-run-');
  const { cli } = sandbox;

  it('says what would be uploaded and left alone, queues nothing, and the real watch uploads that many', async () => {
    expect((await cli(['login', '--base-url', sandbox.server.baseUrl], sandbox.server.token)).code).toBe(0);
    const card = join(sandbox.files.path, 'card');
    await mkdir(join(card, 'sub'), { recursive: true });
    const files = {
      'a.mp4': 2000,
      'b.mov': 1000,
      'sub/c.mkv': 1500,
      'tiny.mp4': 10,
      'old.mp4': 2000,
      'photo.jpg': 800,
      '.hidden.mp4': 300,
      'clip.mp4.part': 300,
      'draft-1.mp4': 300,
    };
    for (const [relPath, size] of Object.entries(files)) await writeFile(join(card, relPath), Buffer.alloc(size, 1));
    const old = new Date(Date.UTC(2020, 5, 1));
    await utimes(join(card, 'old.mp4'), old, old);

    const dry = await cli(['watch', card, '--dry-run', ...RULE_FLAGS]);
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(dry.stdout).toBe(
      `${card}\n  3 files (4.50 KB) will be uploaded; 6 are left alone (1 by type, 1 by size, 1 by date, 1 hidden, 1 temporary or system file, 1 by your patterns).\n`,
    );
    const json = JSON.parse((await cli(['watch', card, '--dry-run', '--json', ...RULE_FLAGS])).stdout) as {
      previews: { path: string; upload: { files: number } }[];
    };
    expect(json.previews).toMatchObject([{ path: card, upload: { files: 3, bytes: 4500 }, stopped: null }]);

    // nothing changed: no folder watched, nothing queued
    expect(JSON.parse((await cli(['folders', '--json'])).stdout)).toEqual([]);
    expect(JSON.parse((await cli(['queue', 'ls', '--json'])).stdout)).toMatchObject({ items: [] });

    const real = await cli(['watch', card, '--once', '--json', ...RULE_FLAGS], undefined);
    expect(real.code).toBe(0);
    const uploaded = (JSON.parse(real.stdout) as { uploaded: { path: string }[] }).uploaded.map((item) => item.path);
    expect(uploaded.sort()).toEqual([join(card, 'a.mp4'), join(card, 'b.mov'), join(card, 'sub', 'c.mkv')]);
    expect(uploaded).toHaveLength(json.previews[0]!.upload.files);
  });

  it('refuses a bad rule flag with a sentence that names it, and changes nothing', async () => {
    const card = sandbox.files.path;
    const refusals: [string[], string][] = [
      [['--types', 'movies'], '--types takes videos, pictures, audio or everything; "movies" is not one.'],
      [
        ['--types', 'everything', '--ext', 'mp4'],
        '--types everything takes every file: leave out the other types and --ext.',
      ],
      [['--ext', 'mp4,.m*v'], '--ext takes extensions such as mp4,mov; ".m*v" is not one.'],
      [['--min-size', '5GB', '--max-size', '1GB'], '--min-size must not be larger than --max-size.'],
      [['--max-size', 'big'], '--max-size must be a size like 5MB or 500000.'],
      [['--modified-after', '2026-02-30'], '--modified-after must be a date such as 2026-01-01 (or 2026-01-01T18:00).'],
    ];
    for (const [flags, sentence] of refusals) {
      const run = await cli(['watch', card, '--dry-run', ...flags]);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n')[0]).toBe(`Error: ${sentence}`);
    }
    expect(JSON.parse((await cli(['folders', '--json'])).stdout)).toEqual([]);
  });
});
