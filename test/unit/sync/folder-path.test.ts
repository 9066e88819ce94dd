import { describe, expect, it } from 'vitest';
import { checkFolderPath, expandHome, isNotConnected } from '../../../src-main/sync/folder-path.js';

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

describe('isNotConnected: a drive unmounted, told from a folder that is empty or gone', () => {
  const CARD = 2_049;
  const ROOT = 2_050;
  const NEW_CARD = 2_051;

  it('says nothing before the folder was ever seen on a device', () => {
    expect(isNotConnected(null, { device: ROOT, aboveDevice: ROOT, empty: true })).toBe(false);
    expect(isNotConnected(null, { device: null, aboveDevice: ROOT, empty: false })).toBe(false);
  });

  it('is not connected when the mount point is left empty on the disk above', () => {
    expect(isNotConnected(CARD, { device: ROOT, aboveDevice: ROOT, empty: true })).toBe(true);
  });

  it('is not connected when the folder went with its drive (its mount point removed, a drive letter gone)', () => {
    expect(isNotConnected(CARD, { device: null, aboveDevice: ROOT, empty: false })).toBe(true);
    expect(isNotConnected(CARD, { device: null, aboveDevice: null, empty: false })).toBe(true);
  });

  it('is connected on its drive, on a new drive mounted there, or with files in it', () => {
    expect(isNotConnected(CARD, { device: CARD, aboveDevice: ROOT, empty: true })).toBe(false);
    // a card formatted and put back: a new device, empty, and a mount point of its own
    expect(isNotConnected(CARD, { device: NEW_CARD, aboveDevice: ROOT, empty: true })).toBe(false);
    expect(isNotConnected(CARD, { device: ROOT, aboveDevice: ROOT, empty: false })).toBe(false);
  });

  it('leaves a folder gone from a drive still there missing, and one always on the same disk alone', () => {
    expect(isNotConnected(CARD, { device: null, aboveDevice: CARD, empty: false })).toBe(false);
    expect(isNotConnected(ROOT, { device: ROOT, aboveDevice: ROOT, empty: true })).toBe(false);
  });
});
