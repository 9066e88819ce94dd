import type { FileTypeGroup, FolderOptions } from '../../src-shared/model/folder-options.js';
import type { LeftAlone } from '../../src-shared/model/left-alone.js';
import { PathRules, pathRuleOptions } from './folder-walk.js';

/**
 * The extensions of each group of file types, lower case. By extension, not
 * by the file's first bytes: the rule runs on every file a folder holds (a
 * preview walks 100,000 of them), where opening each would cost a read per
 * file, fail on files still locked by the camera or recorder, and answer
 * differently from what the person sees in their file manager, which names
 * a file's type by its extension too.
 */
export const FILE_TYPE_EXTENSIONS: Readonly<Record<FileTypeGroup, readonly string[]>> = {
  videos: '3g2 3gp avi flv insv lrv m2t m2ts m4v mkv mov mp4 mpeg mpg mts mxf ogv ts vob webm wmv'.split(' '),
  pictures: 'arw avif bmp cr2 cr3 dng gif heic heif jpeg jpg jxl nef orf png raf rw2 svg tif tiff webp'.split(' '),
  audio: 'aac aif aiff alac flac m4a mp3 oga ogg opus wav wma'.split(' '),
};

/** What a file rule looks at: known from one stat, no read. */
export interface RuleFile {
  relPath: string;
  size: number;
  mtimeMs: number;
}

/** The folder's options a file rule reads. */
export type FileRuleOptions = Pick<FolderOptions, 'fileTypes' | 'minSize' | 'maxSize' | 'modifiedAfter'>;

/**
 * The folder's file rules (type, size, modified after) as one check: the
 * first rule that leaves the file alone, in that order, or null when the
 * folder takes it. The name rules (hidden, litter, globs) are PathRules';
 * these need the file's stat, so they run once a file is found.
 */
export function createFileRules(options: FileRuleOptions): (file: RuleFile) => LeftAlone | null {
  const { fileTypes, minSize, maxSize, modifiedAfter } = options;
  const types = fileTypes && {
    allowed: [...fileTypes.groups, ...fileTypes.extensions],
    extensions: new Set([...fileTypes.groups.flatMap((group) => FILE_TYPE_EXTENSIONS[group]), ...fileTypes.extensions]),
  };
  return (file) => {
    if (types && !types.extensions.has(extensionOf(file.relPath))) return { rule: 'type', allowed: types.allowed };
    if ((minSize !== null && file.size < minSize) || (maxSize !== null && file.size > maxSize)) {
      return { rule: 'size', min: minSize, max: maxSize };
    }
    if (modifiedAfter !== null && file.mtimeMs <= modifiedAfter) return { rule: 'modified', after: modifiedAfter };
    return null;
  };
}

/**
 * Every rule of a folder for one file it holds: its name rules (PathRules)
 * first, then its file rules; the first that leaves the file alone, or null.
 * For a file known by path and stat at once ("why this file?", the queue
 * when the rules change); the watcher and the preview apply the name rules
 * as they walk.
 */
export function createFolderRules(options: FolderOptions): (file: RuleFile) => LeftAlone | null {
  const names = new PathRules(pathRuleOptions(options));
  const files = createFileRules(options);
  return (file) => names.fileLeftAloneBy(file.relPath) ?? files(file);
}

/** The extension of the last segment, lower case, without the dot ('' for none, or for a name like `.profile`). */
function extensionOf(relPath: string): string {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}
