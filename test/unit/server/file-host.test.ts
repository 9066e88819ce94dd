import { describe, expect, it } from 'vitest';
import { parseRange } from '../../../src-server/file-host/file-host-routes.js';
import { isInertMedia, mediaTypeOf, safeFilename } from '../../../src-server/uploads/media-type.js';

describe('parseRange', () => {
  it.each([
    [undefined, null],
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=900-5000', { start: 900, end: 999 }],
    ['bytes=1000-', 'unsatisfiable'],
    ['bytes=50-10', 'unsatisfiable'],
    ['bytes=0-1,5-6', null],
    ['items=0-1', null],
  ])('%s of 1000 bytes → %o', (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });
});

describe('media types and stored names', () => {
  it('names the type from the extension first, then from the bytes', () => {
    expect(mediaTypeOf('a.MKV', Buffer.alloc(0))).toBe('video/x-matroska');
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(8)]);
    expect(mediaTypeOf('no-extension', mp4)).toBe('video/mp4');
    expect(mediaTypeOf('notes', Buffer.from('hello'))).toBe('application/octet-stream');
  });

  it('calls inert only what a browser plays or shows without running script', () => {
    const inert = ['video/mp4', 'video/webm', 'audio/mpeg', 'image/png', 'image/jpeg', 'image/webp', 'application/pdf'];
    const active = [
      'text/html',
      'image/svg+xml',
      'application/xhtml+xml',
      'text/xml',
      'application/xml',
      'application/octet-stream',
      'text/plain',
      'application/zip',
      'text/vtt',
    ];
    expect(inert.filter((mime) => !isInertMedia(mime))).toEqual([]);
    expect(active.filter((mime) => isInertMedia(mime))).toEqual([]);
  });

  it('keeps only the last path segment and drops control and direction characters', () => {
    expect(safeFilename('../../etc/passwd')).toBe('passwd');
    expect(safeFilename('C:\\Users\\me\\clip.mp4')).toBe('clip.mp4');
    expect(safeFilename('bad\u0000name.mp4')).toBe('badname.mp4');
    expect(safeFilename('clip\u202egpj.exe\u2069\u0085')).toBe('clipgpj.exe');
    expect(safeFilename('..')).toBe('file');
  });
});
