import { useCallback, useEffect, useState } from 'react';
import type { Notification as AppNotification } from '../../src-shared/ipc/ipc-contract.js';
import { useBridge } from '../bridge/bridge-context.js';
import { useStores } from '../store/stores.js';
import type { ToastContent } from '../model/intent-toasts.js';
import { useLocale } from '../i18n/i18n.js';
import { notificationText } from '../model/notification-text.js';

const TOAST_MS = 6_000;
const FAILURE_KINDS = new Set(['uploadFailed', 'importFailed', 'accountProblem', 'dataDiskFull']);
/** older toasts make way past this many: one row of them at the window's foot */
const MAX_SHOWN = 3;

export interface Toast extends ToastContent {
  /** unique among all toasts: `notification-<id>`, `intent-<id>` */
  key: string;
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
 * opened files): `problem` toasts stay until dismissed, the rest fade after
 * a few seconds. Held by the App so toasts outlive a change of page.
 */
export function useToasts(): Toasts {
  const [shown, setShown] = useState<Toast[]>([]);
  const show = useCallback((toast: Toast) => setShown((previous) => addToast(previous, toast)), []);
  const dismiss = useCallback((key: string) => setShown((previous) => previous.filter((item) => item.key !== key)), []);

  useEffect(() => {
    const fading = shown.find((toast) => toast.tone === 'done');
    if (!fading) return;
    const timer = setTimeout(() => dismiss(fading.key), TOAST_MS);
    return () => clearTimeout(timer);
  }, [shown, dismiss]);

  return { shown, show, dismiss };
}

/**
 * `toast` added to those shown, as the newest: the same words again count on
 * the toast that said them ("×3") rather than stacking up, and are read out
 * again (a new key: a new node in the live region).
 */
export function addToast(shown: readonly Toast[], toast: Toast): Toast[] {
  const words = (item: Toast) => JSON.stringify([item.tone, item.title, item.lines, item.detail]);
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
  const bridge = useBridge();
  const { notifications } = useStores();
  const { t } = useLocale();
  const { show } = toasts;

  useEffect(
    () =>
      notifications.onDidAdd((notification) => {
        show(fromNotification(notification));
        if (bridge.shell === 'headless') showWebNotification(notification);
      }),
    [notifications, bridge, show],
  );

  return (
    <section className="toaster" aria-live="polite" aria-label={t('toasts.label')}>
      {toasts.shown.map((toast) => (
        <div key={toast.key} className={`toast${toast.tone === 'problem' ? ' toast--error' : ''}`}>
          <strong>{toast.title}</strong>
          {toast.count !== undefined && toast.count > 1 && (
            <span className="toast__count"> {t('toasts.repeated', { count: toast.count })}</span>
          )}
          {toast.lines.map((line, index) => (
            <p key={index}>{line}</p>
          ))}
          {toast.detail && (
            <p className="toast__detail">
              <code>{toast.detail}</code>
            </p>
          )}
          {toast.requestId && <p className="muted">{t('toasts.requestId', { id: toast.requestId })}</p>}
          <div className="toast__actions">
            {toast.link && (
              <a href={toast.link} target="_blank" rel="noreferrer noopener">
                {t('toasts.open')}
              </a>
            )}
            <button
              type="button"
              className="button button--quiet button--small"
              onClick={() => toasts.dismiss(toast.key)}
            >
              {t('common.dismiss')}
            </button>
          </div>
        </div>
      ))}
    </section>
  );
}

function fromNotification(notification: AppNotification): Toast {
  const { title, body } = notificationText(notification);
  return {
    key: `notification-${notification.id}`,
    title,
    lines: [body],
    detail: null,
    tone: FAILURE_KINDS.has(notification.kind) ? 'problem' : 'done',
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
