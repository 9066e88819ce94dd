import picomatch from 'picomatch';

/**
 * Names that are never uploaded: partial downloads and editor or OS litter.
 * A file under one of these names is still being written (browsers and
 * download managers rename it when done) or is not the user's media at all.
 * Listed for the docs and the folder settings page; hidden names (a segment
 * starting with '.') are ignored as well, by a separate rule.
 */
export const DEFAULT_IGNORED_NAMES: readonly string[] = [
  '*.part',
  '*.crdownload',
  '*.tmp',
  '*.temp',
  '*.partial',
  '*.download',
  '*.!ut',
  '*.opdownload',
  '~$*',
  '*~',
  '.DS_Store',
  'Thumbs.db',
  'desktop.ini',
  '*.swp',
  '.~lock.*#',
];

// Case-insensitive because Windows and macOS file systems are: `THUMBS.DB`
// and `Clip.PART` are the same litter as their lower-case spellings.
const GLOB_OPTIONS = { dot: true, nocase: true } as const;

const isDefaultIgnoredName = picomatch([...DEFAULT_IGNORED_NAMES], GLOB_OPTIONS);

/**
 * Builds the predicate that says whether a path under a watched folder is
 * left alone. `relPath` is relative to the watched root with '/' separators.
 *
 * A path is ignored when any of its segments is hidden, is a default ignored
 * name, or matches a user glob without '/' (so `*.mov` or `raw` apply at any
 * depth); or when the path or one of its ancestor folders matches a user glob
 * with '/' (`drafts/**`, `2019/*.jpg`). Checking every segment and ancestor
 * keeps the answer the same whether a caller asks about a folder or about a
 * file inside it, which is what lets the watcher skip ignored folders whole.
 * User globs are case-insensitive, like the defaults.
 *
 * Throws when a user glob cannot be compiled, naming the glob.
 */
export function createIgnoreMatcher(userGlobs: string[]): (relPath: string) => boolean {
  const nameMatchers: ((name: string) => boolean)[] = [];
  const pathMatchers: ((path: string) => boolean)[] = [];
  for (const raw of userGlobs) {
    const glob = normalizeGlob(raw);
    if (glob === '') continue;
    let matcher: (value: string) => boolean;
    try {
      matcher = picomatch(glob, GLOB_OPTIONS);
    } catch (error) {
      throw new Error(`Invalid ignore pattern "${raw}": ${(error as Error).message}`, { cause: error });
    }
    (glob.includes('/') ? pathMatchers : nameMatchers).push(matcher);
  }

  return (relPath: string): boolean => {
    const segments = relPath.split('/').filter((segment) => segment !== '');
    let prefix = '';
    for (const segment of segments) {
      if (segment.startsWith('.') || isDefaultIgnoredName(segment)) return true;
      if (nameMatchers.some((matches) => matches(segment))) return true;
      prefix = prefix === '' ? segment : `${prefix}/${segment}`;
      if (pathMatchers.some((matches) => matches(prefix))) return true;
    }
    return false;
  };
}

/** Accepts what people type: Windows separators, a leading `./` or `/` meaning the folder root. */
function normalizeGlob(glob: string): string {
  return glob
    .trim()
    .replaceAll('\\', '/')
    .replace(/^(\.?\/)+/, '');
}
