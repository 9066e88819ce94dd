import type { AccountView } from '../../../src-shared/ipc/ipc-contract.js';
import { useLocale } from '../../i18n/i18n.js';
import { translate } from '../../i18n/translate.js';
import { accountLabel } from '../../text/account-label.js';
import { SETTINGS_SECTIONS, type SettingsSectionId } from '../../routes.js';
import { tokenStorageEncrypted } from '../../text/settings-form.js';
import { AppSection } from './app-section.js';
import { StartupSection } from './general-section.js';
import { LanguageSection } from './language-section.js';
import { NotificationsSection } from './notifications-section.js';
import { ScheduleSection } from './schedule-section.js';
import { SupportSection } from './support-section.js';
import { UpdatesSection } from './updates-section.js';
import './settings-view.css';

/**
 * Settings in sections, a side list to choose one (as desktop apps' settings
 * windows do) and the chosen section beside it. Each section has its own
 * address (`#/settings/uploads`), so a link or a notification opens it.
 */
export function SettingsView({ section, accounts }: { section: SettingsSectionId; accounts: AccountView[] }) {
  const { t } = useLocale();
  return (
    <div className="settings">
      <h1>{t('settings.title')}</h1>
      <div className="settings__layout">
        <nav className="settings__sections" aria-label={t('settings.sectionsLabel')}>
          <ul>
            {SETTINGS_SECTIONS.map((id) => (
              <li key={id}>
                <a href={`#/settings/${id}`} aria-current={id === section ? 'page' : undefined}>
                  {t(`settings.sections.${id}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings__content">
          <Section section={section} accounts={accounts} />
        </div>
      </div>
    </div>
  );
}

function Section({ section, accounts }: { section: SettingsSectionId; accounts: AccountView[] }) {
  switch (section) {
    case 'general':
      return (
        <>
          <LanguageSection />
          <StartupSection />
        </>
      );
    case 'uploads':
      return (
        <>
          <AppSection />
          <ScheduleSection />
        </>
      );
    case 'notifications':
      return <NotificationsSection />;
    case 'accounts':
      return <TokenStorage accounts={accounts} />;
    case 'updates':
      return <UpdatesSection />;
    case 'support':
      return <SupportSection />;
  }
}

function TokenStorage({ accounts }: { accounts: AccountView[] }) {
  const { t } = useLocale();
  return (
    <section className="settings__section card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">{t('settings.tokens.title')}</h2>
      <ul className="settings__tokens">
        {accounts.map((candidate) => {
          // the English description decides (a sentence in the catalogs says the same in any language)
          const encrypted = tokenStorageEncrypted(candidate.tokenStorage);
          const storage = candidate.tokenStorageText ? translate(candidate.tokenStorageText) : candidate.tokenStorage;
          return (
            <li key={candidate.id}>
              <strong>{accountLabel(candidate)}</strong>
              <span>{t('settings.tokens.keptIn', { storage })}</span>
              {!encrypted && <p className="settings__warning">{t('settings.tokens.notEncrypted')}</p>}
            </li>
          );
        })}
      </ul>
      <p>
        <a href="#/account">{t('settings.tokens.manage')}</a>
      </p>
    </section>
  );
}
