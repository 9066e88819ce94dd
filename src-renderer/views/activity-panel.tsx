import { useEffect, useRef, useState } from 'react';
import { Trans } from 'react-i18next';
import type { Notification as AppNotification } from '../../src-shared/ipc/ipc-contract.js';
import type { ConversionFollow } from '../../src-shared/model/conversion-follow.js';
import { useAction, useBridge } from '../bridge/bridge-context.js';
import { CopyLinkButtons } from '../components/copy-link-buttons.js';
import { ErrorNote } from '../components/error-note.js';
import { useNow } from '../components/use-now.js';
import { useLocale } from '../i18n/i18n.js';
import { describeFollow } from '../text/follow-text.js';
import { notificationText } from '../text/notification-text.js';
import { formatRelativeTime } from '../text/relative-time.js';
import { useStore } from '../store/store.js';
import { useStores } from '../store/stores.js';
import './activity-panel.css';

/** How often "5 min ago" is brought up to date while the panel is open. */
const CLOCK_TICK_MS = 30_000;

/**
 * The merged notifications, newest first, in a side panel beside the views
 * (not modal: the app stays usable). It takes focus when it opens; Escape
 * closes it and focus goes back to the Activity button that opened it.
 */
export function ActivityPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return <ActivityPanelBody onClose={onClose} />;
}

function activityButton(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[aria-controls="activity-panel"]');
}

function newestFirst(list: AppNotification[]): AppNotification[] {
  return [...list].sort((a, b) => b.at - a.at || b.id - a.id);
}

/** How many files the panel lists after their upload: the most recently changed. */
const FILES_SHOWN = 50;

function ActivityPanelBody({ onClose }: { onClose: () => void }) {
  const { capabilities } = useBridge();
  const stores = useStores();
  const { t, locale } = useLocale();
  const notifications = useStore(stores.notifications);
  // one line per file, the latest change first
  const follows = useStore(stores.conversions, (read) => read.data);
  const clear = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const now = useNow(CLOCK_TICK_MS);
  const [permission, setPermission] = useState(() =>
    typeof Notification === 'undefined' ? null : Notification.permission,
  );

  useEffect(() => {
    heading.current?.focus();
    return () => {
      // closed by Escape, Close or the Activity button: focus must not fall back to the page's top
      const focused = document.activeElement;
      if (!focused || focused === document.body || !focused.isConnected) activityButton()?.focus();
    };
  }, []);

  function close() {
    onClose();
    activityButton()?.focus();
  }

  async function askPermission() {
    setPermission(await Notification.requestPermission());
  }

  const list = newestFirst(notifications.data ?? []);
  return (
    <aside
      id="activity-panel"
      className="activity-panel"
      aria-labelledby="activity-panel-heading"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault();
          close();
        }
      }}
    >
      <div className="activity-panel__header">
        <h2 id="activity-panel-heading" ref={heading} tabIndex={-1}>
          {t('activity.title')}
        </h2>
        <button
          type="button"
          className="button button--small"
          onClick={() => void clear.run(() => stores.notifications.clear())}
          disabled={clear.busy || list.length === 0}
        >
          {t('activity.clear')}
        </button>
        <button type="button" className="button button--small button--quiet" onClick={close}>
          <Trans i18nKey="activity.close" components={{ hidden: <span className="visually-hidden" /> }} />
        </button>
      </div>
      {!capabilities.canNotify && permission === 'default' && (
        <div className="activity-panel__permission">
          <p className="muted">{t('activity.permissionHint')}</p>
          <button type="button" className="button button--small" onClick={() => void askPermission()}>
            {t('activity.askPermission')}
          </button>
        </div>
      )}
      <ErrorNote error={notifications.error} />
      <ErrorNote error={clear.error} onDismiss={clear.clearError} />
      {!notifications.data && !notifications.error && <p className="muted">{t('common.loading')}</p>}
      {notifications.data && list.length === 0 && <p className="muted activity-panel__empty">{t('activity.empty')}</p>}
      {follows && follows.length > 0 && <FollowList follows={follows.slice(0, FILES_SHOWN)} now={now} />}
      {list.length > 0 && (
        <ol className="activity-list" aria-label={t('activity.listLabel')}>
          {list.map((item) => {
            // in the page's language: the daemon may speak another
            const { title, body } = notificationText(item);
            return (
              <li key={item.id} className={`activity-item activity-item--${item.kind}`}>
                <div className="activity-item__head">
                  <strong className="activity-item__title">{title}</strong>
                  <time dateTime={new Date(item.at).toISOString()} title={new Date(item.at).toLocaleString(locale)}>
                    {formatRelativeTime(item.at, now, locale)}
                  </time>
                </div>
                {body && <p className="activity-item__body">{body}</p>}
                {item.requestId && (
                  <p className="activity-item__request muted">
                    <Trans
                      i18nKey="activity.requestId"
                      values={{ id: item.requestId }}
                      components={{ code: <code /> }}
                    />
                  </p>
                )}
                {/* a folder's batch: the link of each of its first files */}
                {item.files?.map((file) => (
                  <CopyLinkButtons
                    key={file.fileId}
                    accountId={file.accountId}
                    fileId={file.fileId}
                    kinds={['page']}
                    nameForLabel={file.name}
                  />
                ))}
                {item.link && (
                  <a href={item.link} target="_blank" rel="noreferrer noopener">
                    <Trans
                      i18nKey="activity.open"
                      values={{ what: body || title }}
                      components={{ hidden: <span className="visually-hidden" /> }}
                    />
                  </a>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </aside>
  );
}

/** One line per file after its upload or import, the latest change first: uploaded → converting → ready to watch. */
export function FollowList({ follows, now }: { follows: ConversionFollow[]; now: number }) {
  const { t, locale } = useLocale();
  return (
    <section aria-labelledby="activity-files-heading">
      <h3 id="activity-files-heading" className="activity-panel__subheading">
        {t('activity.filesHeading')}
      </h3>
      <ol className="activity-list activity-list--files" aria-label={t('activity.filesLabel')}>
        {follows.map((follow) => {
          const text = describeFollow(follow, locale);
          return (
            <li
              key={`${follow.accountId}/${follow.fileId}`}
              className={`activity-item activity-item--file activity-item--${text.tone}`}
            >
              <div className="activity-item__head">
                <strong className="activity-item__title">{follow.name}</strong>
                <time
                  dateTime={new Date(follow.updatedAt).toISOString()}
                  title={new Date(follow.updatedAt).toLocaleString(locale)}
                >
                  {formatRelativeTime(follow.updatedAt, now, locale)}
                </time>
              </div>
              <p className="activity-item__body">{text.label}</p>
              {text.watchable && follow.watchUrl && (
                <a href={follow.watchUrl} target="_blank" rel="noreferrer noopener">
                  <Trans
                    i18nKey="activity.openWatch"
                    values={{ name: follow.name }}
                    components={{ hidden: <span className="visually-hidden" /> }}
                  />
                </a>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
