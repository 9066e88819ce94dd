import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';
import { t } from '../i18n/i18n.js';

/** "alice on media.example.com": how an account is named in the switcher and banners. */
export function accountLabel(account: Pick<AccountView, 'username' | 'baseUrl'>): string {
  const host = new URL(account.baseUrl).host;
  return account.username ? t('account.label', { username: account.username, host }) : host;
}
