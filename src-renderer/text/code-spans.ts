/**
 * A sentence from the core cut at its backticks (`media-sync serve`), so
 * the names of commands show in code style; with an odd number of
 * backticks the sentence stays as it is.
 */
export function codeSpans(text: string): Array<{ text: string; code: boolean }> {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return [{ text, code: false }];
  return parts.map((part, index) => ({ text: part, code: index % 2 === 1 })).filter((part) => part.text !== '');
}
