import { useCallback, useEffect, useState } from 'react';
import type { Notification as AppNotification } from '../../src-shared/ipc/ipc-contract.js';
import { useBridge } from '../bridge/bridge-context.js';
import { useStores } from '../store/stores.js';
import type { ToastContent } from '../text/intent-toasts.js';
import { useLocale } from '../i18n/i18n.js';
import { notificationText } from '../text/notification-text.js';

const TOAST_MS = 6_000;
const FAILURE_KINDS = new Set(['uploadFailed', 'importFailed', 'accountProblem', 'dataDiskFull', 'folderProblem']);
/** older toasts make way past this many: one row of them at the window's foot */
const MAX_SHOWN = 3;

export interface Toast {
  /** unique among all toasts: `notification-<id>`, `intent-<id>` */
  key: string;
  /**
   * What it says, written each time it is drawn: a toast made before the
   * language changed speaks the new one (it keeps what it is about, not its words)
   */
  content(): ToastContent;
  /** the file page it is about */
  link: string | null;
  requestId: string | null;
  /** how many times these words came: repeats are one toast, "×3" */
  count?: number;
}

export interface Toasts {
  shown: Toast[];
  show(toast: Toast): void;
  dismiss(key: string): void;
}

/**
 * The toasts on screen, from any source (core notifications, links and
 * opened files): `problem` toasts stay until dismissed, the rest leave by
 * themselves (`ToastItem`). Held by the App so toasts outlive a change of page.
 */
export function useToasts(): Toasts {
  const [shown, setShown] = useState<Toast[]>([]);
  const show = useCallback((toast: Toast) => setShown((previous) => addToast(previous, toast)), []);
  const dismiss = useCallback((key: string) => setShown((previous) => previous.filter((item) => item.key !== key)), []);
  return { shown, show, dismiss };
}

/**
 * `toast` added to those shown, as the newest: the same words again count on
 * the toast that said them ("×3") rather than stacking up, and are read out
 * again (a new key: a new node in the live region).
 */
export function addToast(shown: readonly Toast[], toast: Toast): Toast[] {
  const words = (item: Toast) => JSON.stringify(item.content());
  const repeat = shown.find((item) => item.key !== toast.key && words(item) === words(toast));
  const rest = shown.filter((item) => item !== repeat && item.key !== toast.key);
  return [...rest, { ...toast, count: repeat ? (repeat.count ?? 1) + 1 : 1 }].slice(-MAX_SHOWN);
}

/**
 * The toasts, read out politely by screen readers, with new notifications
 * added as they come, in a region at the window's foot that the view is laid
 * out above (styles.css), so they never cover its controls. In a browser
 * notifications also go to Web Notifications when the person allowed them
 * and the page is in the background (Electron shows OS ones itself).
 */
export function Toaster({ toasts }: { toasts: Toasts }) {
  const { capabilities } = useBridge();
  const { notifications } = useStores();
  const { t } = useLocale();
  const { show } = toasts;

  useEffect(
    () =>
      notifications.onDidAdd((notification) => {
        // snoozed, or the folder's "Notify me" leaves it to the Activity panel
        if (notification.quiet) return;
        show(fromNotification(notification));
        if (!capabilities.canNotify) showWebNotification(notification);
      }),
    [notifications, capabilities, show],
  );

  return (
    <section className="toaster" aria-live="polite" aria-label={t('toasts.label')}>
      {/* the newest first: on top when a narrow window stacks them (styles.css) */}
      {toasts.shown.toReversed().map((toast) => (
        <ToastItem key={toast.key} toast={toast} onDismiss={toasts.dismiss} />
      ))}
    </section>
  );
}

/**
 * One toast, in the language of the moment. One that is not a problem
 * leaves after `TOAST_MS` on screen, counted from when it came (a repeat
 * comes again), and not while the pointer or the focus is on it; a problem
 * stays until dismissed.
 */
function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (key: string) => void }) {
  const { t } = useLocale();
  const [held, setHeld] = useState(false);
  const { title, lines, detail, tone } = toast.content();
  const leaves = tone !== 'problem' && !held;
  useEffect(() => {
    if (!leaves) return;
    const timer = setTimeout(() => onDismiss(toast.key), TOAST_MS);
    return () => clearTimeout(timer);
  }, [leaves, toast.key, onDismiss]);
  const hold = () => setHeld(true);
  const release = () => setHeld(false);

  return (
    <div
      className={`toast${tone === 'problem' ? ' toast--error' : ''}`}
      onPointerEnter={hold}
      onPointerLeave={release}
      onFocus={hold}
      onBlur={release}
    >
      <strong>{title}</strong>
      {toast.count !== undefined && toast.count > 1 && (
        <span className="toast__count"> {t('toasts.repeated', { count: toast.count })}</span>
      )}
      {lines.map((line, index) => (
        <p key={index}>{line}</p>
      ))}
      {detail && (
        <p className="toast__detail">
          <code>{detail}</code>
        </p>
      )}
      {toast.requestId && <p className="muted">{t('toasts.requestId', { id: toast.requestId })}</p>}
      <div className="toast__actions">
        {toast.link && (
          <a href={toast.link} target="_blank" rel="noreferrer noopener">
            {t('toasts.open')}
          </a>
        )}
        <button type="button" className="button button--quiet button--small" onClick={() => onDismiss(toast.key)}>
          {t('common.dismiss')}
        </button>
      </div>
    </div>
  );
}

function fromNotification(notification: AppNotification): Toast {
  const tone = FAILURE_KINDS.has(notification.kind) ? 'problem' : 'done';
  return {
    key: `notification-${notification.id}`,
    content: () => {
      const { title, body } = notificationText(notification);
      return { title, lines: [body], detail: null, tone };
    },
    link: notification.link,
    requestId: notification.requestId,
  };
}

function showWebNotification(notification: AppNotification): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || !document.hidden) return;
  const { title, body } = notificationText(notification);
  const shown = new Notification(title, { body, tag: `media-sync-${notification.id}` });
  shown.onclick = () => {
    if (notification.link) window.open(notification.link, '_blank', 'noopener');
    else window.focus();
  };
}
