import { lstat, opendir } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

/**
 * Files that belong to a media file of the same name: edits and metadata
 * (Adobe's and darktable's `.xmp`, Apple Photos' `.aae`), subtitles (`.srt`,
 * `.vtt`), and a camera's thumbnail and low-resolution proxy (`.thm`,
 * `.lrv`).
 */
export const SIDECAR_EXTENSIONS = ['.xmp', '.aae', '.srt', '.vtt', '.thm', '.lrv'] as const;

/**
 * Each extension as it is written: `.xmp`, `.XMP` or `.Xmp`. The media
 * file's sidecars are found by these names, so a file is a sidecar only in
 * these spellings: one that is not found with its media file (`.xMp`) is a
 * file of its own, never one left waiting for a media file that cannot take it.
 */
const SPELLINGS = SIDECAR_EXTENSIONS.flatMap((ext) => [
  ext,
  ext.toUpperCase(),
  `.${ext[1]!.toUpperCase()}${ext.slice(2)}`,
]);

export function isSidecar(name: string): boolean {
  return SPELLINGS.includes(extname(name));
}

/** `IMG_1.JPG` → `IMG_1`; a name without an extension is its own stem. */
function stemOf(name: string): string {
  const ext = extname(name);
  return ext ? name.slice(0, -ext.length) : name;
}

/**
 * The sidecars of the media file at `absPath`, in its folder: `IMG_1.xmp`
 * (Lightroom's naming) or `IMG_1.JPG.xmp` (darktable's), in each spelling.
 * Probed by name (36 `lstat`s), not by reading the folder: a folder of
 * 10,000 photos would be read 10,000 times.
 */
export async function sidecarsOf(absPath: string): Promise<string[]> {
  const name = basename(absPath);
  if (isSidecar(name)) return [];
  const folder = dirname(absPath);
  const candidates = new Set<string>();
  for (const base of new Set([stemOf(name), name])) {
    for (const ext of SPELLINGS) candidates.add(join(folder, `${base}${ext}`));
  }
  const found: string[] = [];
  // a file system that ignores case finds one file under two spellings: once is enough
  const seen = new Set<string>();
  for (const candidate of candidates) {
    const stats = await lstat(candidate).catch(() => null);
    if (!stats?.isFile() || seen.has(`${stats.dev}:${stats.ino}`)) continue;
    seen.add(`${stats.dev}:${stats.ino}`);
    found.push(candidate);
  }
  return found;
}

/**
 * Whether the sidecar at `absPath` has its media file beside it: a file
 * that is no sidecar, named as the sidecar without its extension
 * (`IMG_1.JPG` for `IMG_1.JPG.xmp`) or of the same stem (`IMG_1.*` for
 * `IMG_1.xmp`). Reads the folder, up to the first such file: asked only of
 * sidecars, whose folder's after-upload action moves or deletes.
 */
export async function hasMediaFile(absPath: string): Promise<boolean> {
  const name = basename(absPath);
  const stem = stemOf(name);
  const dir = await opendir(dirname(absPath)).catch(() => null);
  if (!dir) return false;
  for await (const entry of dir) {
    const other = entry.name;
    if (other === name || isSidecar(other) || !(entry.isFile() || entry.isSymbolicLink())) continue;
    if (other === stem || stemOf(other) === stem) {
      // the rest of the folder is not read: the iterator closes the folder
      return true;
    }
  }
  return false;
}
