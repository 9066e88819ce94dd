import { stat } from 'node:fs/promises';
import type { FolderOptions } from '../../src-shared/model/folder-options.js';
import type { FolderPreview } from '../../src-shared/model/folder-preview.js';
import type { LeftAlone } from '../../src-shared/model/left-alone.js';
import { eachAtOnce } from '../common/each-at-once.js';
import { createFileRules } from './file-rules.js';
import {
  absPathOf,
  LIST_STAT_CONCURRENCY,
  listFolder,
  PathRules,
  pathRuleOptions,
  type WalkBounds,
} from './folder-walk.js';

export interface PreviewInput {
  root: string;
  options: FolderOptions;
  /** a folder about to be added: its `uploadExisting` choice applies to what is in it now */
  adding: boolean;
  /** whether the folder sent this file (or the person declined it) at this path with this size */
  isKnown: (relPath: string, size: number) => boolean;
  bounds: WalkBounds;
}

/**
 * What a folder's rules do to what is in it now (FolderPreview), by the
 * same rules the watcher and the intake apply: its name rules (PathRules)
 * on the walk, its file rules (file-rules.ts) on each file's stat, and the
 * sync index for what it sent. Files seen, left alone or not, count towards
 * the bound; when time runs out while the files are looked at, those not
 * looked at yet are not counted. An unreadable root rejects.
 */
export async function previewFolder(input: PreviewInput): Promise<FolderPreview> {
  const { root, options, bounds } = input;
  const rules = new PathRules(pathRuleOptions(options));
  const fileRules = createFileRules(options);
  const until = bounds.now() + bounds.ms;
  const abort = new AbortController();
  let stopped: FolderPreview['stopped'] = null;
  const stop = (why: 'files' | 'time') => {
    stopped ??= why;
    abort.abort();
  };
  let seen = 0;
  const see = () => {
    seen++;
    if (seen >= bounds.files) stop('files');
    else if (bounds.now() > until) stop('time');
  };
  const leftAlone: FolderPreview['leftAlone'] = { files: 0, byRule: {} };
  const leave = ({ rule }: LeftAlone) => {
    leftAlone.files++;
    leftAlone.byRule[rule] = (leftAlone.byRule[rule] ?? 0) + 1;
  };

  const named: string[] = [];
  const folders: string[] = [''];
  while (folders.length > 0 && !abort.signal.aborted) {
    const relFolder = folders.pop()!;
    await listFolder(root, relFolder, rules, {
      onFile: (relPath) => {
        named.push(relPath);
        see();
      },
      onFileLeftAlone: (_relPath, rule) => {
        leave(rule);
        see();
      },
      onSubfolder: (relPath) => folders.push(relPath),
      onError: (error) => {
        if (relFolder === '') throw error;
      },
      signal: abort.signal,
    });
  }

  const existing = { files: 0, bytes: 0 };
  let known = 0;
  await eachAtOnce(named, LIST_STAT_CONCURRENCY, async (relPath) => {
    if (bounds.now() > until) stop('time');
    if (stopped === 'time') return;
    const stats = await stat(absPathOf(root, relPath)).catch(() => undefined);
    // gone since it was listed, or not a file any more
    if (!stats?.isFile()) return;
    const rule = fileRules({ relPath, size: stats.size, mtimeMs: stats.mtimeMs });
    if (rule) leave(rule);
    else if (input.isKnown(relPath, stats.size)) known++;
    else {
      existing.files++;
      existing.bytes += stats.size;
    }
  });
  const upload = input.adding && !options.uploadExisting ? { files: 0, bytes: 0 } : existing;
  return { upload, existing, known, leftAlone, stopped };
}
