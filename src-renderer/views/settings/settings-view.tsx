import type { AccountView } from '../../../src-shared/ipc/ipc-contract.js';
import { useLocale } from '../../i18n/i18n.js';
import { translate } from '../../i18n/translate.js';
import { accountLabel } from '../../model/account-label.js';
import { tokenStorageEncrypted } from '../../model/settings-form.js';
import { AppSection } from './app-section.js';
import { FoldersSection } from './folders-section.js';
import { LanguageSection } from './language-section.js';
import { ScheduleSection } from './schedule-section.js';
import { SupportSection } from './support-section.js';
import { UpdatesSection } from './updates-section.js';
import './settings-view.css';

/** Language, watched folders, app settings, the upload schedule, how tokens are kept, updates, diagnostics and logs. */
export function SettingsView({ account, accounts }: { account: AccountView; accounts: AccountView[] }) {
  const { t } = useLocale();
  return (
    <div className="settings">
      <h1>{t('settings.title')}</h1>
      <LanguageSection />
      <FoldersSection account={account} accounts={accounts} />
      <AppSection />
      <ScheduleSection />
      <TokenStorage accounts={accounts} />
      <UpdatesSection />
      <SupportSection />
    </div>
  );
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
    </section>
  );
}
