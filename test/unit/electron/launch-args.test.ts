import { describe, expect, it } from 'vitest';
import { parseLaunchArgs } from '../../../src-main/electron/launch-args.js';

describe('parseLaunchArgs', () => {
  it('reads the hidden flag, links and files of an installed app, resolving files against the working directory', () => {
    expect(
      parseLaunchArgs(
        [
          '/opt/Media Sync/media-sync',
          '--hidden',
          'MEDIA-SYNC://files?search=x',
          'clip.mp4',
          '/abs/b.mov',
          'file:///c.mp4',
        ],
        { cwd: '/home/ana/Videos', appPathInArgv: false },
      ),
    ).toEqual({
      hidden: true,
      links: ['MEDIA-SYNC://files?search=x'],
      files: ['/home/ana/Videos/clip.mp4', '/abs/b.mov', 'file:///c.mp4'],
    });
  });

  it('skips the app folder of `electron <folder>` and the switches Chromium adds to a second instance', () => {
    expect(
      parseLaunchArgs(
        ['/usr/lib/electron', '.', '--allow-file-access-from-files', '--original-process-start-time=1', '', 'a.mp4'],
        { cwd: '/work', appPathInArgv: true },
      ),
    ).toEqual({ hidden: false, links: [], files: ['/work/a.mp4'] });
  });

  it('opens nothing for a plain start', () => {
    expect(parseLaunchArgs(['/opt/media-sync'], { cwd: '/', appPathInArgv: false })).toEqual({
      hidden: false,
      links: [],
      files: [],
    });
  });
});
