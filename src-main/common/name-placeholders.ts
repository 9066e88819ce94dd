import { nodeCrypto } from './lazy-builtins.js';

/**
 * Folders every computer has: a path's segment among these says nothing of
 * the person, and hiding it would garble every path and many words.
 */
const SHARED_SEGMENTS = new Set(
  ['home', 'users', 'tmp', 'var', 'mnt', 'media', 'volumes', 'root', 'private', 'run', 'srv', 'opt', 'data'].map(
    (segment) => segment.toLowerCase(),
  ),
);
/** A shorter name is left as it is: one or two letters would be hidden inside every other word. */
const MIN_NAME_CHARS = 3;
/** The extension a placeholder keeps: a dot and a few letters or digits (`.jpg`, `.mp4`, `.tar`). */
const EXTENSION = /\.[A-Za-z0-9]{1,8}$/;

/**
 * Stable stand-ins for file and folder names (a support file, docs/ui.md):
 * each name becomes `name-<6 hex>` with its extension kept
 * (`IMG_0042.JPG` → `name-3f9a1c.JPG`), the same name always the same
 * stand-in within one set, so a support reader can still follow one file
 * through the log. The hex is an HMAC under a random key made for this set
 * and never written: a stand-in cannot be turned back into its name by
 * trying a dictionary of likely names.
 */
export class NamePlaceholders {
  private readonly names = new Set<string>();
  private pattern: RegExp | null = null;

  constructor(private readonly key: Buffer = nodeCrypto().randomBytes(32)) {}

  /** Hide each segment of `path` (either separator), but the folders every computer has. */
  addPath(path: string): void {
    for (const segment of path.split(/[\\/]/)) this.addName(segment);
  }

  addName(name: string): void {
    if (name.length < MIN_NAME_CHARS || SHARED_SEGMENTS.has(name.toLowerCase()) || /^[A-Za-z]:$/.test(name)) return;
    this.names.add(name);
    this.pattern = null;
  }

  /** The stand-in of one name. */
  placeholder(name: string): string {
    const extension = EXTENSION.exec(name)?.[0] ?? '';
    const hash = nodeCrypto().createHmac('sha256', this.key).update(name).digest('hex').slice(0, 6);
    return `name-${hash}${extension}`;
  }

  /**
   * `text` with every name added replaced by its stand-in, wherever it
   * stands whole (not inside a longer word: `Camera` in `Cameras` stays),
   * the longest first so a name is never cut by a shorter one it contains.
   */
  hide(text: string): string {
    if (this.names.size === 0) return text;
    this.pattern ??= new RegExp(
      `(?<![\\p{L}\\p{N}_])(?:${[...this.names]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|')})(?![\\p{L}\\p{N}_])`,
      'gu',
    );
    return text.replace(this.pattern, (name) => this.placeholder(name));
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
