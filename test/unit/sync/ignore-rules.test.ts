import { describe, expect, it } from 'vitest';
import { createIgnoreMatcher, createIgnoreRules, DEFAULT_IGNORED_NAMES } from '../../../src-main/sync/ignore-rules.js';

describe('createIgnoreMatcher: defaults', () => {
  const ignores = createIgnoreMatcher([]);

  it.each([
    'movie.mp4.part',
    'video.crdownload',
    'render.tmp',
    'render.temp',
    'clip.mov.partial',
    'clip.mov.download',
    'show.mkv.!ut',
    'archive.zip.opdownload',
    '~$report.docx',
    'notes.txt~',
    '.DS_Store',
    'Thumbs.db',
    'desktop.ini',
    'clip.swp',
    '.~lock.report.odt#',
  ])('ignores the partial or litter file %s, at the root and in a subfolder', (name) => {
    expect(ignores(name)).toBe(true);
    expect(ignores(`2024/holiday/${name}`)).toBe(true);
  });

  it('ignores every documented default name (each glob with its wildcard filled in)', () => {
    for (const glob of DEFAULT_IGNORED_NAMES) {
      expect(ignores(`album/${glob.replace('*', 'clip')}`), glob).toBe(true);
    }
  });

  it('ignores the defaults whatever their case, as Windows and macOS file systems do', () => {
    expect(ignores('THUMBS.DB')).toBe(true);
    expect(ignores('Desktop.INI')).toBe(true);
    expect(ignores('Clip.MP4.PART')).toBe(true);
    expect(ignores('Video.CRDOWNLOAD')).toBe(true);
  });

  it('ignores hidden files and everything inside hidden folders, at any depth', () => {
    expect(ignores('.hidden.mp4')).toBe(true);
    expect(ignores('.git/config')).toBe(true);
    expect(ignores('photos/.cache/thumb.jpg')).toBe(true);
    expect(ignores('photos/2024/._IMG_0001.JPG')).toBe(true);
  });

  it('ignores the contents of a folder whose own name is a temporary name', () => {
    expect(ignores('export.tmp/clip.mp4')).toBe(true);
  });

  it.each([
    'clip.mp4',
    'photos/2024/IMG_0001.JPG',
    'partial-results.mp4',
    'tmp/clip.mp4',
    'downloads/clip.mp4',
    'my.download.mp4',
    'a~b.mp4',
    'report~$.docx',
    'part 2.mov',
    'Thumbs.db.mp4',
  ])('keeps the ordinary file %s', (relPath) => {
    expect(ignores(relPath)).toBe(false);
  });

  it('keeps the root itself (an empty path) and tolerates doubled slashes', () => {
    expect(ignores('')).toBe(false);
    expect(ignores('photos//clip.mp4')).toBe(false);
    expect(ignores('photos//.x/clip.mp4')).toBe(true);
  });
});

describe('createIgnoreMatcher: user globs', () => {
  it('matches a glob without a slash against the file name at any depth', () => {
    const ignores = createIgnoreMatcher(['*.mov']);
    expect(ignores('a.mov')).toBe(true);
    expect(ignores('2024/trip/b.mov')).toBe(true);
    expect(ignores('2024/trip/b.mp4')).toBe(false);
    expect(ignores('movies/b.mp4')).toBe(false);
  });

  it('is case-insensitive, so *.mov also skips a camera’s CLIP.MOV', () => {
    expect(createIgnoreMatcher(['*.mov'])('DCIM/CLIP0001.MOV')).toBe(true);
  });

  it('treats a bare name as a folder to skip wherever it is, with everything inside', () => {
    const ignores = createIgnoreMatcher(['raw']);
    expect(ignores('raw')).toBe(true);
    expect(ignores('raw/a.mp4')).toBe(true);
    expect(ignores('2024/raw/deep/b.mp4')).toBe(true);
    expect(ignores('rawfile.mp4')).toBe(false);
    expect(ignores('2024/raws/b.mp4')).toBe(false);
  });

  it('matches a glob with a slash against the path from the watched folder', () => {
    const ignores = createIgnoreMatcher(['drafts/**', '2019/*.jpg']);
    expect(ignores('drafts')).toBe(true);
    expect(ignores('drafts/a.mp4')).toBe(true);
    expect(ignores('drafts/x/y.mp4')).toBe(true);
    expect(ignores('other/drafts/a.mp4')).toBe(false);
    expect(ignores('2019/a.jpg')).toBe(true);
    expect(ignores('2019/a.mp4')).toBe(false);
    expect(ignores('2019/sub/a.jpg')).toBe(false);
    expect(ignores('2020/a.jpg')).toBe(false);
  });

  it('skips what is inside a folder that a path glob names', () => {
    const ignores = createIgnoreMatcher(['drafts/old']);
    expect(ignores('drafts/old/a.mp4')).toBe(true);
    expect(ignores('drafts/new/a.mp4')).toBe(false);
  });

  it('accepts a leading slash or ./ as the folder root, and Windows separators', () => {
    for (const glob of ['/drafts/**', './drafts/**', 'drafts\\**']) {
      const ignores = createIgnoreMatcher([glob]);
      expect(ignores('drafts/a.mp4'), glob).toBe(true);
      expect(ignores('keep/a.mp4'), glob).toBe(false);
    }
  });

  it('ignores blank globs instead of ignoring everything', () => {
    const ignores = createIgnoreMatcher(['', '   ', '/']);
    expect(ignores('clip.mp4')).toBe(false);
    expect(ignores('a/b/clip.mp4')).toBe(false);
  });

  it('adds to the defaults rather than replacing them', () => {
    const ignores = createIgnoreMatcher(['*.mov']);
    expect(ignores('clip.mp4.part')).toBe(true);
    expect(ignores('.DS_Store')).toBe(true);
  });

  it('refuses a glob it cannot compile, naming it', () => {
    const huge = `${'*'.repeat(70_000)}.mov`;
    expect(() => createIgnoreMatcher(['*.mp4', huge])).toThrow(/Invalid ignore pattern "\*+\.mov"/);
  });
});

describe('createIgnoreRules: the rule is named', () => {
  const leftAloneBy = createIgnoreRules(['raw', 'drafts/**']);

  it('names a hidden segment, a default litter name and the folder glob as the person wrote it', () => {
    expect(leftAloneBy('trip/.cache/a.jpg')).toEqual({ rule: 'hidden', segment: '.cache' });
    expect(leftAloneBy('trip/Clip.PART')).toEqual({ rule: 'litter', pattern: '*.part' });
    expect(leftAloneBy('2024/RAW/a.cr2')).toEqual({ rule: 'glob', pattern: 'raw' });
    expect(leftAloneBy('drafts/old/a.mov')).toEqual({ rule: 'glob', pattern: 'drafts/**' });
  });

  it('names none for a file every rule lets through', () => {
    expect(leftAloneBy('trip/IMG_0042.JPG')).toBeNull();
  });
});
