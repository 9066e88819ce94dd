import { useEffect, useState, type ReactNode } from 'react';
import { useAction } from '../bridge/bridge-context.js';
import { useLocale } from '../i18n/i18n.js';
import { useStores } from '../store/stores.js';
import { ErrorNote } from './error-note.js';
import './copy-link-buttons.css';

type LinkKind = 'page' | 'watch' | 'embed';

const KINDS: readonly LinkKind[] = ['page', 'watch', 'embed'];

const FEEDBACK_MS = 4_000;

/**
 * Copies one of a file's addresses (`FileActions.copyLink`). When the
 * browser refuses, the link is shown to copy by hand rather than lost.
 */
export function CopyLinkButtons({
  accountId,
  fileId,
  kinds = ['page', 'watch', 'embed'],
  nameForLabel,
  children,
}: {
  accountId: string;
  fileId: string;
  kinds?: LinkKind[];
  /** added for screen readers when several files have these buttons on one page */
  nameForLabel?: string;
  /** more actions for the same row, after the copy buttons */
  children?: ReactNode;
}) {
  const { files } = useStores();
  const action = useAction();
  const { t } = useLocale();
  const [feedback, setFeedback] = useState<{ text: string; url?: string } | null>(null);

  useEffect(() => {
    if (!feedback || feedback.url) return;
    const timer = setTimeout(() => setFeedback(null), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [feedback]);

  async function copy(kind: LinkKind) {
    setFeedback(null);
    const result = await action.run(() => files.copyLink({ accountId, fileId }, kind));
    if (result?.copied) setFeedback({ text: t(`copyLinks.${kind}.done`) });
    else if (result) setFeedback({ text: t('copyLinks.refused'), url: result.url });
  }

  return (
    <div className="copy-links">
      <div className="form__actions">
        {KINDS.filter((kind) => kinds.includes(kind)).map((kind) => (
          <button
            key={kind}
            type="button"
            className="button button--small"
            disabled={action.busy}
            aria-label={
              nameForLabel
                ? t('copyLinks.labelFor', { action: t(`copyLinks.${kind}.label`), name: nameForLabel })
                : undefined
            }
            onClick={() => void copy(kind)}
          >
            {t(`copyLinks.${kind}.label`)}
          </button>
        ))}
        {children}
      </div>
      <p className="copy-links__feedback" role="status">
        {feedback?.text ?? ''}
        {feedback?.url && (
          <input
            className="copy-links__url"
            readOnly
            aria-label={t('copyLinks.linkToCopy')}
            value={feedback.url}
            onFocus={(event) => event.target.select()}
          />
        )}
      </p>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}
