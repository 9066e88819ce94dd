import { stat } from 'node:fs/promises';

/**
 * The spellings under which one name may be stored: as given, composed (NFC)
 * and decomposed (NFD). macOS has written names decomposed, other systems
 * compose them, and a name typed on one and read on another differs in bytes
 * only: "Café" is `Cafe\u0301` or `Caf\u00e9`. The stores keep paths as they are
 * on disk (Linux opens only the exact bytes) and look a path up under all
 * three, so a file is one file whichever way its name is spelled. A name mixing
 * both forms (one part composed, another decomposed) is matched as given only.
 */
export function spellingsOf(path: string): [string, string, string] {
  return [path, path.normalize('NFC'), path.normalize('NFD')];
}

/**
 * Whether two paths name one file on disk (same device and inode): two
 * spellings of a name do on a file system that ignores the difference
 * (macOS, Windows), and are two files on one that keeps both (Linux).
 */
export async function sameFileOnDisk(a: string, b: string): Promise<boolean> {
  const [one, other] = await Promise.all([stat(a).catch(() => null), stat(b).catch(() => null)]);
  return one !== null && other !== null && one.dev === other.dev && one.ino === other.ino;
}
