import { describe, expect, it } from 'vitest';
import { checkFolderPath, expandHome } from '../../../src-main/sync/folder-path.js';

const LINUX = { home: '/home/ana', platform: 'linux' } as const;
const WINDOWS = { home: 'C:\\Users\\ana', platform: 'win32' } as const;

describe('folder paths as a person types them', () => {
  it('starts ~ and ~/… at the home folder, and leaves other paths alone', () => {
    expect(expandHome('~', LINUX)).toBe('/home/ana');
    expect(expandHome('~/Videos/To upload', LINUX)).toBe('/home/ana/Videos/To upload');
    expect(expandHome('~/', LINUX)).toBe('/home/ana');
    expect(expandHome('/srv/~/x', LINUX)).toBe('/srv/~/x');
    // another user's home is not looked up: it stays as typed and is refused as not absolute
    expect(expandHome('~bob/Videos', LINUX)).toBe('~bob/Videos');
    expect(expandHome('~\\Videos', LINUX)).toBe('~\\Videos');
    expect(expandHome('~\\Videos', WINDOWS)).toBe('C:\\Users\\ana\\Videos');
    expect(expandHome('~/Videos', WINDOWS)).toBe('C:\\Users\\ana\\Videos');
  });

  it('refuses a path that is not absolute, saying how a full path starts on this system', async () => {
    for (const typed of ['Videos', './Videos', '../Videos', '~bob/Videos']) {
      await expect(checkFolderPath(typed, LINUX)).rejects.toMatchObject({
        code: 'FOLDER_PATH_NOT_ABSOLUTE',
        message: `“${typed}” is not a full path. Type the full path of the folder, starting with / (or ~ for your home folder), for example /home/ana/Videos.`,
      });
    }
    // C:Videos is relative to the drive's current folder, \Videos to the current drive: neither says where it is
    for (const typed of ['Videos', 'C:Videos', '\\Videos', '/Videos']) {
      await expect(checkFolderPath(typed, WINDOWS)).rejects.toMatchObject({
        code: 'FOLDER_PATH_NOT_ABSOLUTE',
        message: `“${typed}” is not a full path. Type the full path of the folder, starting with its drive letter, for example C:\\Users\\ana\\Videos.`,
      });
    }
  });
});
