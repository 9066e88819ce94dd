import { useState } from 'react';
import {
  isSnoozed,
  snoozeEndTime,
  snoozeFor,
  SNOOZE_CHOICES,
  type NotificationSnooze,
} from '../../../src-shared/model/notification-snooze.js';
import { NOTIFICATION_KINDS } from '../../../src-shared/model/settings.js';
import { useBridge } from '../../bridge/bridge-context.js';
import { ErrorNote } from '../../components/error-note.js';
import { StatusNote } from '../../components/status-note.js';
import { useNow } from '../../components/use-now.js';
import { useLocale } from '../../i18n/i18n.js';
import { notificationLabel } from '../../text/settings-form.js';
import { useStore } from '../../store/store.js';
import { useStores } from '../../store/stores.js';
import { useSettingChange } from './use-setting-change.js';

/** Settings → Notifications: a switch per kind, applied as it is switched; in a browser, the page's permission. */
export function NotificationsSection() {
  const { capabilities } = useBridge();
  const settings = useStore(useStores().settings);
  const setting = useSettingChange();
  const { t } = useLocale();

  return (
    <section className="settings__section card form" aria-labelledby="notify-title">
      <h2 id="notify-title">{t('settings.sections.notifications')}</h2>
      <fieldset className="settings__group">
        <legend>{t('settings.app.notify')}</legend>
        {NOTIFICATION_KINDS.map((kind) => (
          <label key={kind} className="field--inline">
            <input
              type="checkbox"
              checked={setting.pending?.notifications?.[kind] ?? settings.data?.notifications[kind] ?? false}
              disabled={!settings.data || setting.busy}
              onChange={(event) => void setting.change({ notifications: { [kind]: event.target.checked } })}
            />
            <span>{notificationLabel(kind)}</span>
          </label>
        ))}
      </fieldset>
      <Snooze setting={setting} snooze={settings.data?.notificationsSnoozed ?? null} ready={!!settings.data} />
      {!capabilities.canNotify && <BrowserNotifications />}
      <ErrorNote error={settings.error ?? setting.error} />
      <StatusNote text={setting.saved ? t('settings.app.saved') : ''} />
    </section>
  );
}

/**
 * "Snooze notifications": for an hour, until tomorrow, or until turned on;
 * while snoozed, until when, and the button that turns them on again.
 */
function Snooze(props: { setting: ReturnType<typeof useSettingChange>; snooze: NotificationSnooze; ready: boolean }) {
  const { t, locale } = useLocale();
  const { setting } = props;
  const now = useNow(SNOOZE_TICK_MS);
  const snooze =
    setting.pending?.notificationsSnoozed !== undefined ? setting.pending.notificationsSnoozed : props.snooze;
  const disabled = !props.ready || setting.busy;
  const snoozed = isSnoozed(snooze, now);
  const until = snooze?.until ?? null;
  return (
    <fieldset className="settings__group" aria-describedby="snooze-hint">
      <legend>{t('notify.snooze.heading')}</legend>
      <p role="status">
        {!snoozed
          ? t('notify.snooze.on')
          : until === null
            ? t('notify.snooze.untilOn')
            : t('notify.snooze.until', { time: snoozeEndTime(until, now, locale) })}
      </p>
      <div className="settings__snooze">
        {snoozed ? (
          <button
            type="button"
            className="button button--small"
            disabled={disabled}
            onClick={() => void setting.change({ notificationsSnoozed: null })}
          >
            {t('notify.snooze.resume')}
          </button>
        ) : (
          SNOOZE_CHOICES.map((choice) => (
            <button
              key={choice}
              type="button"
              className="button button--small"
              disabled={disabled}
              onClick={() => void setting.change({ notificationsSnoozed: snoozeFor(choice, Date.now()) })}
            >
              {t(`notify.snooze.${choice}`)}
            </button>
          ))
        )}
      </div>
      <small id="snooze-hint" className="muted">
        {t('notify.snooze.hint')}
      </small>
    </fieldset>
  );
}

/** How often "Snoozed until" looks whether the snooze has ended while Settings is open. */
const SNOOZE_TICK_MS = 30_000;

/** In a browser, the page's own notifications need the person's permission, asked once on a click. */
function BrowserNotifications() {
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(() => (supported ? Notification.permission : 'denied'));
  const { t } = useLocale();
  if (!supported) return <p className="muted">{t('settings.browserNotifications.unsupported')}</p>;
  if (permission === 'granted') return <p className="muted">{t('settings.browserNotifications.granted')}</p>;
  if (permission === 'denied') return <p className="muted">{t('settings.browserNotifications.denied')}</p>;
  return (
    <button
      type="button"
      className="button button--small settings__notify"
      onClick={() => void Notification.requestPermission().then(setPermission)}
    >
      {t('settings.browserNotifications.ask')}
    </button>
  );
}
