import { useId, useState } from 'react';
import { LANGUAGE_SETTINGS, type LanguageSetting } from '../../../src-shared/model/settings.js';
import { useAction } from '../../bridge/bridge-context.js';
import { useStore } from '../../store/store.js';
import { useStores } from '../../store/stores.js';
import { applyLanguageSetting, resolveLanguage, useLocale } from '../../i18n/i18n.js';
import { ErrorNote } from '../../components/error-note.js';
import { StatusNote } from '../../components/status-note.js';

/**
 * Settings → Language: "Same as the system" or a language of its own. A
 * choice applies at once, with no reload, and is saved with the settings.
 */
export function LanguageSection() {
  const stores = useStores();
  const settings = useStore(stores.settings);
  const action = useAction();
  // a flag, not the sentence: the sentence is said in the language just chosen
  const [saved, setSaved] = useState(false);
  const { t } = useLocale();
  const titleId = useId();
  const selectId = useId();
  const value = settings.data?.language ?? 'system';

  async function choose(language: LanguageSetting) {
    setSaved(false);
    applyLanguageSetting(language);
    if (await action.run(() => stores.settings.update({ language }))) setSaved(true);
  }

  return (
    <section className="settings__section card form" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('language.label')}</h2>
      <div className="field">
        <label htmlFor={selectId}>{t('language.label')}</label>
        <select
          id={selectId}
          value={value}
          disabled={!settings.data || action.busy}
          onChange={(event) => void choose(event.target.value as LanguageSetting)}
        >
          {LANGUAGE_SETTINGS.map((option) => (
            <option key={option} value={option}>
              {option === 'system'
                ? t('language.system', { language: t(`language.${resolveLanguage('system')}`) })
                : t(`language.${option}`)}
            </option>
          ))}
        </select>
      </div>
      <ErrorNote error={settings.error ?? action.error} />
      <StatusNote text={saved ? t('language.saved') : ''} />
    </section>
  );
}
