import { useState } from 'react';
import { NOTIFICATION_KINDS } from '../../../src-shared/model/settings.js';
import { useBridge } from '../../bridge/bridge-context.js';
import { ErrorNote } from '../../components/error-note.js';
import { StatusNote } from '../../components/status-note.js';
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
      {!capabilities.canNotify && <BrowserNotifications />}
      <ErrorNote error={settings.error ?? setting.error} />
      <StatusNote text={setting.saved ? t('settings.app.saved') : ''} />
    </section>
  );
}

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
