import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { FOLDER_BROWSE_LIMIT, type FolderListing } from '../../src-shared/ipc/ipc-contract.js';
import {
  checkFolderPath,
  notReadable,
  pathRules,
  systemFolderPathContext,
  type FolderPathContext,
} from '../sync/folder-path.js';

/** How many symlinks are followed at once to see whether they lead to a folder. */
const LINK_CHECKS_AT_ONCE = 32;

/**
 * The subfolders of a folder, for the page's folder browser (folders:browse):
 * the folder is checked like a typed path (checkFolderPath: `~` expanded,
 * absolute, a readable folder) and starts at the home folder when none is
 * given. Listed: folders, and symlinks that lead to one (as a file manager
 * shows them); not files, and not hidden folders (a name starting with a dot)
 * unless asked. At most `limit`, the first in sorted order, and `truncated`
 * says when there were more. Windows: a drive root has no parent, and no
 * list of drives is offered: a person types `D:\` to go to another drive.
 */
export async function listSubfolders(
  request: { path?: string | undefined; showHidden: boolean },
  options: { limit?: number; context?: FolderPathContext } = {},
): Promise<FolderListing> {
  const context = options.context ?? systemFolderPathContext();
  const limit = options.limit ?? FOLDER_BROWSE_LIMIT;
  const rules = pathRules(context.platform);
  const folder = await checkFolderPath(request.path ?? '~', context);
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => {
    // it passed the check a moment ago: its permissions changed, or it went away since
    throw notReadable(folder);
  });
  const visible = entries.filter((entry) => request.showHidden || !entry.name.startsWith('.'));
  const names: string[] = [];
  const links: Dirent[] = [];
  for (const entry of visible) {
    if (entry.isDirectory()) names.push(entry.name);
    else if (entry.isSymbolicLink()) links.push(entry);
  }
  for (let start = 0; start < links.length; start += LINK_CHECKS_AT_ONCE) {
    const batch = links.slice(start, start + LINK_CHECKS_AT_ONCE);
    const leadsToFolder = await Promise.all(
      batch.map((link) =>
        stat(rules.join(folder, link.name)).then(
          (info) => info.isDirectory(),
          // a broken link, or one into a folder this user may not see: nothing to open
          () => false,
        ),
      ),
    );
    batch.forEach((link, index) => leadsToFolder[index] && names.push(link.name));
  }
  // numbers by value and case aside, as file managers sort ("Clip 2" before "clip 10"); built here, not at
  // load: the first Intl object of a process costs more than a short command's own work
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  // the collator ties names that differ only in case; the code points break the tie, so the order is stable
  names.sort((a, b) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0));
  const parent = rules.dirname(folder);
  return {
    path: folder,
    parent: parent === folder ? null : parent,
    home: context.home,
    entries: names.slice(0, limit).map((name) => ({ name, path: rules.join(folder, name) })),
    truncated: names.length > limit,
  };
}
