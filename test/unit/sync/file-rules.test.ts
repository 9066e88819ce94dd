import { describe, expect, it } from 'vitest';
import { FolderOptionsSchema, type FolderOptionsInput } from '../../../src-shared/model/folder-options.js';
import { createFileRules } from '../../../src-main/sync/file-rules.js';

const JAN_2026 = Date.UTC(2026, 0, 1);
const rulesOf = (input: FolderOptionsInput) => createFileRules(FolderOptionsSchema.parse(input));
const file = (relPath: string, size = 1000, mtimeMs = Date.UTC(2026, 5, 1)) => ({ relPath, size, mtimeMs });

describe('createFileRules', () => {
  it('takes every file when the folder sets no file rule (the default)', () => {
    const rules = rulesOf({});
    expect(rules(file('notes.txt', 0, 0))).toBeNull();
    expect(rules(file('DCIM/clip.MOV', 10 ** 12))).toBeNull();
  });

  it('takes the files of the chosen groups by extension, in any case, and names the rule for the rest', () => {
    const rules = rulesOf({ fileTypes: { groups: ['videos', 'pictures'] } });
    expect(rules(file('DCIM/clip.MOV'))).toBeNull();
    expect(rules(file('IMG_0042.heic'))).toBeNull();
    expect(rules(file('song.mp3'))).toEqual({ rule: 'type', allowed: ['videos', 'pictures'] });
    expect(rules(file('README'))).toEqual({ rule: 'type', allowed: ['videos', 'pictures'] });
    // a name without a dot has none, even when the name is an extension
    expect(rules(file('mp4'))).not.toBeNull();
  });

  it('takes extensions as typed (with or without the dot, any case) beside the groups', () => {
    const options = FolderOptionsSchema.parse({ fileTypes: { groups: ['audio'], extensions: ['.BRAW', 'r3d'] } });
    expect(options.fileTypes?.extensions).toEqual(['braw', 'r3d']);
    const rules = createFileRules(options);
    expect(rules(file('A001.braw'))).toBeNull();
    expect(rules(file('take.R3D'))).toBeNull();
    expect(rules(file('take.flac'))).toBeNull();
    expect(rules(file('take.mov'))).toEqual({ rule: 'type', allowed: ['audio', 'braw', 'r3d'] });
  });

  it('refuses a type rule that names nothing, an extension that is not one, and a minimum above the maximum', () => {
    expect(FolderOptionsSchema.safeParse({ fileTypes: { groups: [], extensions: [] } }).success).toBe(false);
    expect(FolderOptionsSchema.safeParse({ fileTypes: { extensions: ['m p4'] } }).success).toBe(false);
    expect(FolderOptionsSchema.safeParse({ fileTypes: { groups: ['documents'] } }).success).toBe(false);
    expect(FolderOptionsSchema.safeParse({ minSize: 10, maxSize: 5 }).success).toBe(false);
    expect(FolderOptionsSchema.safeParse({ minSize: 5, maxSize: 5 }).success).toBe(true);
  });

  it('leaves alone a file below the minimum or above the maximum size, the limits themselves included in the range', () => {
    const rules = rulesOf({ minSize: 100, maxSize: 1000 });
    const size = { rule: 'size', min: 100, max: 1000 };
    expect(rules(file('a.mp4', 99))).toEqual(size);
    expect(rules(file('a.mp4', 100))).toBeNull();
    expect(rules(file('a.mp4', 1000))).toBeNull();
    expect(rules(file('a.mp4', 1001))).toEqual(size);
    expect(rulesOf({ maxSize: 10 })(file('a.mp4', 11))).toEqual({ rule: 'size', min: null, max: 10 });
  });

  it('leaves alone a file modified at or before the date, and takes one modified after it', () => {
    const rules = rulesOf({ modifiedAfter: JAN_2026 });
    expect(rules(file('old.mp4', 1, JAN_2026 - 1))).toEqual({ rule: 'modified', after: JAN_2026 });
    expect(rules(file('edge.mp4', 1, JAN_2026))).toEqual({ rule: 'modified', after: JAN_2026 });
    expect(rules(file('new.mp4', 1, JAN_2026 + 1))).toBeNull();
  });

  it('names the type rule first, then the size, then the date, when several leave a file alone', () => {
    const rules = rulesOf({ fileTypes: { groups: ['videos'] }, minSize: 10, modifiedAfter: JAN_2026 });
    expect(rules(file('a.txt', 1, 0))?.rule).toBe('type');
    expect(rules(file('a.mp4', 1, 0))?.rule).toBe('size');
    expect(rules(file('a.mp4', 10, 0))?.rule).toBe('modified');
  });
});
