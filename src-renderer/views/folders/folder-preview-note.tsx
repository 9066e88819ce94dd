import { useEffect, useId, useState } from 'react';
import type { IpcError } from '../../../src-shared/ipc/ipc-contract.js';
import type { FolderOptions } from '../../../src-shared/model/folder-options.js';
import type { FolderPreview } from '../../../src-shared/model/folder-preview.js';
import { previewSentences } from '../../../src-shared/model/folder-preview-text.js';
import { useLocale } from '../../i18n/i18n.js';
import { errorText, translate } from '../../i18n/translate.js';
import { useStores } from '../../store/stores.js';

/** Typing in the form asks again only once the person pauses. */
const ASK_AFTER_MS = 400;

/**
 * What the folder's rules would upload and leave alone (folders:preview),
 * counted again as the form changes, before anything is queued: the person
 * reads it, then adds or saves. `options` null: the form is not valid yet.
 */
export function FolderPreviewNote(props: { path: string; id: number | null; options: FolderOptions | null }) {
  const { folders } = useStores();
  const { t, locale } = useLocale();
  const titleId = useId();
  const [answer, setAnswer] = useState<{ preview: FolderPreview } | { error: IpcError } | null>(null);
  const request =
    props.options && props.path.trim() !== ''
      ? { path: props.path.trim(), id: props.id, options: props.options }
      : null;
  const key = JSON.stringify(request);

  useEffect(() => {
    setAnswer(null);
    if (!request) return;
    let current = true;
    const timer = setTimeout(() => {
      folders.preview(request).then(
        (preview) => current && setAnswer({ preview }),
        (error: IpcError) => current && setAnswer({ error }),
      );
    }, ASK_AFTER_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // the request is compared by its JSON: a new object of the same content asks nothing
  }, [key]);

  if (!request) return null;
  return (
    <section className="folder-preview" aria-labelledby={titleId} aria-live="polite">
      <h3 id={titleId} className="folder-preview__title">
        {t('folderRules.previewTitle')}
      </h3>
      {answer === null ? (
        <p className="muted">{t('folderRules.counting')}</p>
      ) : 'error' in answer ? (
        <p>{t('folderRules.countFailed', { reason: errorText(answer.error) })}</p>
      ) : (
        previewSentences(answer.preview, translate, locale).map((sentence) => <p key={sentence}>{sentence}</p>)
      )}
    </section>
  );
}
