import { sniffVideo } from '../uploads/media-type.js';

/** Bytes looked at before the first byte is written to disk. */
export const SNIFF_BYTES = 512;

const VIDEO_LABELS = [/^video\//, /^application\/mp4$/];
const OPAQUE_LABELS = [/^application\/octet-stream$/, /^binary\/octet-stream$/, /^application\/x-download$/];

/** The media type essence of a Content-Type header: `video/mp4; codecs=...` → `video/mp4`. */
export function mediaTypeEssence(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Why a response label is not acceptable for a video import, or null. */
export function labelRefusal(essence: string): string | null {
  if (essence === '' || VIDEO_LABELS.some((p) => p.test(essence)) || OPAQUE_LABELS.some((p) => p.test(essence))) {
    return null;
  }
  return `the source sent ${essence}, not a video`;
}

const MARKUP_OR_SCRIPT = /^(<|#!|\{|\[|\/\/|\/\*|(function|var|let|const|import|export|async)\b|\(\s*function)/i;

/**
 * Why these first bytes are not a video whatever the label says, or null.
 * Markup and script are refused outright; an unlabelled or opaque body must
 * start with a known video container signature.
 */
export function bodyRefusal(head: Buffer, essence: string): string | null {
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (MARKUP_OR_SCRIPT.test(text)) return 'the source sent HTML or script, not a video';
  if (isPrintableText(head)) return 'the source sent text, not a video';
  const labelledVideo = VIDEO_LABELS.some((p) => p.test(essence));
  if (!labelledVideo && sniffVideo(head) === null) return 'the source sent data that is not a known video format';
  return null;
}

/** Every byte is printable ASCII or whitespace: no container format looks like that. */
function isPrintableText(head: Buffer): boolean {
  if (head.length === 0) return true;
  for (const byte of head) {
    const printable = (byte >= 0x20 && byte < 0x7f) || byte === 0x09 || byte === 0x0a || byte === 0x0d || byte >= 0x80;
    if (!printable) return false;
  }
  return true;
}
