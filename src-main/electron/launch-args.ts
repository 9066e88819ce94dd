import { isAbsolute, resolve } from 'node:path';

/** The scheme the app registers with the OS: `media-sync://import?url=…`, `media-sync://files?search=…`. */
export const LINK_SCHEME = 'media-sync';

/** Passed by the login item (Windows, Linux): start in the tray, with no window. */
export const HIDDEN_FLAG = '--hidden';

export interface LaunchArgs {
  /** started at login: stay in the tray */
  hidden: boolean;
  /** `media-sync:` links, as given: the core parses them */
  links: string[];
  /** files (or folders) the app was asked to open: absolute paths, or `file://` addresses */
  files: string[];
}

/**
 * What a command line asks of the app: the first instance's `process.argv`,
 * or the argv a second instance hands over with `second-instance` (resolved
 * against that instance's working directory, not ours).
 *
 * - `argv[0]` is the executable; an app that is not packaged runs as
 *   `electron <app>` (a dev checkout), so `argv[1]` is the app's folder or
 *   script, not a file to open.
 * - Anything starting with `-` is a switch: ours (`--hidden`) or one that
 *   Chromium or Electron add (e.g. `--allow-file-access-from-files` in a
 *   second instance's argv); none of them is a file.
 * - A `media-sync:` argument is a link (Windows and Linux pass the clicked
 *   link as an argument; macOS sends `open-url` instead).
 */
export function parseLaunchArgs(argv: readonly string[], options: { cwd: string; appPathInArgv: boolean }): LaunchArgs {
  const args = argv.slice(options.appPathInArgv ? 2 : 1);
  const result: LaunchArgs = { hidden: false, links: [], files: [] };
  for (const arg of args) {
    if (arg === HIDDEN_FLAG) result.hidden = true;
    else if (arg.startsWith('-') || arg.trim() === '') continue;
    else if (arg.toLowerCase().startsWith(`${LINK_SCHEME}:`)) result.links.push(arg);
    // a Linux launcher passes `%U` as file:// addresses; the core reads those itself
    else if (/^file:\/\//i.test(arg) || isAbsolute(arg)) result.files.push(arg);
    else result.files.push(resolve(options.cwd, arg));
  }
  return result;
}
