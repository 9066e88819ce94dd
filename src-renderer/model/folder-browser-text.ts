import type { FolderListing } from '../../src-shared/ipc/ipc-contract.js';

// the messages are English for now: numbers and plurals follow them, until the message catalog brings a locale
const LOCALE = 'en';
const count = new Intl.NumberFormat(LOCALE);
const plural = new Intl.PluralRules(LOCALE);

/**
 * What the folder browser says about the folder it shows, one whole sentence
 * each (read out by a live region after every move): which folder, how many
 * subfolders, and when they are not all listed, how to reach the rest.
 */
export function folderListingText(listing: FolderListing, showHidden: boolean): string {
  const { path, entries, truncated } = listing;
  if (truncated) {
    const shown = count.format(entries.length);
    return `“${path}” has more than ${shown} subfolders, and the first ${shown} are listed. Type the path of another one under Go to.`;
  }
  if (entries.length === 0) {
    return showHidden ? `“${path}” has no subfolders.` : `“${path}” has no subfolders, apart from any hidden ones.`;
  }
  return plural.select(entries.length) === 'one'
    ? `“${path}” has 1 subfolder.`
    : `“${path}” has ${count.format(entries.length)} subfolders.`;
}
