import type { ConversionFollow } from './conversion-follow.js';

/**
 * Whether a follow says more on an upload's queue row than its own "Done": a
 * conversion seen, or an end other than "not a video". Until then the row,
 * and the events that would redraw it, stay as they were.
 */
export function followChangesRow(follow: ConversionFollow | null): follow is ConversionFollow {
  if (follow === null) return false;
  if (follow.state.kind === 'following') return follow.state.conversion !== null;
  return follow.state.kind !== 'uploaded';
}
