import { stat } from 'node:fs/promises';
import type { FileWhy, FileWhyAction, FileWhyVerdict, UploadItemView } from '../../src-shared/ipc/ipc-contract.js';
import { message } from '../../src-shared/i18n/message.js';
import type { WatchedFolder } from '../../src-shared/model/folder-options.js';
import type { FolderStatus } from '../../src-shared/model/folder-status.js';
import { FINAL_UPLOAD_KINDS, type UploadItem } from '../../src-shared/model/upload-state.js';
import { CoreError } from '../common/core-error.js';
import type { DeclinedFiles } from './declined-files.js';
import { expandHome, pathRules, systemFolderPathContext, type FolderPathContext } from './folder-path.js';
import { createFolderRules } from './file-rules.js';
import { relPathOf } from './folder-walk.js';
import type { SyncIndex } from './sync-index.js';

/** What "why this file?" reads: the stores and services that know, nothing else of the core. */
export interface FileWhyDeps {
  folders: () => readonly WatchedFolder[];
  folderStatus: (id: number) => FolderStatus | undefined;
  /** the latest queue item of this path (any state, any spelling of its name) */
  latestItem: (path: string) => UploadItem | undefined;
  view: (item: UploadItem) => UploadItemView;
  index: Pick<SyncIndex, 'lookup'>;
  declines: Pick<DeclinedFiles, 'lookup'>;
  /** an uploaded file's name and link, asked of the service; null when it cannot be asked now */
  remoteFile: (accountId: string, fileId: string) => Promise<{ name: string; link: string } | null>;
  pathContext?: FolderPathContext;
}

/**
 * "Why this file?" for one local path (folders:why): the innermost watched
 * folder it is under and that folder's state, then the one verdict that holds
 * (FileWhyVerdictSchema: its queue item first, then a rule, then what the
 * folder declined or sent), and what the person can do about it. Reads only;
 * the service is asked at most for an uploaded file's name and link.
 */
export async function explainFile(input: string, deps: FileWhyDeps): Promise<FileWhy> {
  const path = absolutePath(input, deps.pathContext ?? systemFolderPathContext());
  const info = await stat(path).catch(() => null);
  const file = info?.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : null;
  const folder = folderOf(path, deps.folders());
  const status = folder && deps.folderStatus(folder.id);
  const verdict = await verdictOf(path, info === null ? 'missing' : file ? file : 'notAFile', folder, deps);
  return {
    path,
    file,
    folder:
      folder && status
        ? {
            id: folder.id,
            path: folder.path,
            accountId: folder.accountId,
            state: status.state,
            polling: status.polling ?? null,
          }
        : null,
    verdict,
    actions: actionsFor(verdict, folder),
  };
}

function absolutePath(input: string, context: FolderPathContext): string {
  const rules = pathRules(context.platform);
  const expanded = expandHome(input, context);
  if (!rules.isAbsolute(expanded)) throw CoreError.say('VALIDATION_ERROR', message('why.notAbsolute', { path: input }));
  return rules.resolve(expanded);
}

/** The innermost watched folder holding `path` (a folder inside another watched one is its own). */
function folderOf(path: string, folders: readonly WatchedFolder[]): WatchedFolder | null {
  let best: WatchedFolder | null = null;
  for (const folder of folders) {
    if (relPathOf(folder.path, path) === undefined) continue;
    if (!best || folder.path.length > best.path.length) best = folder;
  }
  return best;
}

async function verdictOf(
  path: string,
  file: { size: number; mtimeMs: number } | 'missing' | 'notAFile',
  folder: WatchedFolder | null,
  deps: FileWhyDeps,
): Promise<FileWhyVerdict> {
  if (file === 'missing' || file === 'notAFile') return { kind: file };
  const item = deps.latestItem(path);
  if (item && !FINAL_UPLOAD_KINDS.has(item.state.kind)) return { kind: 'inQueue', item: deps.view(item) };
  if (item?.state.kind === 'failed') return { kind: 'failed', item: deps.view(item) };
  if (item?.state.kind === 'cancelled') return { kind: 'declined', itemId: item.id };
  if (item?.state.kind === 'done') {
    const { fileId, finishedAt, existing } = item.state;
    const changed = deps.view(item).changedSinceUpload || differs(item, file);
    return uploaded(deps, item.accountId, fileId, { at: finishedAt, itemId: item.id, changed, existing: !!existing });
  }
  if (!folder) return { kind: 'outside' };
  const relPath = relPathOf(folder.path, path)!;
  const rule = createFolderRules(folder.options)({ relPath, ...file });
  if (rule) return { kind: 'leftAlone', rule };
  if (deps.declines.lookup(path)) return { kind: 'declined', itemId: null };
  const entry = deps.index.lookup(folder.id, relPath);
  if (entry?.origin === 'baseline') return { kind: 'known' };
  if (entry?.fileId) {
    const options = { at: null, itemId: null, changed: differs(entry, file), existing: false };
    return uploaded(deps, folder.accountId, entry.fileId, options);
  }
  return { kind: 'notSeenYet' };
}

function differs(sent: { size: number; mtimeMs: number }, now: { size: number; mtimeMs: number }): boolean {
  return sent.size !== now.size || sent.mtimeMs !== now.mtimeMs;
}

async function uploaded(
  deps: FileWhyDeps,
  accountId: string,
  fileId: string,
  { at, itemId, changed, existing }: { at: number | null; itemId: number | null; changed: boolean; existing: boolean },
): Promise<FileWhyVerdict> {
  const remote = await deps.remoteFile(accountId, fileId).catch(() => null);
  return {
    kind: 'uploaded',
    fileId,
    name: remote?.name ?? null,
    at,
    itemId,
    link: remote?.link ?? null,
    changedSince: changed,
    existing,
  };
}

/** Retry what failed or was declined; upload anyway what a rule, "only new files" or no folder leaves alone. */
function actionsFor(verdict: FileWhyVerdict, folder: WatchedFolder | null): FileWhyAction[] {
  const uploadAnyway: FileWhyAction = { kind: 'uploadAnyway', accountId: folder?.accountId ?? null };
  switch (verdict.kind) {
    case 'failed':
      return [{ kind: 'retry', itemId: verdict.item.id }];
    case 'declined':
      return [verdict.itemId === null ? uploadAnyway : { kind: 'retry', itemId: verdict.itemId }];
    case 'leftAlone':
      return verdict.rule.rule === 'glob' && folder
        ? [uploadAnyway, { kind: 'removeRule', folderId: folder.id, pattern: verdict.rule.pattern }]
        : [uploadAnyway];
    case 'outside':
    case 'known':
      return [uploadAnyway];
    default:
      return [];
  }
}
