import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The umask of a process whose data only its user may read, set once at its
 * start: every file it makes from then on is 0600 and every folder 0700,
 * whatever mode the call that makes it asks for, and the same for its child
 * processes (ffmpeg's HLS output). No effect on Windows.
 */
export const PRIVATE_UMASK = 0o077;

/** What a walk changed. */
export interface MadePrivate {
  /** each entry whose mode changed, its path relative to the folder walked (`.`: the folder itself) */
  changed: Array<{ path: string; from: number; to: number }>;
  /** entries it could not change (not this user's, say), with the error's code */
  failed: string[];
  /** false when it stopped at its limit: what is deeper keeps its mode, behind a 0700 folder */
  complete: boolean;
}

/** How many entries one start looks at: a data folder with more is guarded by its own 0700 mode. */
const WALK_LIMIT = 10_000;

/**
 * Makes `root` a folder only its user can read, as it is (what is made
 * later is private through PRIVATE_UMASK): `root` is made (0700) when it
 * is missing, and it and everything under it loses what the group and
 * others may do (0755 becomes 0700, 0644 becomes 0600). `mkdir` with a mode
 * applies only to a folder it makes, so a folder made by an older version,
 * a dotfiles tool or the person by hand would otherwise keep 0755 and its
 * files 0644 forever. Links are not followed (what they point to is not the
 * folder's); sockets and other special files are left as they are. At most
 * WALK_LIMIT entries are looked at, breadth first, so the top of the folder
 * is always done. Windows keeps no such mode bits (a folder in the user's
 * profile is guarded by its ACL): there only the folder is made.
 */
export function makeFolderPrivate(root: string, platform: NodeJS.Platform = process.platform): MadePrivate {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const result: MadePrivate = { changed: [], failed: [], complete: true };
  if (platform === 'win32') return result;
  // breadth first, by index: at most WALK_LIMIT paths are ever held
  const paths = [root];
  for (let next = 0; next < paths.length; next++) {
    const path = paths[next]!;
    const name = relative(root, path) || '.';
    try {
      const stat = lstatSync(path);
      if (!stat.isDirectory() && !stat.isFile()) continue;
      const mode = stat.mode & 0o777;
      // only what the group and others may do is taken away: a file its owner made read-only stays so
      if ((mode & 0o077) !== 0) {
        chmodSync(path, mode & 0o700);
        result.changed.push({ path: name, from: mode, to: mode & 0o700 });
      }
      if (!stat.isDirectory()) continue;
      for (const entry of readdirSync(path)) {
        if (paths.length === WALK_LIMIT) {
          result.complete = false;
          break;
        }
        paths.push(join(path, entry));
      }
    } catch (error) {
      result.failed.push(`${name} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return result;
}

/** One line for a log: what was made private, a few paths by name and a count of the rest. */
export function describeMadePrivate(root: string, made: MadePrivate): string | null {
  if (made.changed.length === 0 && made.failed.length === 0) return null;
  const list = (items: string[]) =>
    items.length > 20 ? `${items.slice(0, 20).join(', ')} and ${items.length - 20} more` : items.join(', ');
  const parts: string[] = [];
  const changed = made.changed.map(({ path, from, to }) => `${path} ${octal(from)}→${octal(to)}`);
  if (changed.length > 0) parts.push(`Made ${root} private (other users could read it): ${list(changed)}.`);
  if (made.failed.length > 0) parts.push(`Could not change: ${list(made.failed)}.`);
  if (!made.complete) parts.push(`Stopped after ${WALK_LIMIT} entries: the rest is behind the private folder.`);
  return parts.join(' ');
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}
