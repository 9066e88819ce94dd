import { extname } from 'node:path';
import { withoutControlCharacters } from '../../src-shared/api/index.js';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  mkv: 'video/x-matroska',
  webm: 'video/webm',
  avi: 'video/x-msvideo',
  wmv: 'video/x-ms-wmv',
  flv: 'video/x-flv',
  mpg: 'video/mpeg',
  mpeg: 'video/mpeg',
  ts: 'video/mp2t',
  m2ts: 'video/mp2t',
  '3gp': 'video/3gpp',
  ogv: 'video/ogg',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  txt: 'text/plain',
  srt: 'application/x-subrip',
  vtt: 'text/vtt',
};

const BY_MIME = Object.fromEntries(Object.entries(BY_EXTENSION).map(([ext, mime]) => [mime, ext]));

/** The extension of a filename, lower case, without the dot ('' when none). */
export function extensionOf(filename: string): string {
  return extname(filename).slice(1).toLowerCase();
}

/** Video container signatures in the first bytes of a file. */
export function sniffVideo(head: Buffer): string | null {
  const ascii = (start: number, end: number) => head.subarray(start, end).toString('latin1');
  if (head.length >= 12 && ascii(4, 8) === 'ftyp') return ascii(8, 10) === 'qt' ? 'video/quicktime' : 'video/mp4';
  if (head.length >= 8 && ['moov', 'mdat', 'wide', 'free', 'skip'].includes(ascii(4, 8))) return 'video/quicktime';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) {
    return head.subarray(0, 64).includes('webm') ? 'video/webm' : 'video/x-matroska';
  }
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 11) === 'AVI') return 'video/x-msvideo';
  if (head.length >= 3 && ascii(0, 3) === 'FLV') return 'video/x-flv';
  if (head.length >= 4 && ascii(0, 4) === 'OggS') return 'video/ogg';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x000001ba) return 'video/mpeg';
  if (head.length >= 16 && head.readUInt32BE(0) === 0x3026b275) return 'video/x-ms-wmv';
  // MPEG-TS: a sync byte every 188 bytes
  if (head.length >= 377 && head[0] === 0x47 && head[188] === 0x47 && head[376] === 0x47) return 'video/mp2t';
  return null;
}

/** The media type of a stored file: its extension first, then its first bytes. */
export function mediaTypeOf(filename: string, head: Buffer): string {
  return BY_EXTENSION[extensionOf(filename)] ?? sniffVideo(head) ?? 'application/octet-stream';
}

/** An extension for a media type, for names derived from a URL without one. */
export function extensionForMediaType(mime: string): string | undefined {
  return BY_MIME[mime];
}

export function isVideo(mime: string): boolean {
  return mime.startsWith('video/');
}

/**
 * Types a browser plays or shows as the file itself, with nothing in them that
 * can run script in the file host's origin: video, audio, raster images, PDF.
 * HTML, SVG, XML and whatever the host cannot tell (`application/octet-stream`)
 * are not among them.
 */
export function isInertMedia(mime: string): boolean {
  return /^(video|audio)\/|^image\/(jpeg|png|gif|webp|avif|bmp)$|^application\/pdf$/.test(mime);
}

/** A stored filename: no path, no control or direction characters, at most 255 characters. */
export function safeFilename(original: string, fallback = 'file'): string {
  const base = original.split(/[\\/]/).pop() ?? '';
  const cleaned = withoutControlCharacters(base).trim();
  const name = cleaned === '' || cleaned === '.' || cleaned === '..' ? fallback : cleaned;
  return Array.from(name).slice(0, 255).join('');
}
