import type { IpcError } from '../../src-shared/ipc/ipc-contract.js';
import { useLocale } from '../i18n/i18n.js';
import { explainError } from '../text/explain-error.js';

/** An error as the UI shows it everywhere: the message, the next step, and the request id for support. */
export function ErrorNote({ error, onDismiss }: { error: IpcError | null; onDismiss?: () => void }) {
  const { t } = useLocale();
  if (!error) return null;
  const { message, hint } = explainError(error);
  return (
    <div className="error-note" role="alert">
      <p className="error-note__message">{message}</p>
      {hint && <p className="error-note__hint">{hint}</p>}
      {error.requestId && (
        <p className="error-note__request">
          {t('errors.requestId')} <code>{error.requestId}</code>
        </p>
      )}
      {onDismiss && (
        <button type="button" className="button button--quiet" onClick={onDismiss}>
          {t('common.dismiss')}
        </button>
      )}
    </div>
  );
}
