import { message, type Translate } from '../i18n/message.js';
import { formatBytes, listFormat } from './format.js';
import { LEFT_ALONE_RULES, PREVIEW_LIMITS, type FolderPreview } from './folder-preview.js';

/**
 * A folder preview in sentences, each whole in the catalog (folderPreview):
 * "1,204 files (38.2 GB) will be uploaded; 3,118 are left alone (2,950 by
 * type, 168 hidden).", then what "only what arrives from now on" leaves, what
 * was sent before, and where counting stopped. The Folders view and
 * `media-sync watch --dry-run` say the same.
 */
export function previewSentences(preview: FolderPreview, translate: Translate, locale: string): string[] {
  const size = (bytes: number) => formatBytes(bytes, locale);
  const { upload, existing, known, leftAlone, stopped } = preview;
  const uploads = translate(
    upload.files === 0
      ? message('folderPreview.uploadNone')
      : message('folderPreview.upload', { count: upload.files, size: size(upload.bytes) }),
  );
  const rules = LEFT_ALONE_RULES.flatMap((rule) => {
    const count = leftAlone.byRule[rule];
    return count ? [translate(message(`folderPreview.by.${rule}`, { count }))] : [];
  });
  const sentences = [
    leftAlone.files === 0
      ? translate(message('folderPreview.uploadOnly', { upload: uploads }))
      : translate(
          message('folderPreview.both', {
            upload: uploads,
            leftAlone: translate(
              message('folderPreview.leftAlone', {
                count: leftAlone.files,
                rules: listFormat(locale, { type: 'unit', style: 'short' }).format(rules),
              }),
            ),
          }),
        ),
  ];
  if (upload.files < existing.files) {
    sentences.push(translate(message('folderPreview.onlyNew', { count: existing.files, size: size(existing.bytes) })));
  }
  if (known > 0) sentences.push(translate(message('folderPreview.known', { count: known })));
  if (stopped === 'files')
    sentences.push(translate(message('folderPreview.stoppedFiles', { count: PREVIEW_LIMITS.files })));
  if (stopped === 'time') {
    sentences.push(translate(message('folderPreview.stoppedTime', { count: PREVIEW_LIMITS.ms / 1000 })));
  }
  return sentences;
}
