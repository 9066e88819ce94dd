/** Names this long or shorter are not split: an ellipsis would hide as much as it shows. */
const WHOLE_UP_TO = 12;
/** The end kept whole: the extension and the characters before it ("0042.JPG"), within these bounds. */
const TAIL_MIN = 8;
const TAIL_MAX = 16;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A file name cut in two for a middle ellipsis: the head, which the page
 * shortens with "…" when room runs out, and the tail it always shows, so
 * "IMG_2024_summer_0042.JPG" reads "IMG_2024…0042.JPG" in a narrow row.
 * The tail is the extension and four characters before it (8 to 16 in
 * all). Cut between graphemes, so an accent in a name written in NFD stays
 * on its letter.
 */
export function splitForEllipsis(name: string): { head: string; tail: string } {
  const parts = Array.from(graphemes.segment(name), (part) => part.segment);
  if (parts.length <= WHOLE_UP_TO) return { head: name, tail: '' };
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? Array.from(graphemes.segment(name.slice(dot))).length : 0;
  const tailLength = Math.min(TAIL_MAX, Math.max(TAIL_MIN, extension + 4), parts.length - 1);
  return { head: parts.slice(0, -tailLength).join(''), tail: parts.slice(-tailLength).join('') };
}
