import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Log } from '../common/file-log.js';
import { nodeCrypto } from '../common/lazy-builtins.js';

/** The file of `media-sync serve`'s session key in the data folder. */
export const SESSION_KEY_FILE = 'session-key';

/** What a key made here looks like (24 random bytes, base64url); a shorter or other text is no key. */
const KEY_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

/**
 * The session key of `media-sync serve`, kept in `<data dir>/session-key`
 * (0600), so the printed address, and the key a page opened with it keeps,
 * stay valid across restarts: an open tab reconnects by itself. A new random
 * key is made the first time, with `rotate` (`--new-key`: every page opened
 * before must open the new address), and in place of a file that is not a
 * key or that other users could read (it opens the app to whoever reads it);
 * the last two are said in the log. The key itself never reaches the log.
 */
export async function loadSessionKey(
  dataDir: string,
  options: {
    rotate?: boolean;
    log?: Log;
    /** the data folder was made private at this start, and the key file was readable by other users before */
    wasReadable?: boolean;
  } = {},
): Promise<string> {
  const path = join(dataDir, SESSION_KEY_FILE);
  if (!options.rotate) {
    const kept = await readKeptKey(path, options.wasReadable ?? false);
    if (kept && 'key' in kept) return kept.key;
    if (kept) options.log?.warn(`The session key in ${path} ${kept.problem}: made a new one.`);
  }
  const key = nodeCrypto().randomBytes(24).toString('base64url');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // written whole under another name first: a stop mid-write never leaves half a key
  const partial = `${path}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(partial, `${key}\n`, { mode: 0o600, flag: 'wx' });
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  if (options.rotate)
    options.log?.info('Made a new session key (--new-key): the address printed before no longer opens the app.');
  return key;
}

/** The kept key, or why it cannot be used; null when there is none. */
async function readKeptKey(path: string, wasReadable: boolean): Promise<{ key: string } | { problem: string } | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === 'ENOENT' ? null : { problem: `could not be read (${code})` };
  }
  // Windows keeps no such mode bits: a file there is guarded by the folder's ACL
  if (wasReadable || (process.platform !== 'win32' && ((await stat(path)).mode & 0o077) !== 0)) {
    return { problem: 'could be read by other users' };
  }
  const key = text.trim();
  return KEY_SHAPE.test(key) ? { key } : { problem: 'was not a key' };
}
