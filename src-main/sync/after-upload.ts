import { lstat, mkdir, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { WatchedFolder } from '../../src-shared/model/folder-options.js';
import type { UploadItem } from '../../src-shared/model/upload-state.js';
import { quickFingerprint, sameVersion } from '../common/file-fingerprint.js';
import type { TrashPort } from '../core/ports.js';
import { PathRules, pathRuleOptions } from './folder-walk.js';
import { hasMediaFile, isSidecar, sidecarsOf } from './sidecars.js';
import type { SyncIndex } from './sync-index.js';

/** What the folder's action did with an uploaded file. */
export type AfterUploadOutcome =
  /** moved or put in the Trash, with the sidecars that go with it */
  | { kind: 'done' }
  /** the file is no longer the version uploaded: left in place, for its new content to be queued */
  | { kind: 'changed' }
  /** a sidecar whose media file is still beside it: it goes with that file */
  | { kind: 'waits' }
  /** gone already */
  | { kind: 'gone' };

export interface AfterUploadDeps {
  index: SyncIndex;
  trash: TrashPort;
}

/**
 * "Move to a subfolder" and "Delete after upload" (to the Trash) for one
 * uploaded file of a watched folder (docs/uploads.md, Delete after upload):
 *
 * - a last look first: the file must still be the version that was uploaded
 *   (size, mtime, quick fingerprint), else it stays, and its new content is
 *   for the watcher to queue;
 * - its sidecars (`sidecars.ts`) go with it, each one that the folder
 *   uploaded as it is now, or that the folder's rules leave out; one still
 *   waiting for its upload, failed or cancelled stays, and goes by itself
 *   once uploaded (its media file gone by then);
 * - a sidecar's own upload moves nothing while its media file is beside it.
 *
 * Throws what moving or trashing the file itself threw (a NoTrashError, a
 * full disk); a sidecar that cannot follow is reported in `onSidecarError`.
 */
export async function runAfterUpload(
  folder: WatchedFolder,
  item: UploadItem,
  relPath: string,
  deps: AfterUploadDeps,
  onSidecarError: (path: string, error: unknown) => void,
): Promise<AfterUploadOutcome> {
  const action = folder.options.afterUpload;
  if (action.kind === 'keep') return { kind: 'done' };
  const now = await quickFingerprint(item.path).catch(() => null);
  if (!now) return { kind: 'gone' };
  if (!sameVersion(now, item)) return { kind: 'changed' };
  if (isSidecar(item.path) && (await hasMediaFile(item.path))) return { kind: 'waits' };
  // the sidecars are chosen before the file goes: one named after it (IMG_1.JPG.xmp) is looked for by its name
  const sidecars = await followers(folder, item.path, relPath, deps.index);
  const act = async (path: string, rel: string) => {
    if (action.kind === 'delete') return deps.trash.trash(path);
    const target = join(folder.path, action.subfolder, rel);
    await mkdir(dirname(target), { recursive: true });
    await rename(path, target);
  };
  await act(item.path, relPath);
  for (const sidecar of sidecars) {
    await act(sidecar.absPath, sidecar.relPath).catch((error: unknown) => onSidecarError(sidecar.absPath, error));
  }
  return { kind: 'done' };
}

/**
 * The sidecars that go with the file: each one the folder uploaded as it is
 * now (in the index, same size and mtime), or that it never uploads (left
 * out by its rules).
 */
async function followers(
  folder: WatchedFolder,
  absPath: string,
  relPath: string,
  index: SyncIndex,
): Promise<Array<{ absPath: string; relPath: string }>> {
  const found = await sidecarsOf(absPath);
  if (found.length === 0) return [];
  const rules = new PathRules(pathRuleOptions(folder.options));
  const relFolder = relPath.includes('/') ? relPath.slice(0, relPath.lastIndexOf('/') + 1) : '';
  const going: Array<{ absPath: string; relPath: string }> = [];
  for (const sidecar of found) {
    const rel = `${relFolder}${basename(sidecar)}`;
    const known = index.lookup(folder.id, rel);
    const stats = await lstat(sidecar).catch(() => null);
    if (!stats) continue;
    const uploaded = known?.origin === 'uploaded' && known.size === stats.size && known.mtimeMs === stats.mtimeMs;
    if (uploaded || rules.isIgnoredFile(rel)) going.push({ absPath: sidecar, relPath: rel });
  }
  return going;
}
