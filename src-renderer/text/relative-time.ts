import { dateTimeFormat } from '../../src-shared/model/format.js';
import { t } from '../i18n/i18n.js';

/** "just now", "5 min ago", "3 h ago", else the date: how old a notification is, in the UI's language. */
export function formatRelativeTime(at: number, now: number, locale = 'en-GB'): string {
  const seconds = Math.round((now - at) / 1000);
  if (seconds < 45) return t('time.justNow');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('time.minutesAgo', { count: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 24) return t('time.hoursAgo', { count: hours });
  return dateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' }).format(at);
}
