import picomatch from 'picomatch';
import type { LeftAlone } from '../../src-shared/model/left-alone.js';

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

/** compiled at the first path looked at, not when the core loads: a command that watches nothing never needs them */
let defaultNameMatchers: { pattern: string; matches: (name: string) => boolean }[] | undefined;
const defaultMatchers = () =>
  (defaultNameMatchers ??= DEFAULT_IGNORED_NAMES.map((pattern) => ({
    pattern,
    matches: picomatch(pattern, GLOB_OPTIONS),
  })));

/**
 * Builds the function that names the rule leaving a path under a watched
 * folder alone, or null when none does. `relPath` is relative to the watched
 * root with '/' separators.
 *
 * A path is left alone when any of its segments is hidden, is a default
 * ignored name, or matches a user glob without '/' (so `*.mov` or `raw` apply
 * at any depth); or when the path or one of its ancestor folders matches a
 * user glob with '/' (`drafts/**`, `2019/*.jpg`). Checking every segment and
 * ancestor keeps the answer the same whether a caller asks about a folder or
 * about a file inside it, which is what lets the watcher skip ignored folders
 * whole. User globs are case-insensitive, like the defaults.
 *
 * Throws when a user glob cannot be compiled, naming the glob.
 */
export function createIgnoreRules(userGlobs: string[]): (relPath: string) => LeftAlone | null {
  const nameMatchers: GlobMatcher[] = [];
  const pathMatchers: GlobMatcher[] = [];
  for (const raw of userGlobs) {
    const glob = normalizeGlob(raw);
    if (glob === '') continue;
    let matches: (value: string) => boolean;
    try {
      matches = picomatch(glob, GLOB_OPTIONS);
    } catch (error) {
      throw new Error(`Invalid ignore pattern "${raw}": ${(error as Error).message}`, { cause: error });
    }
    (glob.includes('/') ? pathMatchers : nameMatchers).push({ pattern: raw, matches });
  }
  const matching = (matchers: GlobMatcher[], value: string) => matchers.find(({ matches }) => matches(value));

  return (relPath: string): LeftAlone | null => {
    const segments = relPath.split('/').filter((segment) => segment !== '');
    let prefix = '';
    for (const segment of segments) {
      if (segment.startsWith('.')) return { rule: 'hidden', segment };
      const litter = matching(defaultMatchers(), segment);
      if (litter) return { rule: 'litter', pattern: litter.pattern };
      prefix = prefix === '' ? segment : `${prefix}/${segment}`;
      const glob = matching(nameMatchers, segment) ?? matching(pathMatchers, prefix);
      if (glob) return { rule: 'glob', pattern: glob.pattern };
    }
    return null;
  };
}

/** Whether a rule of createIgnoreRules leaves the path alone. */
export function createIgnoreMatcher(userGlobs: string[]): (relPath: string) => boolean {
  const leftAloneBy = createIgnoreRules(userGlobs);
  return (relPath) => leftAloneBy(relPath) !== null;
}

interface GlobMatcher {
  /** as the person (or DEFAULT_IGNORED_NAMES) wrote it */
  pattern: string;
  matches: (value: string) => boolean;
}

/** Accepts what people type: Windows separators, a leading `./` or `/` meaning the folder root. */
function normalizeGlob(glob: string): string {
  return glob
    .trim()
    .replaceAll('\\', '/')
    .replace(/^(\.?\/)+/, '');
}
