import type { FolderListing } from '../../src-shared/ipc/ipc-contract.js';
import { currentLocale, t } from '../i18n/i18n.js';
import { formatCount } from './file-columns.js';

/**
 * What the folder browser says about the folder it shows, one whole sentence
 * each (read out by a live region after every move): which folder, how many
 * subfolders, and when they are not all listed, how to reach the rest. The
 * plural follows the UI's language (i18next, Intl.PluralRules).
 */
export function folderListingText(listing: FolderListing, showHidden: boolean, locale = currentLocale()): string {
  const { path, entries, truncated } = listing;
  const shown = formatCount(entries.length, locale);
  if (truncated) return t('folderBrowser.truncated', { path, shown });
  if (entries.length === 0) {
    return showHidden ? t('folderBrowser.noSubfolders', { path }) : t('folderBrowser.noVisibleSubfolders', { path });
  }
  return t('folderBrowser.subfolders', { path, shown, count: entries.length });
}
