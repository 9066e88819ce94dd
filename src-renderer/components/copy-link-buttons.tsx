import { useEffect, useState, type ReactNode } from 'react';
import { useAction, useBridge } from '../bridge/bridge-context.js';
import { writeClipboard } from '../bridge/clipboard.js';
import { ErrorNote } from './error-note.js';
import './copy-link-buttons.css';

type LinkKind = 'page' | 'watch' | 'embed';

const KINDS: ReadonlyArray<{ kind: LinkKind; label: string; done: string }> = [
  { kind: 'page', label: 'Copy page link', done: 'Page link copied.' },
  { kind: 'watch', label: 'Copy watch link', done: 'Watch link copied.' },
  { kind: 'embed', label: 'Copy embed link', done: 'Embed link copied.' },
];

const FEEDBACK_MS = 4_000;

/**
 * Copies one of a file's addresses. The core copies it in Electron; in a
 * browser its clipboard is a no-op, so the page writes it too. When the
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
  const bridge = useBridge();
  const action = useAction();
  const [feedback, setFeedback] = useState<{ text: string; url?: string } | null>(null);

  useEffect(() => {
    if (!feedback || feedback.url) return;
    const timer = setTimeout(() => setFeedback(null), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [feedback]);

  async function copy(kind: LinkKind, done: string) {
    setFeedback(null);
    const result = await action.run('files:copyLink', { accountId, fileId, kind });
    if (!result) return;
    // in Electron the core has put it on the clipboard already
    if ((await writeClipboard(result.url)) || bridge.shell === 'electron') setFeedback({ text: done });
    else setFeedback({ text: 'The browser did not allow copying. Here is the link:', url: result.url });
  }

  return (
    <div className="copy-links">
      <div className="form__actions">
        {KINDS.filter((entry) => kinds.includes(entry.kind)).map((entry) => (
          <button
            key={entry.kind}
            type="button"
            className="button button--small"
            disabled={action.busy}
            onClick={() => void copy(entry.kind, entry.done)}
          >
            {entry.label}
            {nameForLabel && <span className="visually-hidden"> of {nameForLabel}</span>}
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
            aria-label="Link to copy"
            value={feedback.url}
            onFocus={(event) => event.target.select()}
          />
        )}
      </p>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}
