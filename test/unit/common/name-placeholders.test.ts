import { describe, expect, it } from 'vitest';
import { NamePlaceholders } from '../../../src-main/common/name-placeholders.js';

describe('NamePlaceholders', () => {
  it('replaces each whole name by one stand-in that keeps the extension, and leaves shared folders and longer words', () => {
    const names = new NamePlaceholders();
    names.addPath('/home/alice/Pictures/Camera');
    names.addName('IMG_0042.JPG');
    const hidden = names.hide('Uploaded /home/alice/Pictures/Camera/IMG_0042.JPG; IMG_0042.JPG again. Cameras, alice.');
    const stand = names.placeholder('IMG_0042.JPG');
    expect(stand).toMatch(/^name-[0-9a-f]{6}\.JPG$/);
    expect(hidden).toBe(
      `Uploaded /home/${names.placeholder('alice')}/${names.placeholder('Pictures')}/${names.placeholder('Camera')}/${stand}; ${stand} again. Cameras, ${names.placeholder('alice')}.`,
    );
    for (const name of ['alice', 'Pictures', 'IMG_0042']) expect(hidden).not.toContain(name);
  });

  it('gives another stand-in under another key: a stand-in cannot be looked up in a table made elsewhere', () => {
    expect(new NamePlaceholders().placeholder('holiday.jpg')).not.toBe(
      new NamePlaceholders().placeholder('holiday.jpg'),
    );
  });

  it('hides the longer of two names that overlap, whole', () => {
    const names = new NamePlaceholders();
    names.addName('clip.mp4');
    names.addName('clip.mp4.part');
    expect(names.hide('clip.mp4.part then clip.mp4')).toBe(
      `${names.placeholder('clip.mp4.part')} then ${names.placeholder('clip.mp4')}`,
    );
  });
});
