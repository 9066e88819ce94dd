import { useEffect, useState } from 'react';
import type { Notification as AppNotification } from '../../src-shared/ipc/ipc-contract.js';
import { useBridge, useEvent } from '../bridge/bridge-context.js';

const TOAST_MS = 6_000;
const FAILURE_KINDS = new Set(['uploadFailed', 'importFailed', 'accountProblem']);

/**
 * New notifications as in-page toasts, read out politely by screen readers.
 * In a browser they also go to Web Notifications when the person allowed
 * them and the page is in the background (Electron shows OS ones itself).
 * Failures stay until dismissed; the rest fade after a few seconds.
 */
export function Toaster() {
  const bridge = useBridge();
  const [toasts, setToasts] = useState<AppNotification[]>([]);

  useEvent('notifications:added', (notification) => {
    setToasts((shown) => [...shown.slice(-3), notification]);
    if (bridge.shell === 'headless') showWebNotification(notification);
  });

  useEffect(() => {
    const fading = toasts.filter((toast) => !FAILURE_KINDS.has(toast.kind));
    if (fading.length === 0) return;
    const timer = setTimeout(() => setToasts((shown) => shown.filter((toast) => toast !== fading[0])), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toasts]);

  return (
    <section className="toaster" aria-live="polite" aria-label="Notifications">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast${FAILURE_KINDS.has(toast.kind) ? ' toast--error' : ''}`}>
          <strong>{toast.title}</strong>
          <p>{toast.body}</p>
          {toast.requestId && <p className="muted">Request id {toast.requestId}</p>}
          <div className="toast__actions">
            {toast.link && (
              <a href={toast.link} target="_blank" rel="noreferrer noopener">
                Open
              </a>
            )}
            <button
              type="button"
              className="button button--quiet button--small"
              onClick={() => setToasts((shown) => shown.filter((item) => item !== toast))}
            >
              Dismiss
            </button>
          </div>
        </div>
      ))}
    </section>
  );
}

function showWebNotification(notification: AppNotification): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || !document.hidden) return;
  const shown = new Notification(notification.title, { body: notification.body, tag: `media-sync-${notification.id}` });
  shown.onclick = () => {
    if (notification.link) window.open(notification.link, '_blank', 'noopener');
    else window.focus();
  };
}
