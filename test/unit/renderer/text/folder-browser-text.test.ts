import { describe, expect, it } from 'vitest';
import type { FolderListing } from '../../../../src-shared/ipc/ipc-contract.js';
import { folderListingText } from '../../../../src-renderer/text/folder-browser-text.js';

function listing(count: number, truncated = false): FolderListing {
  const entries = Array.from({ length: count }, (_, i) => ({
    name: `take ${i + 1}`,
    path: `/srv/media/take ${i + 1}`,
  }));
  return { path: '/srv/media', parent: '/srv', home: '/home/ana', entries, truncated };
}

describe('what the folder browser says about the folder shown', () => {
  it('names the folder and counts its subfolders in one sentence, one and many', () => {
    expect(folderListingText(listing(1), false)).toBe('“/srv/media” has 1 subfolder.');
    expect(folderListingText(listing(2), false)).toBe('“/srv/media” has 2 subfolders.');
    expect(folderListingText(listing(1_000), true)).toBe('“/srv/media” has 1,000 subfolders.');
  });

  it('says an empty folder may still hold hidden ones while they are not shown', () => {
    expect(folderListingText(listing(0), false)).toBe('“/srv/media” has no subfolders, apart from any hidden ones.');
    expect(folderListingText(listing(0), true)).toBe('“/srv/media” has no subfolders.');
  });

  it('says when not every subfolder is listed, and how to reach the others', () => {
    expect(folderListingText(listing(1_000, true), false)).toBe(
      '“/srv/media” has more than 1,000 subfolders, and the first 1,000 are listed. Type the path of another one under Go to.',
    );
  });
});
