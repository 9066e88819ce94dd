import { useEffect, useState } from 'react';
import type { AccountView, RateLimitView } from '../../src-shared/ipc/ipc-contract.js';
import { useBridge, useConnection, useEvent } from '../bridge/bridge-context.js';
import { accountLabel } from '../model/account-label.js';
import { rateLimitText } from '../model/queue-row-text.js';
import { useLocale } from '../i18n/i18n.js';

/** A rate-limit view and when it arrived (performance.now()), so its gate counts down locally. */
export interface RateLimitEntry {
  view: RateLimitView;
  receivedAt: number;
}

/** Milliseconds until the account's gate reopens, counted from when the core said so. */
export function gateLeftMs(entry: RateLimitEntry | undefined, now: number): number {
  if (!entry) return 0;
  return Math.max(0, entry.view.gateOpensInMs - (now - entry.receivedAt));
}

/** Every account's request budget: loaded once, then kept from `app:rateLimitChanged`. */
export function useRateLimits(): Map<string, RateLimitEntry> {
  const bridge = useBridge();
  const connection = useConnection();
  const [limits, setLimits] = useState(() => new Map<string, RateLimitEntry>());

  useEffect(() => {
    if (connection !== 'open') return;
    let current = true;
    bridge.invoke('app:rateLimits', {}).then(
      (views) => {
        if (!current) return;
        const receivedAt = performance.now();
        setLimits(new Map(views.map((view) => [view.accountId, { view, receivedAt }])));
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [bridge, connection]);

  useEvent('app:rateLimitChanged', (view) => {
    setLimits((previous) => new Map(previous).set(view.accountId, { view, receivedAt: performance.now() }));
  });
  return limits;
}

/**
 * Requests left of each account's limit, or a countdown while the server's
 * Retry-After (or an administrator's switch) holds its requests. `now` ticks
 * each second in the parent, so the countdown moves without the core.
 */
export function RateLimitIndicator(props: {
  accounts: AccountView[];
  limits: Map<string, RateLimitEntry>;
  now: number;
}) {
  const many = props.accounts.length > 1;
  const { t, locale } = useLocale();
  return (
    <ul className="rate-limits" aria-label={t('rateLimit.label')}>
      {props.accounts.map((account) => {
        const entry = props.limits.get(account.id);
        const left = gateLeftMs(entry, props.now);
        const text = entry ? rateLimitText(entry.view, left, locale) : t('rateLimit.none');
        return (
          <li
            key={account.id}
            className={left > 0 ? 'rate-limits__item rate-limits__item--waiting' : 'rate-limits__item'}
          >
            {many && <span className="muted">{t('rateLimit.account', { account: accountLabel(account) })} </span>}
            <span>{text}</span>
          </li>
        );
      })}
    </ul>
  );
}
