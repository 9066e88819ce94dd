import { useBridge } from '../../bridge/bridge-context.js';
import { ErrorNote } from '../../components/error-note.js';
import { StatusNote } from '../../components/status-note.js';
import { useLocale } from '../../i18n/i18n.js';
import { useStore } from '../../store/store.js';
import { useStores } from '../../store/stores.js';
import { useSettingChange } from './use-setting-change.js';

/** Settings → General → Start at login: applies as it is switched. */
export function StartupSection() {
  const { capabilities } = useBridge();
  const settings = useStore(useStores().settings);
  const setting = useSettingChange();
  const { t } = useLocale();

  return (
    <section className="settings__section card form" aria-labelledby="startup-title">
      <h2 id="startup-title">{t('settings.general.startup')}</h2>
      <label className="field--inline">
        <input
          type="checkbox"
          checked={setting.pending?.launchAtLogin ?? settings.data?.launchAtLogin ?? false}
          disabled={!settings.data || setting.busy}
          aria-describedby="settings-login-hint"
          onChange={(event) => void setting.change({ launchAtLogin: event.target.checked })}
        />
        <span>{t('settings.app.launch')}</span>
      </label>
      <small id="settings-login-hint" className="muted">
        {capabilities.canLaunchAtLogin ? t('settings.app.launchTray') : t('settings.app.launchServe')}
      </small>
      <ErrorNote error={settings.error ?? setting.error} />
      <StatusNote text={setting.saved ? t('settings.app.saved') : ''} />
    </section>
  );
}
