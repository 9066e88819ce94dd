import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';
import { accountLabel } from '../text/account-label.js';
import { rateLimitText } from '../text/queue-row-text.js';
import { useLocale } from '../i18n/i18n.js';
import { gateLeftMs } from '../store/rate-limits-store.js';
import { useStore } from '../store/store.js';
import { useStores } from '../store/stores.js';
import { useNow } from './use-now.js';

/**
 * Requests left of each account's limit, or a countdown, moving each second,
 * while the server's Retry-After (or an administrator's switch) holds its
 * requests.
 */
export function RateLimitIndicator({ accounts }: { accounts: AccountView[] }) {
  const limits = useStore(useStores().rateLimits);
  const closed = [...limits.values()].some((entry) => gateLeftMs(entry, Date.now()) > 0);
  const now = useNow(closed ? 1_000 : null);
  const { t, locale } = useLocale();
  return (
    <ul className="rate-limits" aria-label={t('rateLimit.label')}>
      {accounts.map((account) => {
        const entry = limits.get(account.id);
        const left = gateLeftMs(entry, now);
        const text = entry ? rateLimitText(entry.view, left, locale) : t('rateLimit.none');
        return (
          <li
            key={account.id}
            className={left > 0 ? 'rate-limits__item rate-limits__item--waiting' : 'rate-limits__item'}
          >
            {accounts.length > 1 && (
              <span className="muted">{t('rateLimit.account', { account: accountLabel(account) })} </span>
            )}
            <span>{text}</span>
          </li>
        );
      })}
    </ul>
  );
}
